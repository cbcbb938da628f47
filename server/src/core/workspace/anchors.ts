// Cross-file facts without positions. A cross-file diagnostic (or a handler binding) that points
// into a `.kit` file is kept as the index of that place in the file's visible ranges
// (`model/cross-shape.ts`), and turned back into a range against the file's current version when
// read. Two versions of a file with the same shape have the same visible items in the same order,
// so an edit that only moves positions leaves every anchor valid and re-validates nothing.
import { type Range, isReparseable } from '#grammar/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { KitEntry } from '../model/entries.js';
import { visibleRanges } from '../model/cross-shape.js';

interface AnchorIndex {
  /** Rules normally point at the summary's own range objects. */
  byObject: Map<Range, number>;
  /** A copy of a visible range, by its offsets. */
  byOffsets: Map<string, number>;
}

/** Below this many visible ranges a scan is as fast as a lookup, and keeps no memory per file. */
const INDEXED_FROM = 64;
const indexes = new WeakMap<KitEntry, AnchorIndex>();

function indexOf(list: readonly (Range | undefined)[]): AnchorIndex {
  const index: AnchorIndex = { byObject: new Map(), byOffsets: new Map() };
  // Backwards, so that the first of two equal ranges wins.
  for (let i = list.length - 1; i >= 0; i--) {
    const r = list[i];
    if (!r) continue;
    index.byObject.set(r, i);
    index.byOffsets.set(`${r.start.offset}:${r.end.offset}`, i);
  }
  return index;
}

/** The index of `range` among the entry's visible ranges, or undefined when it is not one of them. */
export function anchorIn(e: KitEntry, range: Range): number | undefined {
  const list = visibleRanges(e);
  if (list.length >= INDEXED_FROM) {
    let index = indexes.get(e);
    if (!index) indexes.set(e, (index = indexOf(list)));
    return index.byObject.get(range) ?? index.byOffsets.get(`${range.start.offset}:${range.end.offset}`);
  }
  const at = list.indexOf(range);
  if (at >= 0) return at;
  const from = range.start.offset;
  const to = range.end.offset;
  const copy = list.findIndex((r) => r !== undefined && r.start.offset === from && r.end.offset === to);
  return copy >= 0 ? copy : undefined;
}

/** Where an anchor is in the entry's current version. */
export function rangeAt(e: KitEntry | undefined, anchor: number | undefined): Range | undefined {
  return e && anchor !== undefined ? visibleRanges(e)[anchor] : undefined;
}

/** A cross-file diagnostic as kept by the workspace. */
export interface Fact {
  /** As the rule produced it: its ranges are those of the versions it was evaluated against. */
  diagnostic: Diagnostic;
  /** Anchor of `diagnostic.range` when its file is a `.kit` file and the place is visible. */
  at?: number;
  /** Anchors of the related locations, by index. */
  related?: (number | undefined)[];
  /** `.kit` files this fact points into at a place that is not visible: only re-evaluation moves it. */
  positional?: string[];
  /** Lines and columns of the anchored places when last resolved (`placesOf`). */
  seen?: string;
  /** Versions (`versionOf`) of the `.kit` entries the places were taken from: unchanged ones need no resolving. */
  versions?: (number | undefined)[];
  /**
   * Not anchored yet: every file it points into holds a one-shot tree, which is never re-parsed in
   * place, so its ranges stay those a reader saw. It is anchored when one of those files is first
   * replaced by a version of the same shape (`anchorLate`), against the version being replaced.
   */
  late?: boolean;
}

const versions = new WeakMap<KitEntry, number>();
let nextVersion = 1;

/** A number per entry object: a file's entry is replaced on every change, so this names its version. */
function versionOf(e: KitEntry | undefined): number | undefined {
  if (!e) return undefined;
  let v = versions.get(e);
  if (v === undefined) versions.set(e, (v = nextVersion++));
  return v;
}

export type KitOf = (path: string) => KitEntry | undefined;

/** Every file a diagnostic points into: its own, then those of its related locations. */
function filesOfDiagnostic(d: Diagnostic): string[] {
  const out = [d.file];
  for (const r of d.related ?? []) out.push(r.file);
  return out;
}

