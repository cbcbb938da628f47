// Naming conventions shared by the checker, the reports, the build and the generated app.
import type { FileKind } from '#grammar/index.js';

/** Base name of a path, without directories (both separators accepted). */
export function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i >= 0 ? path.slice(i + 1) : path;
}

export function dirName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i > 0 ? path.slice(0, i) : i === 0 ? path.slice(0, 1) : '.';
}

/** Page ID derived from the file name: `blog-post.page.kit` → `blog-post`, `about.kit` → `about`. */
export function pageIdFromPath(path: string): string {
  const base = baseName(path);
  if (base.endsWith('.page.kit')) return base.slice(0, -'.page.kit'.length);
  if (base.endsWith('.kit')) return base.slice(0, -'.kit'.length);
  return base;
}

/** Layout ID is the file's base name: `root.layout.kit` → `root`. */
export function layoutIdFromPath(path: string): string {
  const base = baseName(path);
  return base.endsWith('.layout.kit') ? base.slice(0, -'.layout.kit'.length) : pageIdFromPath(path);
}

export function ownerIdFromPath(path: string, kind: FileKind): string {
  if (kind === 'layout') return layoutIdFromPath(path);
  const base = baseName(path);
  if (kind === 'component' && base.endsWith('.cmp.kit')) return base.slice(0, -'.cmp.kit'.length);
  return pageIdFromPath(path);
}

/**
 * Capitalised words of the characters `keep` accepts: every dropped character starts a new word;
 * `P` before a leading digit; `Page` when nothing is left.
 */
function capitalisedWords(id: string, keep: RegExp): string {
  let out = '';
  let upperNext = true;
  for (const ch of id) {
    if (keep.test(ch)) {
      out += upperNext ? ch.toUpperCase() : ch;
      upperNext = false;
    } else {
      upperNext = true;
    }
  }
  if (out === '') return 'Page';
  return /^[0-9]/.test(out) ? `P${out}` : out;
}

/**
 * `Load<PageID>` naming (as the original names its load functions): keep ASCII letters, digits
 * and `_`. `blog.post` → `BlogPost`, `404` → `P404`, `my_page` → `My_page`.
 */
export function exportedIdentifier(id: string): string {
  return capitalisedWords(id, /[A-Za-z0-9_]/);
}

export function loadFunctionName(pageId: string): string {
  return 'Load' + exportedIdentifier(pageId);
}

/**
 * Generated adapter names for reports (`handler` field): every separator `. - _ / { }` starts a
 * new capitalised word, unlike `exportedIdentifier` which keeps `_`.
 */
export function exportedRouteName(id: string): string {
  return capitalisedWords(id, /[A-Za-z0-9]/);
}

const HANDLER_SYMBOL = /^[A-Z][A-Za-z0-9_]*$/;
/** Handler symbols bind to exported functions by exact name; kit keeps Go's capitalised convention. */
export function isExportedSymbol(name: string): boolean {
  return HANDLER_SYMBOL.test(name);
}

export const PAGE_ID_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.\-]*$/;
