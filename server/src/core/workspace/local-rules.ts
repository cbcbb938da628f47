// Each `.kit` file's own (local) rules, and the files whose rules wait (`deferLocalRules`: `kit dev`
// answers its first page before any rule has run). The workspace runs them; this keeps which wait.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { KitEntry } from '../model/entries.js';
import type { CheckOptions } from '../model/options.js';
import { localDiagnostics } from '../validate/index.js';

/** A file's local diagnostics: what reading it found (invalid UTF-8) first, then its rules' findings. */
export function withReadIssues(readIssues: readonly Diagnostic[] | undefined, local: Diagnostic[]): Diagnostic[] {
  return readIssues?.length ? [...readIssues, ...local] : local;
}

/** Runs the local rules of `e` under `options` into `e.local`. */
export function runLocalRules(e: KitEntry, options: CheckOptions): void {
  e.local = withReadIssues(e.readIssues, localDiagnostics(e.ast, e.summary, options));
}

export class DeferredLocalRules {
  private readonly waiting = new Set<string>();

  /** `deferring`: files read from now on wait, until the queue has once been emptied. */
  constructor(private deferring: boolean) {}

  /** Whether the rules of a file read now wait (it is then queued); a file given with a tree never does. */
  defers(path: string, withTree: boolean): boolean {
    const later = this.deferring && !withTree;
    if (later) this.waiting.add(path);
    else this.waiting.delete(path);
    return later;
  }

  /** `[path]` when its rules wait (taken out of the queue), else nothing. */
  takeFile(path: string): string[] {
    if (!this.waiting.has(path)) return [];
    this.waiting.delete(path);
    if (this.waiting.size === 0) this.deferring = false;
    return [path];
  }

  get size(): number {
    return this.waiting.size;
  }

  /** A file left, or was checked otherwise. */
  forget(path: string): void {
    this.waiting.delete(path);
  }

  /** Every file was checked at once (the options changed): nothing waits, and nothing will. */
  clear(): void {
    this.waiting.clear();
    this.deferring = false;
  }

  /** Up to `limit` waiting files, taken out of the queue; once it is empty, files no longer wait. */
  take(limit: number): string[] {
    const out: string[] = [];
    for (const path of this.waiting) {
      if (out.length >= limit) break;
      out.push(path);
    }
    for (const path of out) this.waiting.delete(path);
    if (this.waiting.size === 0) this.deferring = false;
    return out;
  }
}
