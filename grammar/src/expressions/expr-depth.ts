// The nesting limit of expressions and the two checks that enforce it without deep recursion: one
// over the tokens before parsing, one over the parsed tree.
import type { IToken } from 'chevrotain';
import type { Expr } from '../ast.js';
import { LParen, Not, RParen } from '../markup/markup-lexer.js';

/**
 * How deep an expression may nest: parentheses, `!` and the left-leaning chains of `&&`, `||` and
 * comparisons each add a level. The grammar and every later walk over an expression recurse per
 * level, so a deeper one is refused (as `invalid_expression`, at the token or operand that crosses
 * the limit) instead of exhausting the stack; real conditions stay far below it.
 */
export const MAX_EXPRESSION_DEPTH = 64;

/**
 * The first `(` or `!` token that the grammar would reach deeper than `MAX_EXPRESSION_DEPTH`
 * (it recurses once per parenthesis and per `!`); checked before parsing, so that parsing itself
 * stays shallow. A binary operator ends the run of `!` before it.
 */
export function unaryDepthCrossing(tokens: IToken[]): IToken | undefined {
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
export function deepestCrossing(root: Expr): Expr | undefined {
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
