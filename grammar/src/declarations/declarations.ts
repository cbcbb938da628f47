// Chunk → declarations. Lexes a chunk with the declaration lexer, runs the matching parser rule per
// line and turns the tokens into AST nodes, reporting each missing or unexpected part with the
// declaration's own usage message and the range of the part at fault. The builder is one class
// per part, each on the one before: ChunkBase (positions and tokens), RecordBlocks (the lines of
// `paths`, `server` and `props` blocks), EndpointDeclarations (`act` and `api` lines),
// LineDeclarations (every other line) and, here, the blocks: view, fragment, style and brace blocks.
import type { IToken } from 'chevrotain';
import { tokenMatcher } from '../common/chevrotain.js';
import type { Range } from '../ast.js';
import { declParser } from './decl-parser.js';
import { plainBlockHeader, plainFragmentHeader } from './decl-shortcuts.js';
import { LCurly, Newline, RCurly, Word } from './decl-lexer.js';
import { diag } from '../common/diagnostics.js';
import { UNSUPPORTED_BLOCKS } from './keywords.js';
import { parseMarkup } from '../markup/markup-parser.js';
import type { Chunk } from '../chunking/split.js';
import { exact, type PosMaker } from '../common/text-lines.js';
import { usageOf, trimEnd, describe } from './declaration-usage.js';
import { LineDeclarations } from './line-declarations.js';
import type { ChunkResult } from './chunk-base.js';
import type { PreLexed } from '../chunking/chunk-lexing.js';

export type { ChunkResult } from './chunk-base.js';
export { lexChunks, lexRuns, type PreLexed } from '../chunking/chunk-lexing.js';
export { trimEnd } from './declaration-usage.js';

class ChunkBuilder extends LineDeclarations {
  /** False: a multi-line view's markup is left unparsed (`parseKitDeclarations`). */
  views = true;

  /** `server {}`, `paths { => { a: "b" } }`, `view {}` ... written on one line. */
  protected oneLineBlock(kw: string, toks: IToken[], lineEnd: number): void {
    const open = toks.findIndex((t) => t.tokenType === LCurly);
    const usage = usageOf(kw);
    if (open < 0) {
      this.report('parse_error', usage, this.r(toks[0]));
      return;
    }
    const last = toks[toks.length - 1];
    if (last.tokenType !== RCurly || last === toks[open]) {
      this.report(
        'parse_error',
        `\`{\` must end the line of \`${kw} ... {\` or be closed on the same line; ${usage}`,
        this.r(toks[open]),
      );
      return;
    }
    const header = toks.slice(0, open + 1);
    const inner = toks.slice(open + 1, toks.length - 1);
    const openEnd = this.end(toks[open]);
    const closeAt = this.start(last);
    if (kw === 'fragment') {
      const h = this.fragmentHeader(header);
      if (h === undefined) return;
      if (inner.length > 0) {
        this.report(
          'parse_error',
          'fragment markup starts on the line after `{` and ends with a line that is exactly `}`',
          this.span(inner[0], inner[inner.length - 1]),
        );
        return;
      }
      this.push({
        ...h,
        range: this.declRange(toks[0], lineEnd),
        bodyRange: this.pm.range(openEnd, closeAt),
        body: [],
      });
      return;
    }
    const kind = this.blockHeader(kw, header);
    if (kind === undefined) return;
    const range = this.declRange(toks[0], lineEnd);
    if (kw === 'view' || kw === 'style') {
      if (kw === 'view' && inner.length > 0) {
        this.report(
          'parse_error',
          'view markup starts on the line after `view {` and ends with a line that is exactly `}`',
          this.span(inner[0], inner[inner.length - 1]),
        );
        return;
      }
      if (kw === 'view')
        this.push({ kind: 'view', range, keyword: kind.keyword, bodyRange: this.pm.range(openEnd, closeAt), body: [] });
      else
        this.push({
          kind: 'style',
          range,
          keyword: kind.keyword,
          css: this.text.slice(openEnd, closeAt),
          cssRange: this.pm.range(openEnd, closeAt),
        });
      return;
    }
    this.recordBlock(kind, range, inner.length > 0 ? [inner] : []);
  }

