// The shape of a built page's document and file: the head every page starts with, the output file
// of a concrete path, the paths a page is prerendered to, and the order pages are listed in.
import { decodeEntities, escapeHtml, isUnsafeUrl } from '#shared/render/index.js';
import type { ParsedRoute } from '#shared/route/index.js';
import { prerenderedPaths } from '../model/concrete-paths.js';
import type { FileSummary } from '../model/summary.js';
import type { PrerenderPath } from './compiled.js';
import { push, type PNode } from './proto.js';
import { KIT_JS_TAG } from './runtime-script.js';

// The document head every page starts with. `lang="en"`: the language has no declaration for the
// document language yet, and browsers and screen readers need one; English is the default until a
// page-level declaration exists (the language has none).
const DOC_START =
  '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" ' +
  'content="width=device-width, initial-scale=1">\n';

/** What a document's head says of its page. */
export interface DocumentMeta {
  title: string;
  description?: string;
  canonical?: string;
}

/** The document up to `<body>`: head metadata, then stylesheets, the link runtime and module scripts. */
export function documentStart(
  meta: DocumentMeta,
  stylesheets: readonly string[],
  kitJs: boolean,
  scripts: readonly string[],
): string {
  let head = DOC_START + `<title>${escapeHtml(meta.title)}</title>\n`;
  if (meta.description !== undefined) head += `<meta name="description" content="${escapeHtml(meta.description)}">\n`;
  const canonical = meta.canonical;
  if (canonical !== undefined && !isUnsafeUrl(decodeEntities(canonical)))
    head += `<link rel="canonical" href="${escapeHtml(canonical)}">\n`;
  for (const h of stylesheets) head += `<link rel="stylesheet" href="${escapeHtml(h)}">\n`;
  if (kitJs) head += KIT_JS_TAG + '\n';
  for (const h of scripts) head += `<script type="module" src="${escapeHtml(h)}"></script>\n`;
  return head + '</head>\n<body>\n';
}

/** Output file of a concrete path: `/` → `index.html`, `/docs` → `docs/index.html`. */
export function outputFile(path: string): string {
  return path === '/' ? 'index.html' : `${path.slice(1)}/index.html`;
}

export function errorDocOf(s: FileSummary): boolean {
  return s.declarations.some((d) => d.kind === 'error');
}

export function prerenderPaths(s: FileSummary, route: ParsedRoute): PrerenderPath[] {
  return prerenderedPaths(s, route).map(({ path, params }) => ({ path, file: outputFile(path), params }));
}

/** The order of a site's pages: by page ID, then source. */
export function comparePages(a: { pageId: string; source: string }, b: { pageId: string; source: string }): number {
  return a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : a.source < b.source ? -1 : a.source > b.source ? 1 : 0;
}

/**
 * The value of `key` in the innermost layout among `owners` (outermost first; other owners are
 * skipped) that sets it.
 */
export function layoutMeta(owners: readonly FileSummary[], key: 'title' | 'description'): string | undefined {
  for (let i = owners.length - 1; i >= 0; i--) {
    const v = owners[i].kind === 'layout' ? owners[i].meta[key]?.value : undefined;
    if (v !== undefined) return v;
  }
  return undefined;
}

/**
 * A page's title, description and canonical URL: its own, else the innermost layout's that has one
 * (`owners`: as `pageOwners` lists them).
 */
export function documentMeta(s: FileSummary, owners: readonly FileSummary[]): DocumentMeta {
  return {
    title: s.meta.title?.value ?? layoutMeta(owners, 'title') ?? s.ownerId,
    description: s.meta.description?.value ?? layoutMeta(owners, 'description'),
    canonical: s.meta.canonical?.value,
  };
}

/** The whole document: its start (`documentStart`), the body, and the closing tags. */
export function wholeDocument(start: string, body: readonly PNode[]): PNode[] {
  const doc: PNode[] = [start];
  for (let i = 0; i < body.length; i++) push(doc, body[i]);
  push(doc, '\n</body>\n</html>\n');
  return doc;
}
