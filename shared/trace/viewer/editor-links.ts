// The trace viewer's links from a span's source to an editor: a template with {path}, {line} and
// {column} (VS Code's by default; the editor menu, a custom template, or `#editor=` in the URL
// choose another, kept in localStorage). Span sources relative to the collector's source root are
// made absolute first. Only a template with a scheme, and not one that runs or embeds code
// (javascript:, data:, ...), is ever used: span data fills it.
import { byId } from './dom.js';

const BLOCKED = /^(javascript|data|vbscript|blob|about):/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const STORE_KEY = 'kit-trace-editor';

const sourceRootMeta = document.querySelector('meta[name="kit-source-root"]');
const sourceRoot = sourceRootMeta ? sourceRootMeta.getAttribute('content') || '' : '';

function validTemplate(t: unknown): t is string {
  return typeof t === 'string' && SCHEME.test(t) && !BLOCKED.test(t) && t.includes('{path}');
}

let editorTemplate = 'vscode://file{path}:{line}:{column}';
try {
  const stored = localStorage.getItem(STORE_KEY);
  if (validTemplate(stored)) editorTemplate = stored;
} catch {
  /* storage unavailable */
}

function absolutePath(file: string): string {
  if (/^\/|^[A-Za-z]:[\\/]/.test(file)) return file;
  if (!sourceRoot) return '';
  return `${sourceRoot.replace(/[\\/]+$/, '')}/${file}`;
}

/** Where a span's source opens in the editor; '' when it cannot (no file, no root to resolve it). */
export function editorHref(src: { file?: unknown; line?: unknown; column?: unknown }): string {
  let path = absolutePath(String(src.file || ''));
  if (!path) return '';
  path = path.replace(/\\/g, '/');
  if (path.charAt(0) !== '/') path = `/${path}`; // C:/x -> /C:/x: every {path} starts with a slash
  const encoded = encodeURI(path).replace(/[?#&]/g, encodeURIComponent);
  const href = editorTemplate
    .split('{path}')
    .join(encoded)
    .split('{line}')
    .join(String(Number(src.line) | 0 || 1))
    .split('{column}')
    .join(String(Number(src.column) | 0 || 1));
  return SCHEME.test(href) && !BLOCKED.test(href) ? href : '';
}

/** Uses a template (and keeps it, with `store`); false when it is not a valid one. */
export function useTemplate(t: unknown, store: boolean): boolean {
  if (!validTemplate(t)) return false;
  editorTemplate = t;
  if (store) {
    try {
      localStorage.setItem(STORE_KEY, t);
    } catch {
      /* ignore */
    }
  }
  const sel = byId<HTMLSelectElement>('editor');
  const custom = byId<HTMLInputElement>('editor-template');
  let known = false;
  for (const option of Array.from(sel.options))
    if (option.value === t) {
      sel.value = t;
      known = true;
    }
  if (!known) {
    sel.value = 'custom';
    custom.hidden = false;
    custom.value = t;
  }
  return true;
}

/** The template in use (kept when a URL's `#editor=` is not valid). */
export function currentTemplate(): string {
  return editorTemplate;
}

/** Follows the editor menu and the custom template field; `changed` re-renders the links. */
export function watchEditorChoice(changed: () => void): void {
  const sel = byId<HTMLSelectElement>('editor');
  const custom = byId<HTMLInputElement>('editor-template');
  sel.addEventListener('change', () => {
    const v = sel.value;
    custom.hidden = v !== 'custom';
    if (v !== 'custom') useTemplate(v, true);
    changed();
  });
  custom.addEventListener('change', () => {
    if (useTemplate(custom.value.trim(), true)) changed();
  });
}