  /** Validates `kw [second] {` and answers the block kind, or reports and answers undefined. */
  private blockHeader(
    kw: string,
    header: IToken[],
  ): { kind: 'paths' | 'server' | 'props' | 'view' | 'style'; go: boolean; keyword: Range } | undefined {
    const res = declParser.run(header, () => declParser.blockHeader(), plainBlockHeader);
    if (res === undefined) {
      this.parserErrors(usageOf(kw));
      return undefined;
    }
    if (kw === 'go') {
      if (res.second === undefined || res.second.image !== 'server') {
        const which = res.second !== undefined ? `go ${res.second.image}` : 'go';
        const message =
          UNSUPPORTED_BLOCKS.get(which) ??
          `\`${which} {}\` blocks are not supported by kit; only \`go server {}\` (or \`server {}\`) is`;
        this.report(
          'unsupported_top_level_block',
          message,
          res.second !== undefined ? this.span(res.kw, res.second) : this.r(res.kw),
        );
        return undefined;
      }
      this.parserErrors(usageOf('server'));
      return { kind: 'server', go: true, keyword: this.span(res.kw, res.second) };
    }
    const kind = kw as 'paths' | 'server' | 'props' | 'view' | 'style';
    if (res.second !== undefined) {
      this.report('parse_error', `unexpected ${describe(res.second)}; ${usageOf(kw)}`, this.r(res.second));
    } else this.parserErrors(usageOf(kw));
    return { kind, go: false, keyword: this.r(res.kw) };
  }

  private fragmentHeader(header: IToken[]) {
    const res = declParser.run(header, () => declParser.fragmentHeader(), plainFragmentHeader);
    const usage = usageOf('fragment');
    if (this.parserErrors(usage)) return undefined;
    if (
      res === undefined ||
      res.name === undefined ||
      res.method === undefined ||
      res.path === undefined ||
      res.target === undefined
    ) {
      this.report('parse_error', usage, this.span(header[0], header[header.length - 1]));
      return undefined;
    }
    const h = {
      kind: 'fragment' as const,
      keyword: this.r(res.kw),
      name: this.word(res.name),
      method: this.word(res.method),
      path: this.str(res.path),
      target: this.str(res.target),
    };
    return h;
  }

  private unterminated(kw: string, header: IToken[], markup: boolean): void {
    const range =
      header.length > 0
        ? this.span(header[0], header[header.length - 1])
        : this.pm.range(this.chunk.start, this.chunk.headerEnd);
    this.report(
      'unterminated_block',
      markup
        ? `\`${kw} {\` block is not closed: end it with a line that is exactly \`}\``
        : `\`${kw} {\` block is not closed: add the \`}\` that ends it`,
      range,
    );
  }

  /**
   * `view {` / `fragment ... {` with markup up to a `}` line. Every view and fragment gets `body` as
   * its last property: releasing the markup (`markup-release.ts` in the server) takes it away again.
   */
  markup(): void {
    const c = this.chunk;
    const header = this.lex(c.start, c.headerEnd);
    const kw = header[0].image;
    const closed = c.close >= 0;
    const range = this.pm.range(this.start(header[0]), trimEnd(this.text, c.start, closed ? c.closeLineEnd : c.end));
    const bodyRange = this.pm.range(c.bodyStart, c.bodyEnd);
    if (kw === 'fragment') {
      const h = this.fragmentHeader(header);
      if (!closed) this.unterminated('fragment', header, true);
      if (h === undefined) return;
      const body = parseMarkup(this.text, c.bodyStart, c.bodyEnd, this.pm, this.out.diags);
      this.push({ ...h, range, bodyRange, body });
      return;
    }
    const h = this.blockHeader('view', header);
    if (!closed) this.unterminated('view', header, true);
    if (h === undefined) return;
    const body = this.views ? parseMarkup(this.text, c.bodyStart, c.bodyEnd, this.pm, this.out.diags) : [];
    this.push({ kind: 'view', range, keyword: h.keyword, bodyRange, body });
  }

