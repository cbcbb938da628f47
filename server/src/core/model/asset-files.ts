// The files a `.kit` file declares beside its markup: `asset "./logo.png"`, `wasm "./mod.wasm"` and
// `error "./error.html"`. Their paths are relative to the declaring file's directory; the checker
// asks whether each exists (`missing_asset`), the build copies it into the output under a content
// hash. One reading of a declared path for both, so they never disagree on which file is meant.
import type { Range } from '#grammar/index.js';
import { dirName } from './names.js';
import type { FileSummary } from './summary.js';

export interface DeclaredFile {
  kind: 'asset' | 'wasm' | 'error';
  /** As written in the declaration. */
  written: string;
  /** Where it points at. */
  range: Range;
  /** Workspace path of the file (`/`-separated, normalised), or undefined when the path is not relative. */
  path: string | undefined;
  /** Why `path` is undefined. */
  problem?: string;
}

/** Files declared by `asset`, `wasm` and `error`, in declaration order. */
export function declaredFiles(s: FileSummary): DeclaredFile[] {
  const out: DeclaredFile[] = [];
  for (const d of s.declarations) {
    if (d.kind === 'asset' || d.kind === 'error') out.push(declared(s, d.kind, d.file.value, d.file.range));
    else if (d.kind === 'wasm') {
      const t = d.target;
      out.push(declared(s, 'wasm', 'value' in t ? t.value : t.text, t.range));
    }
  }
  return out;
}

function declared(s: FileSummary, kind: DeclaredFile['kind'], written: string, range: Range): DeclaredFile {
  const path = relativeAssetPath(s.path, written);
  return typeof path === 'string' ? { kind, written, range, path } : { kind, written, range, path: undefined, ...path };
}

/**
 * `./img/logo.png` (or `img/logo.png`, `../shared/x.png`) beside `site/home.kit` → `site/img/logo.png`.
 * Absolute paths, URLs, backslashes, queries and fragments are refused: a declared file is a
 * source file, found the same way on every machine.
 */
export function relativeAssetPath(kitPath: string, written: string): string | { problem: string } {
  if (written === '') return { problem: 'the path is empty' };
  if (/^[A-Za-z][A-Za-z0-9+.-]*:|^\/|\\|[?#]/.test(written))
    return { problem: 'it must be a path relative to the declaring file (like "./logo.png")' };
  const dir = dirName(kitPath);
  const parts = dir === '.' ? [] : dir.split('/');
  for (const seg of written.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/');
}

/**
 * The spellings of a declared file's path that a URL attribute may use for it (`./img/logo.png`,
 * `img/logo.png`): the build rewrites those to the hashed file, the editor links them to it.
 */
export function assetSpellings(written: string): string[] {
  const bare = written.replace(/^(\.\/)+/, '');
  return [...new Set([written, bare, './' + bare])];
}
