// HTML built in handler code: the `html` tag escapes every value it interpolates, so user input
// reaches the page as text, and its result is a `SafeHtml` that a surrounding `html` template
// takes as it is. Strings are never trusted by accident: only `html` and `raw()` make `SafeHtml`.
import { decodeEntities, escapeHtml, isUnsafeUrl, safeSrcset, UNSAFE_URL, URL_ATTRIBUTES } from '../render/index.js';

let make: (text: string) => SafeHtml;

/** HTML that is safe to send: built by the `html` tag (values escaped) or marked trusted with `raw()`. */
export class SafeHtml {
  // A private field makes the type nominal: a plain `{ toString() }` object is not a SafeHtml.
  readonly #text: string;

  static {
    make = (text) => new SafeHtml(text);
  }

  private constructor(text: string) {
    this.#text = text;
  }

  toString(): string {
    return this.#text;
  }

  /** JSON carries the HTML text (an API answering `{ body: html`...` }` sends the markup). */
  toJSON(): string {
    return this.#text;
  }
}

/** Marks `text` as trusted HTML: it is sent as written. Never pass it anything a user wrote. */
export function raw(text: string): SafeHtml {
  return make(String(text));
}

/**
 * How a hole's value is checked besides escaping: `url` when it starts a URL attribute's value
 * (`href="${x}"`), `srcset` for a `srcset` value, else nothing. Per template, not per call: the
 * strings array of a tagged template is the same object on every call from one place.
 */
type HoleKind = 'url' | 'srcset' | undefined;
const HOLE_KINDS = new WeakMap<TemplateStringsArray, HoleKind[]>();
const ATTRIBUTE_OPENING = /([^\s"'<>/=]+)\s*=\s*["']$/;

function holeKinds(strings: TemplateStringsArray): HoleKind[] {
  let kinds = HOLE_KINDS.get(strings);
  if (kinds === undefined) {
    kinds = [];
    for (let i = 0; i < strings.length - 1; i++) {
      const name = ATTRIBUTE_OPENING.exec(strings[i] ?? strings.raw[i])?.[1]?.toLowerCase();
      kinds.push(name === 'srcset' ? 'srcset' : name !== undefined && URL_ATTRIBUTES.has(name) ? 'url' : undefined);
    }
    HOLE_KINDS.set(strings, kinds);
  }
  return kinds;
}

/** A value as HTML: text escaped, a SafeHtml as is, arrays item by item, `null`/`undefined`/`false` as nothing. */
function valueHtml(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.toString();
  if (Array.isArray(value)) {
    let out = '';
    for (const item of value) out += valueHtml(item);
    return out;
  }
  return escapeHtml(String(value));
}

/**
 * The HTML of a value that starts a URL attribute's value, or the inert URL when the browser would
 * read a dangerous URL from it. Character references are decoded first: a `raw()` value is
 * checked as the browser will read it.
 */
function urlHtml(value: unknown, kind: 'url' | 'srcset'): string {
  const out = valueHtml(value);
  const url = decodeEntities(out);
  return (kind === 'url' ? isUnsafeUrl(url) : safeSrcset(url) !== url) ? UNSAFE_URL : out;
}

/**
 * The `html` tag: `html`<p>Hello ${name}</p>`` escapes `name` for text and quoted attribute values
 * (`& < > " '`), takes nested `html` results and `raw()` values as they are, renders arrays item by
 * item (so `${items.map((i) => html`<li>${i}</li>`)}` works) and `null`, `undefined` and `false` as
 * nothing. A value that starts a URL attribute (`href="${url}"`), `raw()` ones included, is also
 * checked like the values of a `.kit` view: `javascript:`, `data:`, `vbscript:` and protocol-relative
 * URLs become an inert URL. Attribute values must be quoted (escaping cannot stop a space from
 * ending an unquoted one); a value later in a URL is the caller's to percent-encode.
 */
export function htmlTemplate(strings: TemplateStringsArray, values: readonly unknown[]): SafeHtml {
  const kinds = holeKinds(strings);
  let out = strings[0] ?? strings.raw[0];
  let urlStart: HoleKind;
  for (let i = 0; i < values.length; i++) {
    // A hole right after an empty one at the start of a URL still starts it (`href="${a}${b}"`).
    const kind = kinds[i] ?? (urlStart !== undefined && (strings[i] ?? strings.raw[i]) === '' ? urlStart : undefined);
    const part = kind === undefined ? valueHtml(values[i]) : urlHtml(values[i], kind);
    urlStart = kind !== undefined && part === '' ? kind : undefined;
    out += part + (strings[i + 1] ?? strings.raw[i + 1]);
  }
  return make(out);
}

/** True for the first argument of a tagged template call (an array of strings with `raw`). */
export function isTemplateStrings(value: unknown): value is TemplateStringsArray {
  return Array.isArray(value) && Array.isArray((value as { raw?: unknown }).raw);
}
