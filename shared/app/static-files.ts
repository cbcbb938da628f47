// The built static output as the app serves it: an in-memory table keyed by decoded request path,
// filled from the route table. Requests never reach the file system by a path they chose: a path
// is either a key of this table or nothing, so traversal has nothing to traverse. Bodies come from
// `<appdir>/static/` or, inside a single executable, from its embedded assets, and are read once
// on first use.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { StaticFile } from './manifest.js';

/** Where file bodies come from. */
export interface StaticSource {
  read(file: string): Buffer;
  readonly kind: 'dir' | 'sea';
  /**
   * A file the table was not made with, by its key, if the source has it now: `kit dev` learns its
   * asset files as it compiles the pages that link them. A build's output is complete: no lookup.
   */
  lookup?(key: string): StaticFile | undefined;
}

function safeRelative(file: string): boolean {
  if (file === '' || file.startsWith('/') || file.includes('\\') || file.includes('\0')) return false;
  return file.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

export function dirSource(root: string): StaticSource {
  return {
    kind: 'dir',
    read(file: string): Buffer {
      if (!safeRelative(file))
        throw new Error(`static file ${JSON.stringify(file)} is not a relative path inside the output`);
      return readFileSync(join(root, ...file.split('/')));
    },
  };
}

interface SeaModule {
  isSea(): boolean;
  getAsset(key: string): ArrayBuffer;
  getRawAsset?(key: string): ArrayBuffer;
}

let seaModule: SeaModule | null | undefined;

/** `node:sea` when running as a single executable, else null. */
export function seaApi(): SeaModule | null {
  if (seaModule !== undefined) return seaModule;
  try {
    // `node:sea` exists from Node 20.12; a plain require keeps this file loadable everywhere.
    const req = typeof require === 'function' ? require : createRequire(import.meta.url);
    const sea = req('node:sea') as SeaModule;
    seaModule = sea.isSea() ? sea : null;
  } catch {
    seaModule = null;
  }
  return seaModule;
}

/** SEA asset key of a static file. */
export function seaAssetKey(file: string): string {
  return 'static/' + file;
}

export function seaSource(sea: SeaModule): StaticSource {
  return {
    kind: 'sea',
    read(file: string): Buffer {
      const ab = sea.getRawAsset ? sea.getRawAsset(seaAssetKey(file)) : sea.getAsset(seaAssetKey(file));
      return Buffer.from(ab);
    },
  };
}

export interface StaticEntry {
  /** Decoded request path without the leading `/`: the table key. */
  readonly key: string;
  /** Path below the static root as stored. */
  readonly file: string;
  readonly type: string;
  readonly cache: string;
  readonly isHtml: boolean;
  /** Loaded on first use. */
  body(): Buffer;
  /** The headers of a plain 200 answer with Cache-Control `cache` (built once, reused). */
  headers(cache: string): Record<string, string | number>;
}

/** Rewrites HTML files once, when first read (a traced app adds the trace bridge). */
export type HtmlTransform = (html: string) => string;

class Entry implements StaticEntry {
  private buf: Buffer | undefined;
  readonly isHtml: boolean;
  constructor(
    private readonly source: StaticSource,
    readonly key: string,
    readonly file: string,
    readonly type: string,
    readonly cache: string,
    private readonly transform: HtmlTransform | undefined,
  ) {
    this.isHtml = type.startsWith('text/html');
  }
  body(): Buffer {
    if (this.buf !== undefined) return this.buf;
    const raw = this.source.read(this.file);
    return (this.buf =
      this.isHtml && this.transform !== undefined ? Buffer.from(this.transform(raw.toString('utf8'))) : raw);
  }
  private lastCache: string | undefined;
  private lastHeaders: Record<string, string | number> | undefined;
  headers(cache: string): Record<string, string | number> {
    if (this.lastCache === cache && this.lastHeaders !== undefined) return this.lastHeaders;
    this.lastCache = cache;
    return (this.lastHeaders = {
      'Content-Type': this.type,
      'Content-Length': this.body().length,
      'Cache-Control': cache,
      'X-Content-Type-Options': 'nosniff',
    });
  }
}

export class StaticTable {
  private readonly entries = new Map<string, StaticEntry>();
  constructor(
    files: Record<string, StaticFile>,
    readonly source: StaticSource,
    private readonly html?: HtmlTransform,
  ) {
    for (const key of Object.keys(files)) {
      const f = files[key];
      this.entries.set(key, new Entry(source, key, f.file, f.type, f.cache, html));
    }
  }
  /** The file at a decoded request path without its leading `/` (`''` is the root). */
  get(key: string): StaticEntry | undefined {
    const e = this.entries.get(key);
    if (e !== undefined || this.source.lookup === undefined) return e;
    const f = this.source.lookup(key);
    if (f === undefined) return undefined;
    const late = new Entry(this.source, key, f.file, f.type, f.cache, this.html);
    this.entries.set(key, late);
    return late;
  }
  get size(): number {
    return this.entries.size;
  }
  /** Every table key. */
  keys(): IterableIterator<string> {
    return this.entries.keys();
  }
  /** Reads every body now (so a broken build fails at start-up, not on the first request). */
  preload(): void {
    for (const e of this.entries.values()) e.body();
  }
}
