// Scoped `style {}` CSS. Every element a page, layout or component writes in its own view carries
// the owner's scope class (`kit-` + 8 hex digits of a hash of `kind:package:id`, stable across
// builds); each selector of the owner's CSS gets that class added to its last compound selector,
// before any pseudo-element: `.card h2:hover` → `.card h2:hover.kit-1a2b3c4d`, `p::before` →
// `p.kit-1a2b3c4d::before`. `:global(sel)` opts a selector (or part of one) out of scoping.
// Rules inside `@media`, `@supports`, `@container`, `@layer` and `@scope` blocks are scoped the same
// way; other at-rules (`@keyframes`, `@font-face`, `@import`, ...) are copied unchanged. Comments
// are dropped and lines trimmed; nothing else is reformatted.
import { createHash } from 'node:crypto';

const GROUPING = new Set(['media', 'supports', 'container', 'layer', 'scope', 'document']);
const LEGACY_PSEUDO_ELEMENTS = /^:(before|after|first-line|first-letter)\b/i;

export function scopeClassFor(kind: string, packageName: string, ownerId: string): string {
  return 'kit-' + createHash('sha256').update(`${kind}:${packageName}:${ownerId}`).digest('hex').slice(0, 8);
}

/** Copies a string or comment starting at `i`; returns the index after it (comments copy as nothing). */
function skipQuoted(css: string, i: number): number {
  const q = css[i];
  let j = i + 1;
  while (j < css.length && css[j] !== q) {
    if (css[j] === '\\') j++;
    j++;
  }
  return Math.min(j + 1, css.length);
}

function stripComments(css: string): string {
  let out = '';
  let i = 0;
  while (i < css.length) {
    const c = css[i];
    if (c === '"' || c === "'") {
      const j = skipQuoted(css, i);
      out += css.slice(i, j);
      i = j;
    } else if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Index of the `}` matching the `{` at `open` (or the end). */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") i = skipQuoted(css, i) - 1;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return css.length;
}

/** Splits at top-level occurrences of `sep` (outside strings, parentheses and brackets). */
function splitTop(s: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"' || c === "'") i = skipQuoted(s, i) - 1;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === sep && depth === 0) {
      parts.push(s.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(s.slice(from));
  return parts;
}

function unwrapGlobal(s: string): string {
  let out = s;
  for (;;) {
    const at = out.indexOf(':global(');
    if (at < 0) return out;
    let depth = 0;
    let end = out.length;
    for (let i = at + 7; i < out.length; i++) {
      if (out[i] === '(') depth++;
      else if (out[i] === ')' && --depth === 0) {
        end = i;
        break;
      }
    }
    out = out.slice(0, at) + out.slice(at + 8, end) + out.slice(end + 1);
  }
}

/** Adds `.cls` to the last compound selector of one complex selector. */
export function scopeSelector(selector: string, cls: string): string {
  const sel = selector.trim();
  if (sel === '') return sel;
  // Start of the last compound: after the last top-level combinator.
  let depth = 0;
  let last = 0;
  for (let i = 0; i < sel.length; i++) {
    const c = sel[i];
    if (c === '"' || c === "'") i = skipQuoted(sel, i) - 1;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && (c === ' ' || c === '\t' || c === '\n' || c === '>' || c === '+' || c === '~'))
      last = i + 1;
  }
  const compound = sel.slice(last);
  if (compound.startsWith(':global(')) return unwrapGlobal(sel);
  // Insert before a pseudo-element of the last compound, else at its end.
  let insert = sel.length;
  depth = 0;
  for (let i = last; i < sel.length; i++) {
    const c = sel[i];
    if (c === '"' || c === "'") i = skipQuoted(sel, i) - 1;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && c === ':' && (sel[i + 1] === ':' || LEGACY_PSEUDO_ELEMENTS.test(sel.slice(i)))) {
      insert = i;
      break;
    }
  }
  return unwrapGlobal(sel.slice(0, insert) + '.' + cls + sel.slice(insert));
}

function scopeBlock(css: string, cls: string): string {
  let out = '';
  let i = 0;
  while (i < css.length) {
    // A prelude runs to `{` or `;` (outside strings and parentheses).
    let j = i;
    let depth = 0;
    while (j < css.length) {
      const c = css[j];
      if (c === '"' || c === "'") {
        j = skipQuoted(css, j);
        continue;
      }
      if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (depth === 0 && (c === '{' || c === ';' || c === '}')) break;
      j++;
    }
    const prelude = css.slice(i, j).trim();
    if (j >= css.length) {
      if (prelude) out += prelude + '\n';
      break;
    }
    if (css[j] === ';' || css[j] === '}') {
      if (prelude) out += prelude + css[j] + '\n';
      i = j + 1;
      continue;
    }
    const end = blockEnd(css, j);
    const inner = css.slice(j + 1, end);
    if (prelude.startsWith('@')) {
      const name = /^@([A-Za-z-]+)/.exec(prelude)?.[1]?.toLowerCase() ?? '';
      out += GROUPING.has(name) ? `${prelude} {\n${scopeBlock(inner, cls)}}\n` : `${prelude} {${tidy(inner)}}\n`;
    } else {
      const selectors = splitTop(prelude, ',')
        .map((s) => scopeSelector(s, cls))
        .filter((s) => s !== '');
      out += `${selectors.join(', ')} {${tidy(inner)}}\n`;
    }
    i = end + 1;
  }
  return out;
}

/** Declaration block text with each line trimmed and blank lines dropped. */
function tidy(block: string): string {
  const lines = block
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length <= 1) return lines.length ? ` ${lines[0]} ` : '';
  return '\n' + lines.join('\n') + '\n';
}

/** Scopes the CSS of one owner; with no class, only comments are dropped and lines trimmed. */
export function scopeCss(css: string, cls: string | undefined): string {
  const clean = stripComments(css);
  return cls
    ? scopeBlock(clean, cls)
    : clean
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '')
        .join('\n') + '\n';
}
