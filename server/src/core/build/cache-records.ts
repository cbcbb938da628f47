// What `kit build`'s cache (`cli/build/`) remembers of a build, as plain data: each source file's
// hash and what other files can see of it (its shape), each page's key and what it was written as,
// the asset files, the diagnostics. A page's key is a hash of everything its output is made from:
// its own text, every file its compile read (layouts, components, css, js and declared files: the
// page's `dependsOn`), which files the component and layout names resolve to, the project config,
// kit itself (its version and the link runtime) and the options that change output. A page whose
// key is the one remembered is written as it was, byte for byte, without compiling it. Keys hold
// contents and paths relative to the project root only, never absolute paths or times, so a cache
// restored elsewhere (CI) keeps its keys.
import { sha256Hex as sha256 } from './assets.js';
import type { FileKind } from '#grammar/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { RenderMode } from '../model/summary.js';

/** Bumped whenever what the cache holds, or what a key covers, changes: an older cache is ignored. */
export const BUILD_CACHE_FORMAT = 2;

export { sha256 };

/**
 * A source's content hash: its text, and what reading it found (invalid UTF-8 is decoded as
 * U+FFFD, so two files can read the same and be reported differently).
 */
export function sourceHash(text: string, readIssues: readonly Diagnostic[] = []): string {
  return readIssues.length ? sha256(text + '\u0000' + JSON.stringify(readIssues)) : sha256(text);
}

/** A `.kit` file as a build saw it. */
export interface SourceRecord {
  path: string;
  hash: string;
  kind: FileKind;
  /** Package name and owner ID: what component and layout names resolve by. */
  pkg: string;
  id: string;
  /** Hash of its cross-file shape (`model/cross-shape.ts`). */
  shape: string;
  /** The files its `asset`, `wasm` and `error` declarations name, and whether each was a file. */
  probes: [string, boolean][];
  /**
   * What the file system said of it when it was read (`core/project/source-bytes.ts`: `stateOf`),
   * or '' when that proves nothing (it had changed moments before): while the file shows this
   * state, its bytes are those `hash` was taken of, and the next build does not read it.
   */
  state: string;
}

/** A page of a build: its key, what its compile read, and what it was written as. */
export interface PageRecord {
  source: string;
  key: string;
  /** The page's `dependsOn`: what its key is taken over. */
  deps: string[];
  pageId: string;
  route: string;
  render: RenderMode;
  cache?: string;
  errorPage?: string;
  /** Its prerendered paths and their files. */
  prerender: [string, string][];
  /** The files it wrote (those no earlier page took): hash and size of each. */
  files: Map<string, [string, number]>;
  kitJs: boolean;
  /** Asset URLs its document and error page may reference (`CompiledPage.assets`). */
  assets: string[];
  /** Its error page rendered as `404.html` (hash and size), when it has one. */
  notFound?: [string, number];
}

export interface AssetRecord {
  path: string;
  hash: string;
  size: number;
  immutable: boolean;
}

/** What every page's output depends on besides its own files. */
export interface GlobalInputs {
  /** kit's version, and the bundle's own hash when it runs bundled. */
  kit: string;
  /** Hash of the link runtime (`assets/kit/kit.js`). */
  runtime: string;
  ssr: boolean;
  strictBindings: boolean;
  /** The current directory relative to the project root: display paths (and so outputs) are relative to it. */
  cwd: string;
}

export function globalKey(g: GlobalInputs): string {
  return sha256(JSON.stringify([BUILD_CACHE_FORMAT, g.kit, g.runtime, g.ssr, g.strictBindings, g.cwd]));
}

/**
 * Which file each component and layout key (`<package>.<id>`) resolves to: the first by path, as
 * `PartCompiler` takes them. A page's key covers it, so that a component added, removed or renamed
 * anywhere compiles the pages again.
 */
export function partsKey(sources: Iterable<Pick<SourceRecord, 'path' | 'kind' | 'pkg' | 'id'>>): string {
  const seen = new Map<string, string>();
  for (const s of [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (s.kind === 'page') continue;
    const key = `${s.kind} ${s.pkg}.${s.id}`;
    if (!seen.has(key)) seen.set(key, s.path);
  }
  return sha256(JSON.stringify([...seen]));
}

/**
 * A page's key: the global inputs, the config modules, the parts' resolution, the page's source and
 * each file it was made from (`deps`: project-root-relative path and content hash, in order).
 */
export function pageKey(
  global: string,
  config: string,
  parts: string,
  source: string,
  deps: [string, string][],
): string {
  return sha256(JSON.stringify([global, config, parts, source, deps]));
}
