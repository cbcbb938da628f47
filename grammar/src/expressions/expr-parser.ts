// The expression language of views: paths, `param("x")`, literals, `!`, comparisons, `&&`, `||` and
// the `item[, i] in items` form of `g:for`. This module reads the text between `{` and `}`: the
// common shapes without lexing (expr-common.ts), anything else with its own Chevrotain parser
// (expr-grammar.ts) within the nesting limit (expr-depth.ts); anything it cannot read becomes an
// error the caller reports with an `InvalidExpr`.
import type { IToken } from 'chevrotain';
import { EOF, tokenMatcher } from '../common/chevrotain.js';
import type { Expr } from '../ast.js';
import { Ident, LParen } from '../markup/markup-lexer.js';
import { markupLexer } from '../markup/markup-scanner.js';
import type { PosMaker } from '../common/text-lines.js';
import { plainPath, readCommonExpr } from './expr-common.js';
import { deepestCrossing, MAX_EXPRESSION_DEPTH, unaryDepthCrossing } from './expr-depth.js';
import { exprParser, type ExprParser } from './expr-grammar.js';

export interface ExprResult {
  expr?: Expr;
  /** What is wrong and, when one token is at fault, its document range. */
  error?: { start?: number; end?: number; message: string };
}

function describe(t: IToken): string {
  return tokenMatcher(t, EOF) ? 'the end of the expression' : `\`${t.image}\``;
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
