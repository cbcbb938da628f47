// Watches the served directory for `kit dev` and hands over changed paths in batches. On Linux
// every directory gets its own watch (inotify on a directory reports what happens to its entries,
// whichever file object a name points at), because a watch on a file is lost when an editor saves
// by renaming a new file over it; elsewhere Node's recursive `fs.watch` does this natively.
// Editors save in bursts (a temporary file renamed over the real one, a backup, several files at
// once): a batch closes when the tree has been quiet for a few milliseconds, or
// at most `maxWaitMs` after its first event. Batches are handled one at a time; what changes while
// one is being handled becomes the next. Paths under `node_modules` and dot folders (`.git`,
// `.kit`, `.kit-types`) are not sources and are ignored, as discovery ignores them.
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';

export interface WatchOptions {
  quietMs?: number;
  maxWaitMs?: number;
}

function ignored(rel: string): boolean {
  return rel.split(/[\\/]/).some((s) => s === 'node_modules' || s.startsWith('.'));
}

export class SourceWatcher {
  /** Watches by directory (one entry, the root, where the platform watches recursively). */
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly recursive = process.platform !== 'linux';
  private pending = new Set<string>();
  private quiet: NodeJS.Timeout | undefined;
  private firstAt = 0;
  private busy = false;
  private closed = false;
  private readonly quietMs: number;
  private readonly maxWaitMs: number;

  constructor(
    private readonly root: string,
    private readonly onBatch: (paths: Set<string>) => Promise<void>,
    private readonly onError: (e: Error) => void,
    opts: WatchOptions = {},
  ) {
    this.quietMs = opts.quietMs ?? 4;
    this.maxWaitMs = opts.maxWaitMs ?? 25;
    this.watchDir(root);
  }

  private watchDir(dir: string): void {
    if (this.watchers.has(dir) || this.closed) return;
    let w: FSWatcher;
    try {
      w = watch(dir, { recursive: this.recursive }, (_event, name) => {
        if (name === null) return this.add(dir);
        const rel = String(name);
        if (!ignored(rel)) this.changed(join(dir, rel.split('/').join(sep)));
      });
    } catch {
      return; // gone already: its parent's watch reports that
    }
    w.on('error', () => this.unwatch(dir));
    this.watchers.set(dir, w);
    if (this.recursive) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) if (e.isDirectory() && !ignored(e.name)) this.watchDir(join(dir, e.name));
  }

  private unwatch(dir: string): void {
    for (const [d, w] of this.watchers) {
      if (d === dir || d.startsWith(dir + sep)) {
        w.close();
        this.watchers.delete(d);
      }
    }
  }

  /** A path an event named: a new directory gets watched (and its files counted as changed). */
  private changed(path: string): void {
    if (!this.recursive) {
      let isDir = false;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        this.unwatch(path);
      }
      if (isDir && !this.watchers.has(path)) this.watchDir(path);
    }
    this.add(path);
  }

  private add(path: string): void {
    if (this.closed) return;
    if (this.pending.size === 0) this.firstAt = performance.now();
    this.pending.add(path);
    this.schedule();
  }

  private schedule(): void {
    if (this.busy) return;
    clearTimeout(this.quiet);
    const waited = performance.now() - this.firstAt;
    this.quiet = setTimeout(() => this.flush(), Math.max(0, Math.min(this.quietMs, this.maxWaitMs - waited)));
  }

  private flush(): void {
    if (this.closed || this.busy || this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Set();
    this.busy = true;
    this.onBatch(batch)
      .catch((e: unknown) => this.onError(e instanceof Error ? e : new Error(String(e))))
      .finally(() => {
        this.busy = false;
        if (this.pending.size > 0) this.schedule();
      });
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.quiet);
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}
