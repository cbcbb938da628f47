// The shapes nearly every view expression has, read without lexing: a plain path, a
// `param("name")` call, a `g:for` head over a path, and a lone `true`, `false` or number (a
// component's `compact={true}`). They build exactly the nodes the grammar
// (expr-grammar.ts) builds (a test compares both ways); anything else goes through the lexer and
// the grammar.
import type { Expr, ForExpr } from '../ast.js';
import { resolveString } from '../common/string-literal.js';
import type { PosMaker } from '../common/text-lines.js';

const ID = '[A-Za-z_$][\\w$]*';
const PATH = `${ID}(?:\\.${ID})*`;
const PARAM_CALL = /^[ \t]*param[ \t]*\([ \t]*("[^"\\\r\n]*")[ \t]*\)[ \t]*$/;
const FOR_HEAD = new RegExp(`^[ \\t]*(${ID})[ \\t]*(?:,[ \\t]*(${ID})[ \\t]*)?[ \\t]in[ \\t]+(${PATH})[ \\t]*$`);
const KEYWORDS = /(?:^|\.)(?:true|false|in)(?:\.|$)/;

function isWordKeyword(s: string, a: number, b: number): boolean {
  const n = b - a;
  return (
    (n === 2 && s.startsWith('in', a)) || (n === 4 && s.startsWith('true', a)) || (n === 5 && s.startsWith('false', a))
  );
}

/**
 * `a.b.c` with only spaces or tabs around it: [start, end) of the path; 0 when it is such a path
 * but uses a keyword as a segment (the grammar decides); undefined when it is not a plain path.
 * A character scan rather than a regular expression: this runs for nearly every interpolation.
 */
export function plainPath(s: string): [number, number] | 0 | undefined {
  let a = 0;
  let b = s.length;
  while (a < b && (s.charCodeAt(a) === 32 || s.charCodeAt(a) === 9)) a++;
  while (b > a && (s.charCodeAt(b - 1) === 32 || s.charCodeAt(b - 1) === 9)) b--;
  if (a === b) return undefined;
  let segment = a;
  let keyword = false;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (i === segment) return undefined;
      keyword ||= isWordKeyword(s, segment, i);
      segment = i + 1;
      continue;
    }
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
    if (!letter && (i === segment || c < 48 || c > 57)) return undefined;
  }
  if (segment === b) return undefined;
  return keyword || isWordKeyword(s, segment, b) ? 0 : [a, b];
}

function pathAt(text: string, at: number, map: (i: number) => number, pm: PosMaker): Expr {
  return { type: 'path', path: text.split('.'), range: pm.range(map(at), map(at + text.length)) };
}

const LITERAL = /^[ \t]*(true|false|\d+(?:\.\d+)?)[ \t]*$/;

/** `true`, `false` or a number with only spaces or tabs around it, as the grammar reads it. */
function literal(inner: string, map: (i: number) => number, pm: PosMaker): Expr | undefined {
  const m = LITERAL.exec(inner);
  if (m === null) return undefined;
  const at = inner.indexOf(m[1]);
  const value = m[1] === 'true' ? true : m[1] === 'false' ? false : Number(m[1]);
  return { type: 'literal', value, range: pm.range(map(at), map(at + m[1].length)) };
}

/** The common shapes, or undefined when the grammar must decide. */
export function readCommonExpr(inner: string, map: (i: number) => number, pm: PosMaker, doc: string): Expr | undefined {
  if (inner.indexOf('(') >= 0) {
    const m = PARAM_CALL.exec(inner);
    if (m === null) return undefined;
    const strAt = inner.indexOf('"');
    const name = resolveString(m[1], (i) => map(strAt + i), pm, doc);
    const start = inner.indexOf('p');
    return { type: 'param', name, range: pm.range(map(start), map(inner.lastIndexOf(')') + 1)) };
  }
  const plain = plainPath(inner);
  if (plain !== undefined && plain !== 0) {
    const [a, b] = plain;
    const path = inner.slice(a, b).split('.');
    return { type: 'path', path, range: pm.range(map(a), map(b)) };
  }
  const lit = literal(inner, map, pm);
  if (lit !== undefined || plain === 0) return lit;
  const m = FOR_HEAD.exec(inner);
  if (m === null || KEYWORDS.test(m[1]) || (m[2] !== undefined && KEYWORDS.test(m[2])) || KEYWORDS.test(m[3]))
    return undefined;
  const itemAt = inner.indexOf(m[1]);
  const collAt = inner.length - m[0].length + m[0].lastIndexOf(m[3]);
  const collection = pathAt(m[3], collAt, map, pm);
  const f: ForExpr = {
    type: 'for',
    item: { text: m[1], range: pm.range(map(itemAt), map(itemAt + m[1].length)) },
    collection,
    range: pm.range(map(itemAt), map(collAt + m[3].length)),
  };
  if (m[2] !== undefined) {
    const idxAt = inner.indexOf(m[2], inner.indexOf(',', itemAt + m[1].length));
    f.index = { text: m[2], range: pm.range(map(idxAt), map(idxAt + m[2].length)) };
  }
  return f;
}
