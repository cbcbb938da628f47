// The expression language of views: paths, `param("x")`, literals, `!`, comparisons, `&&`, `||` and
// the `item[, i] in items` form of `g:for`. Parsed by its own Chevrotain parser over the tokens
// between `{` and `}`; anything it cannot read becomes an `InvalidExpr` plus a diagnostic.
import type { IToken } from 'chevrotain';
import { EOF, tokenMatcher } from './chevrotain.js';
import { LazyAnalysedParser } from './lazy-setup.js';
import type { Expr, ForExpr, Range } from './ast.js';
import {
  AndAnd,
  EqEq,
  ExprComma,
  ExprString,
  False,
  Ge,
  Gt,
  Ident,
  In,
  Le,
  LParen,
  Lt,
  markupLexer,
  markupTokens,
  Not,
  NotEq,
  NumberLit,
  OrOr,
  RParen,
  True,
  Dot,
} from './markup-lexer.js';
import { resolveString } from './string-literal.js';
import type { PosMaker } from './text-lines.js';

type BinaryOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

/**
 * How deep an expression may nest: parentheses, `!` and the left-leaning chains of `&&`, `||` and
 * comparisons each add a level. The grammar and every later walk over an expression recurse per
 * level, so a deeper one is refused (as `invalid_expression`, at the token or operand that crosses
 * the limit) instead of exhausting the stack; real conditions stay far below it.
 */
export const MAX_EXPRESSION_DEPTH = 64;

/** Where the tokens came from: `map(i)` turns an offset in the lexed text into a document offset. */
export interface ExprSource {
  map: (i: number) => number;
  pm: PosMaker;
  doc: string;
}

export class ExprParser extends LazyAnalysedParser {
  src!: ExprSource;
  /** A problem the grammar accepts but the language does not (a call other than `param`). */
  problem: { token: IToken; message: string } | undefined;

  constructor() {
    super(markupTokens, { recoveryEnabled: false, maxLookahead: 3, skipValidations: true });
  }

  private r(start: number, end: number): Range {
    return this.src.pm.range(this.src.map(start), this.src.map(end));
  }
  private tr(t: IToken): Range {
    return this.r(t.startOffset, t.startOffset + t.image.length);
  }
  private span(a: Expr | IToken, b: Expr): Range {
    const s = 'range' in a ? a.range.start.offset : this.src.map(a.startOffset);
    return this.src.pm.range(s, b.range.end.offset);
  }

  private isFor(): boolean {
    if (!tokenMatcher(this.LA(1), Ident)) return false;
    if (tokenMatcher(this.LA(2), In)) return true;
    return tokenMatcher(this.LA(2), ExprComma) && tokenMatcher(this.LA(3), Ident) && tokenMatcher(this.LA(4), In);
  }

  top = this.RULE('top', (): Expr => {
    return this.OR([
      { GATE: () => this.isFor(), ALT: () => this.SUBRULE(this.forExpr) },
      { ALT: () => this.SUBRULE(this.orExpr) },
    ]);
  });

  forExpr = this.RULE('forExpr', (): ForExpr => {
    const item = this.CONSUME(Ident);
    const index = this.OPTION(() => {
      this.CONSUME(ExprComma);
      return this.CONSUME2(Ident);
    });
    this.CONSUME(In);
    const collection = this.SUBRULE(this.orExpr);
    return this.ACTION(() => {
      const f: ForExpr = {
        type: 'for',
        item: { text: item.image, range: this.tr(item) },
        collection,
        range: this.span(item, collection),
      };
      if (index) f.index = { text: index.image, range: this.tr(index) };
      return f;
    });
  });

  orExpr = this.RULE('orExpr', (): Expr => {
    let left = this.SUBRULE(this.andExpr);
    this.MANY(() => {
      this.CONSUME(OrOr);
      const right = this.SUBRULE2(this.andExpr);
      left = this.ACTION(() => ({ type: 'binary', op: '||', left, right, range: this.span(left, right) }));
    });
    return left;
  });

  andExpr = this.RULE('andExpr', (): Expr => {
    let left = this.SUBRULE(this.cmpExpr);
    this.MANY(() => {
      this.CONSUME(AndAnd);
      const right = this.SUBRULE2(this.cmpExpr);
      left = this.ACTION(() => ({ type: 'binary', op: '&&', left, right, range: this.span(left, right) }));
    });
    return left;
  });

