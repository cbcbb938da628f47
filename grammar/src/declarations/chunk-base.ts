// The shared state and helpers of the chunk builders (declarations.ts, line-declarations.ts,
// endpoint-declarations.ts, record-blocks.ts).
import type { IToken } from 'chevrotain';
import { tokenMatcher } from '../common/chevrotain.js';
import type { Declaration, LineComment, Range, StringLit, SyntaxDiagnostic, Word as WordNode } from '../ast.js';
import { declParser } from './decl-parser.js';
import { Word } from './decl-lexer.js';
import { declLexer } from './decl-scanner.js';
import { diag, type SyntaxCode } from '../common/diagnostics.js';
import type { Chunk } from '../chunking/split.js';
import { stringAt } from '../common/string-literal.js';
import type { PosMaker } from '../common/text-lines.js';
import { trimEnd, describe } from './declaration-usage.js';
import { tokensIn, type PreLexed } from '../chunking/chunk-lexing.js';

export interface ChunkResult {
  decls: Declaration[];
  comments: LineComment[];
  diags: SyntaxDiagnostic[];
}

/** Position and token helpers of a chunk builder: offsets, ranges, words, strings, diagnostics. */
export abstract class ChunkBase {
  readonly out: ChunkResult = { decls: [], comments: [], diags: [] };
  /** Document offset of the lexed slice. */
  protected base = 0;

  constructor(
    protected readonly text: string,
    protected readonly pm: PosMaker,
    protected readonly chunk: Chunk,
    protected readonly pre: PreLexed | undefined,
  ) {}

  // --- small helpers
  protected start(t: IToken): number {
    return this.base + t.startOffset;
  }
  protected end(t: IToken): number {
    return this.base + t.startOffset + t.image.length;
  }
  protected r(t: IToken): Range {
    return this.pm.range(this.start(t), this.end(t));
  }
  protected span(a: IToken, b: IToken): Range {
    return this.pm.range(this.start(a), this.end(b));
  }
  protected word(t: IToken): WordNode {
    return { text: t.image, range: this.r(t) };
  }
  protected str(t: IToken): StringLit {
    const s = stringAt(t.image, this.start(t), this.pm);
    if (!s.terminated)
      this.report(
        'unterminated_string',
        'unterminated string: add the closing `"` before the end of the line',
        this.r(t),
      );
    return s;
  }
  protected report(code: SyntaxCode, message: string, range: Range): void {
    this.out.diags.push(diag(code, message, range));
  }
  /** The declaration tokens of [from, to) (taken from a pre-lexed span when one covers it). */
  protected lex(from: number, to: number): IToken[] {
    let tokens: IToken[];
    let comments: IToken[];
    const pre = this.pre;
    if (pre !== undefined && from >= pre.base && to <= pre.end) {
      this.base = pre.base;
      tokens = tokensIn(pre.tokens, from - pre.base, to - pre.base);
      comments = tokensIn(pre.comments, from - pre.base, to - pre.base);
    } else {
      this.base = from;
      const res = declLexer.tokenize(this.text.slice(from, to));
      tokens = res.tokens;
      comments = (res.groups.comments as IToken[] | undefined) ?? [];
    }
    for (const c of comments) {
      const s = this.base + c.startOffset;
      const e = trimEnd(this.text, s, s + c.image.length);
      this.out.comments.push({ text: this.text.slice(s, e), range: this.pm.range(s, e) });
    }
    return tokens;
  }
  /** Reports the first Chevrotain error of the last rule run, if any; answers whether there was one. */
  protected parserErrors(usage: string): boolean {
    const errs = declParser.errors;
    if (errs.length === 0) return false;
    const t = errs[0].token;
    if (t.startOffset >= 0 && t.image) {
      const hint = tokenMatcher(t, Word) && t.image.startsWith('/') ? `paths are quoted strings: "${t.image}"` : usage;
      this.report('parse_error', `unexpected ${describe(t)}; ${hint}`, this.r(t));
    } else {
      const lastTok = declParser.input[declParser.input.length - 1];
      this.report(
        'parse_error',
        usage,
        lastTok ? this.span(declParser.input[0], lastTok) : this.pm.range(this.chunk.start, this.chunk.start),
      );
    }
    return true;
  }
  protected declRange(kw: IToken, endOffset: number): Range {
    return this.pm.range(this.start(kw), trimEnd(this.text, this.start(kw), endOffset));
  }
  protected push(d: Declaration): void {
    this.out.decls.push(d);
  }
}
