// Which files a re-evaluated bucket changed. A bucket's facts are compared with what they were, per
// file and as a reader sees them (code, severity, message, places, related locations): a directory
// re-bound because one page changed must not have every file of it re-published.
import type { Range } from '#grammar/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { type Fact, type KitOf, resolveFact } from './anchors.js';

/**
 * What a reader sees of a diagnostic, as a string. Remembered per diagnostic object: a rule that
 * keeps its results (the binder, for unchanged files) hands the same objects back, so their
 * readings compare as the same string objects.
 */
const readingCache = new WeakMap<Diagnostic, string>();

/** A range with what a reader sees of it (lines, columns) and what identifies it (offsets). */
function placeOf(r: Range): string {
  return `${r.start.offset}:${r.start.line}:${r.start.column}-${r.end.offset}:${r.end.line}:${r.end.column}`;
}

function readingOf(d: Diagnostic): string {
  let reading = readingCache.get(d);
  if (reading === undefined) {
    reading = `${d.code}\u0001${d.severity}\u0001${d.message}\u0001${placeOf(d.range)}\u0001${d.suggestion ?? ''}`;
    for (const r of d.related ?? []) reading += `\u0001${r.file}\u0002${placeOf(r.range)}\u0002${r.message}`;
    readingCache.set(d, reading);
  }
  return reading;
}

/** Per file: the readings of its facts among `facts`, in order, where they are now. */
export function readings(facts: readonly Fact[], kitOf: KitOf): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of facts) {
    const d = resolveFact(f, kitOf);
    const list = out.get(d.file);
    if (list) list.push(readingOf(d));
    else out.set(d.file, [readingOf(d)]);
  }
  return out;
}

function sameList(a: readonly string[] | undefined, b: readonly string[]): boolean {
  if (a === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Adds to `into` every file whose readings differ between `was` and `now`. */
export function changedFiles(was: Map<string, string[]>, now: Map<string, string[]>, into: Set<string>): void {
  for (const [file, list] of now) if (!sameList(was.get(file), list)) into.add(file);
  for (const file of was.keys()) if (!now.has(file)) into.add(file);
}