  cmpExpr = this.RULE('cmpExpr', (): Expr => {
    let left = this.SUBRULE(this.unary);
    this.OPTION(() => {
      const op = this.OR([
        { ALT: () => this.CONSUME(EqEq) },
        { ALT: () => this.CONSUME(NotEq) },
        { ALT: () => this.CONSUME(Le) },
        { ALT: () => this.CONSUME(Ge) },
        { ALT: () => this.CONSUME(Lt) },
        { ALT: () => this.CONSUME(Gt) },
      ]);
      const right = this.SUBRULE2(this.unary);
      left = this.ACTION(() => ({
        type: 'binary',
        op: op.image as BinaryOp,
        left,
        right,
        range: this.span(left, right),
      }));
    });
    return left;
  });

  unary = this.RULE('unary', (): Expr => {
    return this.OR([
      {
        ALT: () => {
          const bang = this.CONSUME(Not);
          const expr = this.SUBRULE(this.unary);
          return this.ACTION((): Expr => ({ type: 'not', expr, range: this.span(bang, expr) }));
        },
      },
      { ALT: () => this.SUBRULE(this.primary) },
    ]);
  });

  primary = this.RULE('primary', (): Expr => {
    return this.OR([
      {
        // `param("slug")`; any other call is reported by the builder.
        GATE: () => tokenMatcher(this.LA(2), LParen),
        ALT: () => {
          const callee = this.CONSUME(Ident);
          this.CONSUME(LParen);
          const arg = this.CONSUME(ExprString);
          const close = this.CONSUME(RParen);
          return this.ACTION((): Expr => {
            if (callee.image !== 'param' && !this.problem) {
              this.problem = {
                token: callee,
                message: `only param("name") calls are allowed, not ${callee.image}(...)`,
              };
            }
            const { map, pm, doc } = this.src;
            const name = resolveString(arg.image, (i) => map(arg.startOffset + i), pm, doc);
            return { type: 'param', name, range: this.r(callee.startOffset, close.startOffset + 1) };
          });
        },
      },
      {
        ALT: () => {
          const first = this.CONSUME2(Ident);
          const parts = [first.image];
          let last = first;
          this.MANY(() => {
            this.CONSUME(Dot);
            last = this.CONSUME3(Ident);
            this.ACTION(() => parts.push(last.image));
          });
          return this.ACTION(
            (): Expr => ({
              type: 'path',
              path: parts,
              range: this.r(first.startOffset, last.startOffset + last.image.length),
            }),
          );
        },
      },
      {
        ALT: () => {
          const t = this.CONSUME2(ExprString);
          return this.ACTION((): Expr => {
            const { map, pm, doc } = this.src;
            const s = resolveString(t.image, (i) => map(t.startOffset + i), pm, doc);
            if (!s.terminated && !this.problem) this.problem = { token: t, message: 'the string has no closing `"`' };
            return { type: 'literal', value: s.value, range: s.range };
          });
        },
      },
      {
        ALT: () => {
          const t = this.CONSUME(NumberLit);
          return this.ACTION((): Expr => ({ type: 'literal', value: Number(t.image), range: this.tr(t) }));
        },
      },
      {
        ALT: () => {
          const t = this.CONSUME(True);
          return this.ACTION((): Expr => ({ type: 'literal', value: true, range: this.tr(t) }));
        },
      },
      {
        ALT: () => {
          const t = this.CONSUME(False);
          return this.ACTION((): Expr => ({ type: 'literal', value: false, range: this.tr(t) }));
        },
      },
      {
        ALT: () => {
          const open = this.CONSUME2(LParen);
          const inner = this.SUBRULE(this.orExpr);
          const close = this.CONSUME2(RParen);
          // No node for parentheses: the inner expression's range widens to cover them.
          return this.ACTION((): Expr => ({ ...inner, range: this.r(open.startOffset, close.startOffset + 1) }));
        },
      },
    ]);
  });
}

export const exprParser = new ExprParser();

export interface ExprResult {
  expr?: Expr;
  /** What is wrong and, when one token is at fault, its document range. */
  error?: { start?: number; end?: number; message: string };
}

function describe(t: IToken): string {
  return tokenMatcher(t, EOF) ? 'the end of the expression' : `\`${t.image}\``;
}

