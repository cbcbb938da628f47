// Latency helpers of the language server benchmarks: percentiles, the server's CPU time, and the
// time from a `didChange` to its `publishDiagnostics` (the small-edit figure other benchmarks of
// the server compare their requests with, measured the same way in the same run).
import { readFileSync } from 'node:fs';
import type { LspClient } from '#test/server/lsp/helpers/lsp-client.js';

export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))];
}

export function fmt(ms: number): string {
  return `${ms.toFixed(2)} ms`;
}

export function timeInProcess(fn: () => void, runs = 30): number {
  const xs: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const t = performance.now();
    fn();
    if (i >= 5) xs.push(performance.now() - t);
  }
  return pct(xs, 0.5);
}

/**
 * CPU time (user + system, ms) the process has used so far, from /proc where there is one. On a
 * shared machine the latencies include waiting for a core; the server's CPU time per edit does not.
 */
export function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/**
 * Edits one spot back and forth (insert a character, delete it) and times didChange → publishDiagnostics.
 * `times.cpu`: the server's CPU time per measured edit (ms), NaN where it cannot be read. The
 * document is at `fromVersion` before and at `times.version` after (an even count of edits leaves
 * its text as it was).
 */
export async function editLatency(
  client: LspClient,
  uri: string,
  line: number,
  character: number,
  edits: number,
  warmup: number,
  fromVersion = 1,
): Promise<number[] & { cpu?: number; version?: number }> {
  const times: number[] & { cpu?: number; version?: number } = [];
  let version = fromVersion;
  let cpuStart = NaN;
  for (let i = 0; i < warmup + edits; i++) {
    if (i === warmup) cpuStart = cpuMs(client.child.pid);
    version++;
    const insert = i % 2 === 0;
    const range = insert
      ? { start: { line, character }, end: { line, character } }
      : { start: { line, character }, end: { line, character: character + 1 } };
    const done = client.waitForDiagnostics(uri, (d) => d.version === version, { fresh: true, timeoutMs: 20000 });
    const t = performance.now();
    await client.change(uri, version, [{ range, text: insert ? 'x' : '' }]);
    const d = await done;
    if (i >= warmup) times.push(d.at - t);
  }
  times.cpu = (cpuMs(client.child.pid) - cpuStart) / edits;
  times.version = version;
  return times;
}
