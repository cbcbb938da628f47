// URL attribute safety, shared by the checker (reject at check time, via server/src/core/model/url-safety.ts)
// and the renderer (never emit). Zero dependencies.

export const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'href',
  'src',
  'srcset',
  'action',
  'formaction',
  'poster',
  'cite',
  'data',
  'background',
  'manifest',
  'xlink:href',
  'ping',
  'longdesc',
  'usemap',
  'codebase',
  'archive',
  'icon',
  'dynsrc',
  'lowsrc',
  'profile',
  'classid',
]);

const NAMED: Record<string, string> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  sol: '/',
  bsol: '\\',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  period: '.',
};

/** Decodes numeric and the security-relevant named character references (`&#106;`, `&colon;`). */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);?/g, (m, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED[body.toLowerCase()] ?? m;
  });
}

/**
 * True for `javascript:`, `data:`, `vbscript:` (after browsers' stripping of whitespace and control
 * characters) and for protocol-relative `//host` or `/\host` URLs.
 */
export function isUnsafeUrl(value: string): boolean {
  // A leading `/` is neither stripped nor part of a scheme: only the character after it can tell.
  if (value.charCodeAt(0) === 47) {
    const next = value.charCodeAt(1);
    return next === 47 || next === 92;
  }
  // eslint-disable-next-line no-control-regex
  const squeezed = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  if (/^(javascript|data|vbscript):/.test(squeezed)) return true;
  // eslint-disable-next-line no-control-regex
  const lead = value.replace(/^[\u0000-\u0020]+/, '');
  return /^[/\\][/\\]/.test(lead);
}
