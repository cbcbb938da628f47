// Finds where a CSRF field goes in served HTML: right after each `<form>` start tag whose method is
// POST and whose action stays on this origin. Same-origin means a missing or empty action or a
// relative URL; `//host`, `/\host` and any URL with a scheme never get a token (a token must not
// leak to another origin, and an absolute URL naming this host is rare enough to leave alone).

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
}

function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 95 || c === 58;
}

export interface Tag {
  name: string;
  attrs: Map<string, string>;
  /** Index just after the closing `>`. */
  end: number;
}

/** Reads the start tag beginning at `at` (`<` of `<name`); undefined when it is not one. */
export function readStartTag(html: string, at: number): Tag | undefined {
  let i = at + 1;
  const nameStart = i;
  while (i < html.length && isNameChar(html.charCodeAt(i))) i++;
  if (i === nameStart) return undefined;
  const name = html.slice(nameStart, i).toLowerCase();
  const attrs = new Map<string, string>();
  for (;;) {
    while (i < html.length && (isSpace(html.charCodeAt(i)) || html[i] === '/')) i++;
    if (i >= html.length) return undefined;
    if (html[i] === '>') return { name, attrs, end: i + 1 };
    const an = i;
    while (i < html.length && !isSpace(html.charCodeAt(i)) && html[i] !== '=' && html[i] !== '>' && html[i] !== '/')
      i++;
    const attrName = html.slice(an, i).toLowerCase();
    while (i < html.length && isSpace(html.charCodeAt(i))) i++;
    let value = '';
    if (html[i] === '=') {
      i++;
      while (i < html.length && isSpace(html.charCodeAt(i))) i++;
      const q = html[i];
      if (q === '"' || q === "'") {
        const close = html.indexOf(q, i + 1);
        if (close < 0) return undefined;
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        const vs = i;
        while (i < html.length && !isSpace(html.charCodeAt(i)) && html[i] !== '>') i++;
        value = html.slice(vs, i);
      }
    }
    if (attrName !== '' && !attrs.has(attrName)) attrs.set(attrName, value);
  }
}

export function decodeBasicEntities(s: string): string {
  return s.includes('&')
    ? s.replace(
        /&(amp|quot|#39|#x27|lt|gt|#47|#x2f|#92|#x5c);/gi,
        (m, e: string) =>
          (
            ({
              amp: '&',
              quot: '"',
              '#39': "'",
              '#x27': "'",
              lt: '<',
              gt: '>',
              '#47': '/',
              '#x2f': '/',
              '#92': '\\',
              '#x5c': '\\',
            }) as Record<string, string>
          )[e.toLowerCase()] ?? m,
      )
    : s;
}

/** The action keeps the request on this origin (see the file comment). */
export function isSameOriginAction(action: string | undefined): boolean {
  if (action === undefined) return true;
  const a = decodeBasicEntities(action).trim();
  if (a === '') return true;
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
  }
  if (a.startsWith('//') || a.startsWith('/\\') || a.startsWith('\\')) return false;
  // A scheme (`https:`, `javascript:`) before any `/`, `?` or `#`: not relative.
  const colon = a.indexOf(':');
  if (colon >= 0) {
    const slash = a.search(/[/?#]/);
    if (slash < 0 || colon < slash) return false;
  }
  return true;
}

/** Elements whose content is text, not markup: a `<form` (or any tag) inside one is not a tag. */
export const RAW_TEXT_ELEMENTS: readonly string[] = [
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
];

// The only places the scan stops: comments, form start tags and raw-text elements. Other tags are
// skipped without being parsed.
const INTERESTING = new RegExp(`<(?:!--|(form|${RAW_TEXT_ELEMENTS.join('|')})(?=[\\s/>]))`, 'gi');

/**
 * Offsets (just after the start tag) where the CSRF field belongs, in document order. Comments
 * and raw-text elements are skipped, so markup-like text inside them never counts. Served HTML
 * comes from kit's renderer, which escapes `<` inside attribute values, so a `<` in the document
 * always starts markup.
 */
export function csrfInsertionPoints(html: string): number[] {
  const points: number[] = [];
  if (!/<form/i.test(html)) return points;
  let lower: string | undefined;
  const re = new RegExp(INTERESTING.source, 'gi');
  let m: RegExpExecArray | null;
  while ((m = re.exec(html)) !== null) {
    const at = m.index;
    if (m[1] === undefined) {
      const close = html.indexOf('-->', at + 4);
      if (close < 0) break;
      re.lastIndex = close + 3;
      continue;
    }
    const tag = readStartTag(html, at);
    if (!tag) continue;
    if (tag.name === 'form') {
      if (
        (tag.attrs.get('method') ?? '').trim().toLowerCase() === 'post' &&
        isSameOriginAction(tag.attrs.get('action'))
      )
        points.push(tag.end);
      re.lastIndex = tag.end;
      continue;
    }
    lower ??= html.toLowerCase();
    const close = lower.indexOf('</' + tag.name, tag.end);
    if (close < 0) break;
    re.lastIndex = close + 2;
  }
  return points;
}

/** Whether HTML rendered from template chunks can contain a form at all (values are escaped). */
export function mayContainForm(staticText: string): boolean {
  return /<form/i.test(staticText);
}

export function csrfInput(token: string): string {
  return `<input type="hidden" name="_kit_csrf" value="${token}">`;
}

/** `html` with the field inserted at `points` (from csrfInsertionPoints). */
export function injectAt(html: string, points: readonly number[], token: string): string {
  if (points.length === 0) return html;
  const input = csrfInput(token);
  let out = '';
  let from = 0;
  for (const p of points) {
    out += html.slice(from, p) + input;
    from = p;
  }
  return out + html.slice(from);
}
