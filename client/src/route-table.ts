// The route table view: plain HTML built from the server's `kit/routes` answer. Pure (no VS Code
// API) so that tests can render it; every value is escaped because route strings, guards and
// file names come from user sources.
import type { FolderAnswer, RouteRow } from '../../shared/protocol/protocol.js';

/** One row as `kit/routes` returns it (`shared/protocol`): the routes report's fields the table shows. */
export type RouteTableRow = RouteRow;

/** One workspace folder of the answer. */
export type RouteTableFolder = FolderAnswer & { routes: RouteTableRow[] };

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

const COLUMNS: { title: string; cell: (r: RouteTableRow) => string }[] = [
  { title: 'Method', cell: (r) => r.method },
  { title: 'Route', cell: (r) => r.route },
  { title: 'Kind', cell: (r) => r.kind },
  { title: 'Page', cell: (r) => r.pageId },
  { title: 'Guards', cell: (r) => (r.guards ?? []).join(', ') },
  { title: 'Render', cell: (r) => r.render ?? '' },
  { title: 'Cache', cell: (r) => r.cache ?? '' },
  { title: 'CSRF', cell: (r) => (r.csrf ? 'yes' : '') },
  { title: 'Binding', cell: (r) => r.bindingStatus ?? '' },
  { title: 'Source', cell: (r) => r.source },
];

/** Rows sorted by path, then method, as `kit routes --format table` prints them. */
export function sortRows(rows: readonly RouteTableRow[]): RouteTableRow[] {
  return [...rows].sort((a, b) =>
    a.route < b.route ? -1 : a.route > b.route ? 1 : a.method < b.method ? -1 : a.method > b.method ? 1 : 0,
  );
}

export function renderRouteTable(folders: readonly RouteTableFolder[], nonce: string): string {
  const sections = folders.map((f) => {
    const head = COLUMNS.map((c) => `<th>${escapeHtml(c.title)}</th>`).join('');
    const body = sortRows(f.routes)
      .map(
        (r) =>
          `<tr class="${escapeHtml(r.kind)}">${COLUMNS.map((c) => `<td>${escapeHtml(c.cell(r))}</td>`).join('')}</tr>`,
      )
      .join('\n');
    const empty = f.routes.length === 0 ? '<p>No routes.</p>' : '';
    const table = `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
    return `<h2>${escapeHtml(f.name)}</h2>${empty}${table}`;
  });
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${escapeHtml(nonce)}';">
<title>kit routes</title>
<style nonce="${escapeHtml(nonce)}">
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 2px 8px; border-bottom: 1px solid var(--vscode-panel-border); white-space: nowrap; }
td:nth-child(2) { font-family: var(--vscode-editor-font-family); }
</style></head><body>
${sections.join('\n') || '<p>No kit workspace is open.</p>'}
</body></html>
`;
}
