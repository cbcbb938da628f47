// What one `kit build` knows of its sources and of the other files its pages read, for the cache
// (`incremental.ts`): each file's content hash, taken once; the texts read so far; the file state
// each source record keeps (`core/project/source-bytes.ts`); paths as keys hold them.
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { sha256, sourceHash, type SourceRecord } from '#core/build/cache-records.js';
import { isAppConfigPath } from '#core/model/app-config.js';
import { readSourceFile, type SourceText } from '#core/project/read-source.js';
import { settled, settledState, sourceBytesHash, stateOf, type FileState } from '#core/project/source-bytes.js';
import type { Workspace } from '#core/workspace/workspace.js';

export class SourceLedger {
  /** What was read of the sources so far (`loadProject` takes them instead of reading them again). */
  readonly texts = new Map<string, SourceText>();
  /** What the file system said of each source the load read (`LoadOptions.states`). */
  readonly readStates = new Map<string, FileState>();
  private readonly hashes = new Map<string, string>();
  /** The settled states (`settled`) of the sources `hashSources` looked at. */
  private readonly states = new Map<string, string>();
  /** When the build started, before it read any source (`settled`). */
  private readonly started = Date.now();
  private readonly keyPaths = new Map<string, string>();
  private prefix: string | undefined;

  /** `cwd`: what display paths are relative to; `root`: the project's, what keys are relative to. */
  constructor(
    private readonly cwd: string,
    private readonly root: string,
  ) {}

  /**
   * Hashes the bytes of `paths` (display paths, not decoded): a `.kit` file that shows the state its
   * record in `records` kept is not read, its bytes are the record's. False when the whole load must
   * run instead: a name not listed as a regular file (`irregular`), or one that cannot be read (the
   * load reports either).
   */
  hashSources(
    paths: readonly string[],
    records: ReadonlyMap<string, SourceRecord>,
    irregular: ReadonlySet<string> | undefined,
  ): boolean {
    try {
      for (const p of paths) {
        if (irregular?.has(p)) return false;
        const record = records.get(p);
        if (record === undefined) {
          this.hashes.set(p, sourceBytesHash(this.abs(p)));
          continue;
        }
        // Taken before the read: a write after it changes the state the next build sees.
        const st = statSync(this.abs(p), { throwIfNoEntry: false });
        if (st === undefined) return false;
        const state = stateOf(st);
        if (record.state !== '' && state.id === record.state) {
          this.hashes.set(p, record.hash);
          this.states.set(p, record.state);
        } else {
          this.hashes.set(p, sourceBytesHash(this.abs(p)));
          this.states.set(p, st.isFile() ? settled(state, this.started) : '');
        }
      }
    } catch {
      return false;
    }
    return true;
  }

  /** The state a record of `path` keeps (`settled`): as this build found it when it read the file. */
  recordState(path: string): string {
    const known = this.states.get(path);
    if (known !== undefined) return known;
    const seen = this.texts.get(path)?.state ?? this.readStates.get(path);
    // A file a loading thread read: the file system is asked now.
    return seen !== undefined ? settled(seen, this.started) : settledState(this.abs(path), this.started);
  }

  /**
   * `s` as this build saw its file: its hash, and its state when it was read again (an unchanged
   * file read again, touched since, keeps its record's hash with its new state).
   */
  updated(s: SourceRecord): SourceRecord {
    const hash = this.hashOf(s.path);
    const state = this.states.get(s.path) ?? s.state;
    return hash === s.hash && state === s.state ? s : { ...s, hash, state };
  }

  /** A path as keys hold it: relative to the project root, `/`-separated. */
  keyPath(p: string): string {
    let k = this.keyPaths.get(p);
    if (k === undefined) {
      const rel = relative(this.root, resolve(this.cwd, p));
      this.keyPaths.set(p, (k = sep === '/' ? rel : rel.split(sep).join('/')));
    }
    return k;
  }

  /**
   * A display path made absolute: relative ones are plain and under the current directory, so they
   * are joined to it without normalising (thousands per build).
   */
  abs(p: string): string {
    return sep === '/' && !isAbsolute(p) && !p.startsWith('..') ? `${this.cwdPrefix}${p}` : resolve(this.cwd, p);
  }

  private get cwdPrefix(): string {
    if (this.prefix === undefined) {
      const cwd = resolve(this.cwd);
      this.prefix = cwd.endsWith(sep) ? cwd : cwd + sep;
    }
    return this.prefix;
  }

  /** A source's text, read once. */
  read(path: string): SourceText {
    let t = this.texts.get(path);
    if (t === undefined) this.texts.set(path, (t = readSourceFile(resolve(this.cwd, path), path)));
    return t;
  }

  /** The content hash of a source (from its text) or of any other file a page read (`missing` when absent). */
  hashOf(path: string, ws?: Workspace): string {
    let h = this.hashes.get(path);
    if (h !== undefined) return h;
    const entry = ws?.kit(path) ?? ws?.module(path);
    if (entry) h = sourceHash(entry.text, entry.readIssues);
    else if (this.texts.has(path)) {
      const t = this.texts.get(path)!;
      h = sourceHash(t.text, t.diagnostics);
    } else {
      try {
        const abs = resolve(this.cwd, path);
        h = statSync(abs).isFile() ? sha256(readFileSync(abs)) : 'missing';
      } catch {
        h = 'missing';
      }
    }
    this.hashes.set(path, h);
    return h;
  }

  /** The hash of the config modules among `modules`, with their paths. */
  configHash(modules: readonly string[], ws?: Workspace): string {
    return sha256(JSON.stringify(modules.filter(isAppConfigPath).map((m) => [this.keyPath(m), this.hashOf(m, ws)])));
  }
}
