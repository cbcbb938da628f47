// What `kit build` prints of itself: the summary line it ends with and, on a terminal, the progress
// line of a build that takes more than a second.
import { performance } from 'node:perf_hooks';
import type { CliIO } from '../io.js';

/**
 * `4000` → `4,000`. Written out rather than `toLocaleString('en-US')`, whose first call loads the
 * locale data: tens of milliseconds of a build that aims at well under a second.
 */
export function groupThousands(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? '-' + out : out;
}

/**
 * `built 4,000 pages in 0.8 s → dist/`; with the cache, how many of them were rendered and how many
 * taken from it: `built 4,000 pages in 0.3 s → dist/ (1 rendered, 3,999 from the cache)`.
 */
export function summaryLine(pages: number, ms: number, out: string, kept?: number): string {
  const seconds = ms < 100 ? (ms / 1000).toFixed(2) : (ms / 1000).toFixed(1);
  const cache =
    kept === undefined ? '' : ` (${groupThousands(pages - kept)} rendered, ${groupThousands(kept)} from the cache)`;
  return (
    `built ${groupThousands(pages)} page${pages === 1 ? '' : 's'} in ${seconds} s → ` +
    `${out.endsWith('/') ? out : out + '/'}${cache}\n`
  );
}

/** A progress line on a TTY, shown once a build has run for a second. */
export function progressReporter(
  io: CliIO,
  started: number,
): { update(done: number, total: number): void; clear(): void } {
  let shown = false;
  let last = 0;
  return {
    update(done, total) {
      if (!io.stderr.isTTY) return;
      const now = performance.now();
      if (now - started < 1000 || now - last < 100) return;
      last = now;
      shown = true;
      io.stderr.write(`\r\u001b[2Kkit build: rendering ${groupThousands(done)} / ${groupThousands(total)} pages`);
    },
    clear() {
      if (shown) io.stderr.write('\r\u001b[2K');
    },
  };
}
