// The grammar of view expressions: a Chevrotain parser over the tokens between `{` and `}` whose
// actions build the `Expr` nodes. Only expressions the common-shape reader (expr-common.ts) cannot
// read get here; expr-parser.ts runs it and turns its errors into messages.
import type { IToken } from 'chevrotain';
import { tokenMatcher } from '../common/chevrotain.js';
import { LazyAnalysedParser } from '../common/lazy-setup.js';
import type { Expr, ForExpr, Range } from '../ast.js';
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
  markupTokens,
  Not,
  NotEq,
  NumberLit,
  OrOr,
  RParen,
  True,
  Dot,
} from '../markup/markup-lexer.js';
import { resolveString } from '../common/string-literal.js';
import type { PosMaker } from '../common/text-lines.js';

type BinaryOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

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
