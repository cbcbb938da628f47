// The error overlay of `kit dev`: the workspace's errors exactly as `kit check` prints them (the
// same formatter, without colour), a handler module's compile errors the same way, or the stack of
// a handler that threw, as one self-contained HTML fragment. Every `file:line:col` becomes a link
// that opens the editor there. All text is escaped: source lines and messages are the user's, but
// a stack may quote anything. Its colours are its own (inline styles, which a page's stylesheet
// does not override): an opaque backdrop, and text and links with a contrast of at least 4.5:1
// against it (WCAG AA; test/server/cli/dev/dev.browser.test.ts measures them).
import { isAbsolute, resolve } from 'node:path';
import { escapeHtml } from '#shared/render/index.js';

export const OVERLAY_ID = 'kit-dev-overlay';

/**
 * How links open the editor: a URL template with `{file}` (the absolute path, `/`-separated and
 * starting with `/`), `{line}` and `{column}`. `vscode://file{file}:{line}:{column}` by default;
 * `KIT_EDITOR_URL` or `--editor-url` change it (`idea://open?file={file}&line={line}`,
 * `zed://file{file}:{line}:{column}`...).
 */
export const DEFAULT_EDITOR_URL = 'vscode://file{file}:{line}:{column}';

export interface OverlayContext {
  cwd: string;
  editorUrl: string;
}

export function editorLink(ctx: OverlayContext, file: string, line: number, column: number): string {
  const abs = isAbsolute(file) ? file : resolve(ctx.cwd, file);
  // The path keeps its slashes and drive letter; what a URL would misread is escaped.
  const slashed = abs.split('\\').join('/');
  const path = encodeURI(slashed.startsWith('/') ? slashed : '/' + slashed)
    .replace(/#/g, '%23')
    .replace(/\?/g, '%3F');
  return ctx.editorUrl.replace('{file}', path).replace('{line}', String(line)).replace('{column}', String(column));
}

/** `path/to/file.kit:3:5` (or `(/abs/file.ts:12:7)` in a stack) anywhere in a line. */
const LOCATION = /((?:[A-Za-z]:)?[^\s:()'"<>]+\.(?:kit|m?[jt]sx?|css)):(\d+):(\d+)/g;

/** One line of text as HTML, its locations as editor links. */
function linkLine(ctx: OverlayContext, line: string): string {
  let out = '';
  let last = 0;
  for (const m of line.matchAll(LOCATION)) {
    const file = m[1].startsWith('file://') ? decodeURIComponent(m[1].slice('file://'.length)) : m[1];
    out += escapeHtml(line.slice(last, m.index));
    const href = editorLink(ctx, file, Number(m[2]), Number(m[3]));
    out += `<a href="${escapeHtml(href)}" style="${LINK_STYLE}">${escapeHtml(m[0])}</a>`;
    last = m.index + m[0].length;
  }
  return out + escapeHtml(line.slice(last));
}

/** The backdrop: opaque, so the page below never shows through the text (zinc-900). */
export const OVERLAY_BACKGROUND = '#18181b';
/**
 * Text colours on it, each at least 4.5:1 against it: body zinc-100 (16.1:1), title red-300 (9.3:1),
 * notes zinc-400 (6.9:1), links blue-300 (9.8:1; a browser's default link blue was 1.9:1).
 */
const TEXT = '#f4f4f5';
const TITLE = '#fca5a5';
const NOTE = '#a1a1aa';
const LINK = '#93c5fd';
// `!important` in an inline style: not even a page's `!important` rule changes them.
const LINK_STYLE = `color:${LINK} !important;text-decoration:underline`;

const STYLE =
  'position:fixed;inset:0;z-index:2147483647;overflow:auto;margin:0;padding:24px;opacity:1 !important;' +
  `background:${OVERLAY_BACKGROUND} !important;color:${TEXT} !important;` +
  'font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace';

/**
 * The overlay as an HTML fragment: a title, the text in a `<pre>`, and a note that it goes away by
 * itself. `kind` says what the text is (`errors` in the sources, or a `request` that failed).
 */
export function overlayHtml(ctx: OverlayContext, title: string, text: string): string {
  const body = text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => linkLine(ctx, l))
    .join('\n');
  return (
    `<div id="${OVERLAY_ID}" role="alertdialog" aria-label="kit dev errors" style="${STYLE}">` +
    `<p style="margin:0 0 12px;color:${TITLE} !important;font-weight:bold">${escapeHtml(title)}</p>` +
    `<pre style="margin:0;white-space:pre-wrap;color:${TEXT} !important;background:none;font:inherit">${body}</pre>` +
    `<p style="margin:16px 0 0;color:${NOTE} !important">Fix the file and save: this goes away by itself. ` +
    'Links open the editor.</p></div>'
  );
}

/** A whole page for when there is no page to put the overlay on (no app built yet, a failed request). */
export function overlayPage(overlay: string, clientTag: string): string {
  return (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>kit dev: error</title>\n' +
    `${clientTag}\n</head>\n<body>\n${overlay}\n</body>\n</html>\n`
  );
}