  style(): void {
    const c = this.chunk;
    const header = this.lex(c.start, c.headerEnd);
    const closed = c.close >= 0;
    const h = this.blockHeader('style', header);
    if (!closed) this.unterminated('style', header, false);
    if (h !== undefined) {
      const range = this.pm.range(this.start(header[0]), trimEnd(this.text, c.start, closed ? c.closeLineEnd : c.end));
      this.push({
        kind: 'style',
        range,
        keyword: h.keyword,
        css: this.text.slice(c.bodyStart, c.bodyEnd),
        cssRange: this.pm.range(c.bodyStart, c.bodyEnd),
      });
    }
    // Last: lexing the rest of the closing line moves `base`, which the header tokens rely on.
    if (closed) this.trailing(c.close + 1, c.closeLineEnd);
  }

  /** Text after a block's closing `}` on the same line. */
  private trailing(from: number, to: number): void {
    const toks = this.lex(from, to);
    if (toks.length > 0) {
      this.report(
        'parse_error',
        `unexpected ${describe(toks[0])} after the closing \`}\``,
        this.span(toks[0], toks[toks.length - 1]),
      );
    }
  }

  /** `paths {`, `server {`, `go server {`, `props {` and unsupported brace blocks, line by line. */
  braces(): void {
    const c = this.chunk;
    const closed = c.close >= 0;
    const toks = this.lex(c.start, closed ? c.closeLineEnd : c.end);
    const lines: IToken[][] = [[]];
    for (const t of toks) {
      if (t.tokenType === Newline) lines.push([]);
      else lines[lines.length - 1].push(t);
    }
    const header = lines[0];
    if (header.length === 0 || !tokenMatcher(header[0], Word)) {
      if (header.length > 0) this.nonWordStart(header, c.headerEnd);
      return;
    }
    const body = lines.slice(1);
    if (closed) {
      const lastLine = body.pop() ?? [];
      const at = lastLine.findIndex((t) => t.tokenType === RCurly && this.start(t) === c.close);
      const before = at >= 0 ? lastLine.slice(0, at) : lastLine;
      const after = at >= 0 ? lastLine.slice(at + 1) : [];
      if (before.length > 0) body.push(before);
      if (after.length > 0) {
        this.report(
          'parse_error',
          `unexpected ${describe(after[0])} after the closing \`}\``,
          this.span(after[0], after[after.length - 1]),
        );
      }
    }
    const kw = header[0].image;
    const nonEmpty = body.filter((l) => l.length > 0);
    if (kw === 'act' || kw === 'api') {
      this.oldBlock(kw, header);
      return;
    }
    if (kw !== 'paths' && kw !== 'server' && kw !== 'props' && kw !== 'go') {
      this.unknown(header);
      if (!closed) this.unterminated(kw, header, false);
      return;
    }
    const h = this.blockHeader(kw, header);
    if (!closed) this.unterminated(kw === 'go' ? 'go server' : kw, header, false);
    if (h === undefined) return;
    const range = this.pm.range(this.start(header[0]), trimEnd(this.text, c.start, closed ? c.closeLineEnd : c.end));
    this.recordBlock(h, range, nonEmpty);
  }
}

/**
 * Parses one chunk. Never throws: an internal failure becomes a `parse_error` on the chunk.
 * `views: false`: a multi-line view's body is left empty (`parseKitDeclarations`).
 */
export function parseChunk(text: string, pm: PosMaker, chunk: Chunk, pre?: PreLexed, views = true): ChunkResult {
  const b = new ChunkBuilder(text, pm, chunk, pre);
  b.views = views;
  try {
    switch (chunk.kind) {
      case 'comment':
        b.comment();
        break;
      case 'line':
        b.line();
        break;
      case 'markup':
        b.markup();
        break;
      case 'style':
        b.style();
        break;
      case 'braces':
        b.braces();
        break;
    }
    const out = b.out;
    return { decls: exact(out.decls), comments: exact(out.comments), diags: exact(out.diags) };
  } catch (e) {
    // Last resort, so one chunk can never take the file down.
    const s = chunk.start;
    const end = trimEnd(text, s, chunk.headerEnd);
    return {
      decls: [],
      comments: [],
      diags: [
        diag(
          'parse_error',
          `internal parser error on this declaration: ${(e as Error)?.message ?? String(e)}`,
          pm.range(s, end),
        ),
      ],
    };
  }
}
