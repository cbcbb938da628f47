// What `kit dev` says about the sources' problems, in the terminal and in the overlay: the errors
// and warnings `kit check` reports, formatted by the same code (`checkHuman`), bounded to what a
// person reads at once, and told once: a change prints the problems it brought and one line for
// those it took away. The terminal never repeats a warning a later save did not touch, and a file
// with ten thousand errors prints a screenful, not the ten thousand (`kit check` lists them all).
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import type { SourceLookup } from '#core/model/report-positions.js';
import { checkHuman } from '../format/check-output.js';

/** Problems of one code shown in full at once (as `kit build` shows warnings); the rest are counted. */
export const SHOWN_PER_CODE = 5;
/** Problems shown in full at once, whatever their codes. */
export const SHOWN_AT_ONCE = 30;

const plural = (n: number, w: string) => `${n.toLocaleString('en-US')} ${w}${n === 1 ? '' : 's'}`;

/** `1 error, 2 warnings` (the kinds present; `no problems` for none). */
export function countProblems(diags: readonly Diagnostic[]): string {
  const n = { error: 0, warning: 0, info: 0 };
  for (const d of diags) n[d.severity]++;
  const parts: string[] = [];
  if (n.error) parts.push(plural(n.error, 'error'));
  if (n.warning) parts.push(plural(n.warning, 'warning'));
  if (n.info) parts.push(plural(n.info, 'note'));
  return parts.length ? parts.join(', ') : 'no problems';
}

/** Errors first, then warnings and notes, each in `kit check`'s order. */
function bySeverity(diags: readonly Diagnostic[]): Diagnostic[] {
  const rank = { error: 0, warning: 1, info: 2 };
  return [...diags].sort((a, b) => rank[a.severity] - rank[b.severity]);
}

/**
 * The problems as `kit check` prints them (`color` for a terminal), at most `SHOWN_PER_CODE` of a
 * code and `SHOWN_AT_ONCE` in all, each code's rest counted in one line, without `kit check`'s
 * summary line (the caller says what the problems are of). Never throws: what the formatter cannot
 * format (a bug, or a source too big for a string) is said in a line per problem.
 */
export function formatProblems(diags: readonly Diagnostic[], source: SourceLookup, color: boolean): string {
  const sorted = bySeverity(diags);
  try {
    return checkHuman(sorted, source, 0, color, {
      perCode: SHOWN_PER_CODE,
      errorsToo: true,
      atMost: SHOWN_AT_ONCE,
      listAll: 'kit check',
      noSummary: true,
    });
  } catch (e) {
    const shown = sorted.slice(0, SHOWN_AT_ONCE);
    const rest = sorted.length - shown.length;
    return (
      shown.map((d) => `${d.file}:${d.range.start.line + 1}: ${d.severity} ${d.code}: ${d.message}\n`).join('') +
      (rest ? `… and ${plural(rest, 'more problem')}; kit check lists them all\n` : '') +
      `(kit dev could not show their code frames: ${(e as Error)?.message ?? String(e)})\n`
    );
  }
}

/** A problem as the terminal knows it: where and what, not the exact position (an edit above moves it). */
function keyOf(d: Diagnostic): string {
  return `${d.file}\u0000${d.severity}\u0000${d.code}\u0000${d.message}`;
}

export interface ProblemNews {
  /** Problems not told before (in `kit check`'s order). */
  fresh: Diagnostic[];
  /** Problems told before and now gone. */
  gone: Diagnostic[];
}

/** What the terminal has told: each problem once, while it lasts. */
export class ProblemLog {
  private told = new Map<string, Diagnostic[]>();

  /** The news of the problems `now` against those told; `now` becomes what was told. */
  update(now: readonly Diagnostic[]): ProblemNews {
    const next = new Map<string, Diagnostic[]>();
    for (const d of now) {
      const k = keyOf(d);
      const list = next.get(k);
      if (list) list.push(d);
      else next.set(k, [d]);
    }
    const fresh: Diagnostic[] = [];
    const gone: Diagnostic[] = [];
    for (const [k, list] of next) {
      const before = this.told.get(k)?.length ?? 0;
      if (list.length > before) fresh.push(...list.slice(before));
    }
    for (const [k, list] of this.told) {
      const after = next.get(k)?.length ?? 0;
      if (list.length > after) gone.push(...list.slice(after));
    }
    this.told = next;
    return { fresh, gone };
  }
}

/** `home.kit` or `home.kit, about.kit and 3 more files`: where problems were. */
export function filesOf(diags: readonly Diagnostic[]): string {
  const files = [...new Set(diags.map((d) => d.file))];
  return files.length <= 3 ? files.join(', ') : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more files`;
}