// The three shapes nearly every view expression has are read without lexing: a plain path, a
// `param("name")` call and a `g:for` head over a path. They build exactly the nodes the grammar
// builds (a test compares both ways); anything else goes through the lexer and the grammar.
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
function plainPath(s: string): [number, number] | 0 | undefined {
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
  if (plain === 0) return undefined;
  if (plain !== undefined) {
    const [a, b] = plain;
    const path = inner.slice(a, b).split('.');
    return { type: 'path', path, range: pm.range(map(a), map(b)) };
  }
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

/** A trailing `...`: `{page.path...}`, a path value that may span URL segments. */
const SEGMENTS_SUFFIX = /\.\.\.\s*$/;

export function parseExprText(inner: string, map: (i: number) => number, pm: PosMaker, doc: string): ExprResult {
  const suffix = inner.indexOf('...') < 0 ? null : SEGMENTS_SUFFIX.exec(inner);
  if (suffix !== null) {
    const head = inner.slice(0, suffix.index);
    const plain = plainPath(head);
    if (plain === undefined || plain === 0)
      return {
        error: {
          start: map(suffix.index),
          end: map(suffix.index + 3),
          message: '`...` may only follow a name or a dotted path, as in `{page.path...}`',
        },
      };
    const [a, b] = plain;
    return {
      expr: {
        type: 'path',
        path: head.slice(a, b).split('.'),
        range: pm.range(map(a), map(suffix.index + 3)),
        segments: true,
      },
    };
  }
  const common = readCommonExpr(inner, map, pm, doc);
  return common !== undefined ? { expr: common } : parseExprWithGrammar(inner, map, pm, doc);
}

/** The general path: lex the inside of `{...}` in `expr` mode and run the expression grammar. */
export function parseExprWithGrammar(inner: string, map: (i: number) => number, pm: PosMaker, doc: string): ExprResult {
  const tokens = markupLexer.tokenize(inner, 'expr').tokens;
  if (tokens.length === 0) return { error: { message: 'empty expression' } };
  for (let i = 0; i + 1 < tokens.length; i++) {
    const t = tokens[i];
    if (t.tokenType === Ident && tokens[i + 1].tokenType === LParen && t.image !== 'param') {
      return {
        error: {
          start: map(t.startOffset),
          end: map(t.startOffset + t.image.length),
          message: `only param("name") calls are allowed, not ${t.image}(...)`,
        },
      };
    }
  }
  const tooDeep = (start: number, end: number): ExprResult => ({
    error: { start, end, message: `it nests deeper than ${MAX_EXPRESSION_DEPTH} levels; split the condition` },
  });
  const crossing = unaryDepthCrossing(tokens);
  if (crossing) return tooDeep(map(crossing.startOffset), map(crossing.startOffset + crossing.image.length));
  const p = exprParser;
  p.src = { map, pm, doc };
  p.problem = undefined;
  p.input = tokens;
  const expr = p.top();
  const errors = p.errors;
  const at = (t: IToken, message: string): ExprResult => ({
    error: { start: map(t.startOffset), end: map(t.startOffset + t.image.length), message },
  });
  if (errors.length > 0) {
    const t = errors[0].token;
    if (tokenMatcher(t, EOF) || !(t.startOffset >= 0)) return { error: { message: 'the expression ends too early' } };
    return at(t, `unexpected ${describe(t)}`);
  }
  const problem = p.problem as ExprParser['problem'];
  if (problem) return at(problem.token, problem.message);
  if (!expr) return { error: { message: 'unreadable expression' } };
  const deep = deepestCrossing(expr);
  if (deep) return tooDeep(deep.range.start.offset, deep.range.end.offset);
  return { expr };
}

/**
 * The first `(` or `!` token that the grammar would reach deeper than `MAX_EXPRESSION_DEPTH`
 * (it recurses once per parenthesis and per `!`); checked before parsing, so that parsing itself
 * stays shallow. A binary operator ends the run of `!` before it.
 */
function unaryDepthCrossing(tokens: IToken[]): IToken | undefined {
  /** Per open parenthesis: the levels it added (the `!` before it, and itself). */
  const opened: number[] = [];
  let outer = 0;
  let nots = 0;
  for (const t of tokens) {
    if (t.tokenType === LParen) {
      opened.push(nots + 1);
      outer += nots + 1;
    } else if (t.tokenType === RParen) outer -= opened.pop() ?? 0;
    else if (t.tokenType === Not) {
      nots++;
      if (outer + nots > MAX_EXPRESSION_DEPTH) return t;
      continue;
    }
    nots = 0; // an operand, an operator or a parenthesis ends the run of `!`
    if (outer > MAX_EXPRESSION_DEPTH) return t;
  }
  return undefined;
}

/** The outermost operator (`!`, a binary operator, `in`) deeper than the limit, found without recursion. */
function deepestCrossing(root: Expr): Expr | undefined {
  const stack: [Expr, number][] = [[root, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [e, depth] = top;
    if (e.type !== 'not' && e.type !== 'binary' && e.type !== 'for') continue; // operands add no level
    if (depth > MAX_EXPRESSION_DEPTH) return e;
    if (e.type === 'not') stack.push([e.expr, depth + 1]);
    else if (e.type === 'binary') stack.push([e.right, depth + 1], [e.left, depth + 1]);
    else stack.push([e.collection, depth + 1]);
  }
  return undefined;
}
