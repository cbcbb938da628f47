// The three writers of a static output, behind one `Tree` interface that `output.ts` writes a site
// through: one file at a time on this thread (`SyncTree`), on a writing thread of their own
// (`ThreadTree`, `kit build`'s), and into an output patched in place, only the files whose bytes
// differ (`PatchTree`). Every failure to write becomes an `OutputError` naming the file.
import { FileWriter, type OutputEntries } from './file-writer.js';
import { ASSETS_MANIFEST } from './manifests.js';
import type { OutFile } from './site-files.js';
import { WriteFailed, WriteThread } from './write-thread.js';

export class OutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputError';
  }
}

function bytesOf(f: OutFile): string | Uint8Array {
  return f.content ?? f.kept!.bytes();
}

export function writeError(rel: string, e: unknown): OutputError {
  return new OutputError(`cannot write ${rel}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
}

function threadError(e: unknown): never {
  if (e instanceof WriteFailed) throw new OutputError(e.message);
  throw new OutputError(`cannot write the output: ${(e as Error).message}`);
}

export interface Tree {
  write(f: OutFile, hash: string): void | Promise<void>;
  /** Removes files written ahead that the site does not have (`EarlyOutput.stray`). */
  remove?(rels: string[]): Promise<void>;
  finish(): void | Promise<OutputEntries | undefined>;
}

/** The synchronous writer: one file at a time on this thread. */
export class SyncTree implements Tree {
  private readonly files: FileWriter;
  constructor(root: string) {
    this.files = new FileWriter(root);
  }

  write(f: OutFile): void {
    try {
      this.files.write(f.rel, bytesOf(f));
    } catch (e) {
      throw writeError(f.rel, e);
    }
  }

  finish(): void {}
}

/**
 * `kit build`'s writer: the files written on a thread of their own (`write-thread.ts`); `thread`:
 * one that wrote files ahead (`EarlyOutput`), which are not written again.
 */
export class ThreadTree implements Tree {
  private readonly thread: WriteThread;
  constructor(root: string, withEntries = false, idle?: () => boolean, thread?: WriteThread) {
    this.thread = thread ?? new WriteThread(root, withEntries, idle);
    if (thread) thread.whileWaiting = idle;
  }

  write(f: OutFile): Promise<void> | undefined {
    if (f.early) return undefined;
    return this.thread.write(f.rel, bytesOf(f)).catch(threadError);
  }

  remove(rels: string[]): Promise<void> {
    return this.thread.remove(rels).catch(threadError);
  }

  finish(): Promise<OutputEntries | undefined> {
    return this.thread.finish().catch(threadError);
  }
}

/**
 * The output in place, as the build that wrote it left it (the build cache checked it): its assets
 * manifest's entries (each file's hash and size, the cache policies) and the manifest's own hash.
 */
export interface PreviousOutput {
  hashes: ReadonlyMap<string, string>;
  sizes: ReadonlyMap<string, number>;
  cache: ReadonlyMap<string, string>;
  manifest: string;
}

/**
 * The writer of an output patched in place: a file whose bytes the output already holds is not
 * written; the others are written into the fresh directory (on the writing thread), to be moved into
 * the output once all are (`patchInto`).
 */
export class PatchTree implements Tree {
  readonly staged: string[] = [];
  readonly seen = new Set<string>();
  private readonly thread: ThreadTree;
  constructor(
    root: string,
    private readonly previous: PreviousOutput,
  ) {
    this.thread = new ThreadTree(root);
  }

  write(f: OutFile, hash: string): Promise<void> | undefined {
    this.seen.add(f.rel);
    const same = f.rel === ASSETS_MANIFEST ? this.previous.manifest === hash : this.previous.hashes.get(f.rel) === hash;
    if (same) return undefined;
    this.staged.push(f.rel);
    return this.thread.write(f);
  }

  async finish(): Promise<undefined> {
    // Its entries would be those of the staged files only.
    await this.thread.finish();
    return undefined;
  }

  /** The files of the previous output that this one does not have. */
  removed(): string[] {
    return [...this.previous.hashes.keys()].filter((rel) => !this.seen.has(rel));
  }
}