/** `file` holds no tree an edit re-parses in place (a one-shot tree, a module, no entry). */
function oneShotFile(file: string, kitOf: KitOf): boolean {
  const e = kitOf(file);
  return !e || !isReparseable(e.ast);
}

export function toFact(d: Diagnostic, kitOf: KitOf): Fact {
  // Most facts point into files read once (the command line, files no editor has open): anchoring
  // them is put off until one of those files is edited, which most never are. (Tens of thousands of
  // facts on a first load: the files are asked one by one, with no list made of them.)
  let oneShot = oneShotFile(d.file, kitOf);
  if (oneShot && d.related)
    for (const r of d.related)
      if (!oneShotFile(r.file, kitOf)) {
        oneShot = false;
        break;
      }
  if (oneShot) return { diagnostic: d, late: true };
  return anchored(d, kitOf);
}

/**
 * Anchors a late fact in place, against the versions `kitOf` still gives (the one being replaced
 * among them). Answers the files it points into at places that are not visible.
 */
export function anchorLate(f: Fact, kitOf: KitOf): string[] {
  const a = anchored(f.diagnostic, kitOf);
  delete f.late;
  Object.assign(f, a);
  return f.positional ?? [];
}

/** The fact with its places anchored in the versions `kitOf` gives, and what a reader sees of them. */
function anchored(d: Diagnostic, kitOf: KitOf): Fact {
  const fact: Fact = { diagnostic: d };
  const positional: string[] = [];
  const place = (file: string, range: Range): number | undefined => {
    const e = kitOf(file);
    if (!e) return undefined;
    const at = anchorIn(e, range);
    if (at === undefined) positional.push(file);
    return at;
  };
  fact.at = place(d.file, d.range);
  if (d.related?.length) fact.related = d.related.map((r) => place(r.file, r.range));
  if (positional.length) fact.positional = positional;
  if (fact.at !== undefined || fact.related?.some((a) => a !== undefined)) {
    fact.seen = placesOf(fact, kitOf);
    fact.versions = filesOfDiagnostic(d).map((file) => versionOf(kitOf(file)));
  }
  return fact;
}

/**
 * Where the fact's anchored places are now, as lines and columns (what a reader of the diagnostic
 * sees). A fact whose places are as `seen` reads the same as before an edit.
 */
export function placesOf(f: Fact, kitOf: KitOf): string {
  let out = '';
  const add = (file: string, anchor: number | undefined) => {
    const r = rangeAt(kitOf(file), anchor);
    if (r) out += `${r.start.line},${r.start.column},${r.end.line},${r.end.column};`;
    else out += '-;';
  };
  add(f.diagnostic.file, f.at);
  f.diagnostic.related?.forEach((r, i) => {
    add(r.file, f.related?.[i]);
  });
  return out;
}

/** The diagnostic with its ranges where the anchored places are now. */
export function resolveFact(f: Fact, kitOf: KitOf): Diagnostic {
  const d = f.diagnostic;
  if (!f.versions) return d;
  if (filesOfDiagnostic(d).every((file, i) => versionOf(kitOf(file)) === f.versions![i])) return d;
  const range = rangeAt(kitOf(d.file), f.at) ?? d.range;
  let related = d.related;
  if (related && f.related) {
    let moved = false;
    const next = related.map((r, i) => {
      const now = rangeAt(kitOf(r.file), f.related?.[i]);
      if (!now || now === r.range) return r;
      moved = true;
      return { ...r, range: now };
    });
    if (moved) related = next;
  }
  if (range === d.range && related === d.related) return d;
  return related ? { ...d, range, related } : { ...d, range };
}

/** True (and `seen` updated) when the fact's anchored places moved since it was last looked at. */
export function placesMoved(f: Fact, kitOf: KitOf): boolean {
  if (f.seen === undefined) return false;
  const now = placesOf(f, kitOf);
  if (now === f.seen) return false;
  f.seen = now;
  return true;
}

/** Whether a fact's diagnostic or one of its related locations is in `file` (`filesOf`, without a list). */
export function pointsInto(f: Fact, file: string): boolean {
  const d = f.diagnostic;
  if (d.file === file) return true;
  if (d.related) for (const r of d.related) if (r.file === file) return true;
  return false;
}

/** Every file a fact points into: its own, then those of its related locations. */
export function filesOf(f: Fact): string[] {
  return filesOfDiagnostic(f.diagnostic);
}
