// Watches the served directory for `kit dev` (Node's recursive `fs.watch`) and hands over changed
// paths in batches. Editors save in bursts (a temporary file renamed over the real one, a backup,
// several files at once): a batch closes when the tree has been quiet for a few milliseconds, or
// at most `maxWaitMs` after its first event. Batches are handled one at a time; what changes while
// one is being handled becomes the next. Paths under `node_modules` and dot folders (`.git`,
// `.kit`, `.kit-types`) are not sources and are ignored, as discovery ignores them.
import { watch, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';

export interface WatchOptions {
  quietMs?: number;
  maxWaitMs?: number;
}

function ignored(rel: string): boolean {
  return rel.split(/[\\/]/).some((s) => s === 'node_modules' || s.startsWith('.'));
}

export class SourceWatcher {
  private readonly watcher: FSWatcher;
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
    this.watcher = watch(root, { recursive: true }, (_event, name) => {
      if (name === null) return this.add(root);
      const rel = String(name);
      if (!ignored(rel)) this.add(join(root, rel.split('/').join(sep)));
    });
    this.watcher.on('error', (e) => this.onError(e));
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
    this.watcher.close();
  }
}
