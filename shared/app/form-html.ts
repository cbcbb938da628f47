// Served HTML around a re-rendered form: finding an element (the form posting to an action, the
// `g:target` region) and putting the submitted values back into the form's controls. The HTML is
// kit's own render, so it is well formed: a start tag is closed by the next end tag of its name at
// the same depth. Values are escaped with the renderer's `escapeHtml`; password and file inputs
// never get a value back, and hidden inputs keep the value the page rendered.
import { escapeHtml } from '../render/index.js';
import { decodeBasicEntities, RAW_TEXT_ELEMENTS, readStartTag, type Tag } from './html-forms.js';

/** Where an element sits in `html`: its start tag at `start..openEnd`, its end tag at `closeStart..end`. */
export interface ElementRange {
  tag: Tag;
  start: number;
  openEnd: number;
  closeStart: number;
  end: number;
}

// HTML's void elements (no end tag). The grammar knows the same list (`VOID_ELEMENTS`), but the app
// runtime imports nothing outside `shared/`: it is what generated apps vendor.
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
const RAW_TEXT: ReadonlySet<string> = new Set(RAW_TEXT_ELEMENTS);
const TAG = /<(!--|\/?[A-Za-z][A-Za-z0-9:-]*)/g;

/**
 * `html` in lower case, made once per document: every element lookup of a re-render searches the
 * same document again.
 */
let lastHtml = '';
let lastLower = '';
function lowerOf(html: string): string {
  if (html !== lastHtml) {
    lastHtml = html;
    lastLower = html.toLowerCase();
  }
  return lastLower;
}

/** Calls `visit` for each start tag of `html` between `from` and `to`, skipping comments and raw text. */
function eachStartTag(html: string, from: number, to: number, visit: (tag: Tag, at: number) => boolean | void): void {
  const re = new RegExp(TAG.source, 'g');
  re.lastIndex = from;
  let m: RegExpExecArray | null;
  while ((m = re.exec(html)) !== null && m.index < to) {
    if (m[1] === '!--') {
      const close = html.indexOf('-->', m.index + 4);
      if (close < 0) return;
      re.lastIndex = close + 3;
      continue;
    }
    if (m[1].startsWith('/')) continue;
    const tag = readStartTag(html, m.index);
    if (tag === undefined) continue;
    if (visit(tag, m.index) === true) return;
    re.lastIndex = tag.end;
    if (RAW_TEXT.has(tag.name)) {
      const close = lowerOf(html).indexOf('</' + tag.name, tag.end);
      if (close < 0) return;
      re.lastIndex = close;
    }
  }
}

/** The end of the element whose start tag is `tag` (at `start`). */
function closeOf(html: string, tag: Tag, start: number): ElementRange {
  if (VOID.has(tag.name)) return { tag, start, openEnd: tag.end, closeStart: tag.end, end: tag.end };
  const lower = lowerOf(html);
  const re = new RegExp(`<(/?)${tag.name}(?=[\\s/>])`, 'g');
  re.lastIndex = tag.end;
  let depth = 1;
  let m: RegExpExecArray | null;
  while ((m = re.exec(lower)) !== null) {
    depth += m[1] === '/' ? -1 : 1;
    if (depth === 0) {
      const gt = lower.indexOf('>', m.index);
      return { tag, start, openEnd: tag.end, closeStart: m.index, end: gt < 0 ? lower.length : gt + 1 };
    }
  }
  return { tag, start, openEnd: tag.end, closeStart: html.length, end: html.length };
}

/** The first element whose start tag `match` accepts. */
export function findElement(html: string, match: (tag: Tag) => boolean): ElementRange | undefined {
  let found: ElementRange | undefined;
  eachStartTag(html, 0, html.length, (tag, at) => {
    if (!match(tag)) return false;
    found = closeOf(html, tag, at);
    return true;
  });
  return found;
}

/** The POST form whose action is `path` (the one naming `target` first, for a partial submission). */
export function findActionForm(html: string, path: string, target?: string): ElementRange | undefined {
  const posts = (t: Tag): boolean =>
    t.name === 'form' &&
    (t.attrs.get('method') ?? '').trim().toLowerCase() === 'post' &&
    decodeBasicEntities(t.attrs.get('action') ?? '') === path;
  if (target !== undefined) {
    const named = findElement(
      html,
      (t) => posts(t) && decodeBasicEntities(t.attrs.get('data-kit-target') ?? '') === target,
    );
    if (named !== undefined) return named;
  }
  return findElement(html, posts);
}

/** The element with this id. */
export function findById(html: string, id: string): ElementRange | undefined {
  return findElement(html, (t) => t.attrs.has('id') && decodeBasicEntities(t.attrs.get('id')!) === id);
}

/** Whether the form at `form` has a control (input, textarea, select) named `name`. */
export function hasControl(html: string, form: ElementRange, name: string): boolean {
  let found = false;
  eachStartTag(html, form.openEnd, form.closeStart, (tag) => {
    const control = tag.name === 'input' || tag.name === 'textarea' || tag.name === 'select';
    found = control && decodeBasicEntities(tag.attrs.get('name') ?? '') === name;
    return found;
  });
  return found;
}

const NO_VALUE_BACK = new Set(['password', 'file', 'hidden', 'submit', 'button', 'reset', 'image']);

/** A start tag written again with `set` applied (null removes an attribute, '' writes it bare). */
function rewriteTag(tag: Tag, set: Record<string, string | null>): string {
  let out = '<' + tag.name;
  for (const [name, value] of tag.attrs) {
    if (name in set) continue;
    out += value === '' ? ` ${name}` : ` ${name}="${value.replace(/"/g, '&quot;')}"`;
  }
  for (const [name, value] of Object.entries(set)) {
    if (value === null) continue;
    out += value === '' ? ` ${name}` : ` ${name}="${value}"`;
  }
  return out + '>';
}

/**
 * `html` with the submitted `values` put back into the controls of the form at `form`: text-like
 * inputs get `value`, checkboxes and radios `checked`, options `selected`, textareas their text.
 * A repeated name fills its controls in order. Password, file, hidden and button inputs are left
 * as rendered.
 */
export function fillForm(
  html: string,
  form: ElementRange,
  values: ReadonlyMap<string, readonly string[]>,
  invalid: ReadonlySet<string> = new Set(),
): { html: string; form: ElementRange } {
  const edits: [number, number, string][] = [];
  // Controls of a field with an error say so to assistive technology.
  const mark = (name: string, set: Record<string, string | null>): Record<string, string | null> =>
    invalid.has(name) ? { ...set, 'aria-invalid': 'true' } : set;
  const used = new Map<string, number>();
  const next = (name: string): string | undefined => {
    const list = values.get(name);
    const i = used.get(name) ?? 0;
    used.set(name, i + 1);
    return list?.[i];
  };
  let select: { name: string; end: number } | undefined;
  eachStartTag(html, form.openEnd, form.closeStart, (tag, at) => {
    if (select !== undefined && at >= select.end) select = undefined;
    const name = decodeBasicEntities(tag.attrs.get('name') ?? '');
    if (tag.name === 'input' && name !== '') {
      const type = (tag.attrs.get('type') ?? 'text').trim().toLowerCase();
      if (NO_VALUE_BACK.has(type) || !values.has(name)) {
        if (invalid.has(name)) edits.push([at, tag.end, rewriteTag(tag, mark(name, {}))]);
        return;
      }
      if (type === 'checkbox' || type === 'radio') {
        const own = decodeBasicEntities(tag.attrs.get('value') ?? 'on');
        edits.push([
          at,
          tag.end,
          rewriteTag(tag, mark(name, { checked: values.get(name)!.includes(own) ? '' : null })),
        ]);
      } else {
        const v = next(name);
        if (v !== undefined || invalid.has(name))
          edits.push([at, tag.end, rewriteTag(tag, mark(name, v === undefined ? {} : { value: escapeHtml(v) }))]);
      }
    } else if (tag.name === 'textarea' && name !== '') {
      if (invalid.has(name)) edits.push([at, tag.end, rewriteTag(tag, mark(name, {}))]);
      const v = values.has(name) ? next(name) : undefined;
      if (v !== undefined) {
        const el = closeOf(html, tag, at);
        edits.push([el.openEnd, el.closeStart, escapeHtml(v)]);
      }
    } else if (tag.name === 'select' && name !== '') {
      if (invalid.has(name)) edits.push([at, tag.end, rewriteTag(tag, mark(name, {}))]);
      select = values.has(name) ? { name, end: closeOf(html, tag, at).closeStart } : undefined;
    } else if (tag.name === 'option' && select !== undefined) {
      let own = tag.attrs.get('value');
      if (own === undefined) {
        const lt = html.indexOf('<', tag.end);
        own = html.slice(tag.end, lt < 0 ? html.length : lt).trim();
      }
      const chosen = values.get(select.name)!.includes(decodeBasicEntities(own));
      edits.push([at, tag.end, rewriteTag(tag, { selected: chosen ? '' : null })]);
    }
  });
  let out = '';
  let from = 0;
  for (const [start, end, text] of edits) {
    out += html.slice(from, start) + text;
    from = end;
  }
  out += html.slice(from);
  // Every edit is inside the form: its start tag stays, its end tag moves by the change in length.
  const delta = out.length - html.length;
  return { html: out, form: { ...form, closeStart: form.closeStart + delta, end: form.end + delta } };
}
