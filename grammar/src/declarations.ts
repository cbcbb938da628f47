// Chunk → declarations. Lexes a chunk with the declaration lexer, runs the matching parser rule per
// line and turns the tokens into AST nodes, reporting each missing or unexpected part with the
// declaration's own usage message and the range of the part at fault.
import type { IToken } from 'chevrotain';
import { tokenMatcher } from './chevrotain.js';
import type { ActDecl, ApiDecl, CorsOptions, Range, StringLit, Word as WordNode } from './ast.js';
import {
  declParser,
  plainBlockHeader,
  plainEndpointLine,
  plainOneArg,
  plainWordList,
  type EndpointLine,
} from './decl-parser.js';
import { Comma, LCurly, Newline, RCurly, StringTok, Word } from './decl-lexer.js';
import { diag } from './diagnostics.js';
import { closestKeyword, DECLARATION_KEYWORD_SET, FOREIGN_DECLARATIONS, UNSUPPORTED_BLOCKS } from './keywords.js';
import { parseMarkup } from './markup-parser.js';
import type { Chunk } from './split.js';
import { exact, type PosMaker } from './text-lines.js';
import {
  usageOf,
  isSpaceCode,
  trimEnd,
  describe,
  ONE_ARG,
  BLOCK_KEYWORDS,
  CORS_STRING_OPTIONS,
} from './declaration-usage.js';
import { RecordBlocks } from './record-blocks.js';
import type { ChunkResult } from './chunk-base.js';
import type { PreLexed } from './chunk-lexing.js';

export type { ChunkResult } from './chunk-base.js';
export { lexChunks, lexRuns, type PreLexed } from './chunk-lexing.js';
export { trimEnd } from './declaration-usage.js';

class ChunkBuilder extends RecordBlocks {
  // --- chunk kinds

  comment(): void {
    const c = this.chunk;
    let s = c.start;
    while (s < c.headerEnd && isSpaceCode(this.text.charCodeAt(s))) s++;
    const e = trimEnd(this.text, s, c.headerEnd);
    this.out.comments.push({ text: this.text.slice(s, e), range: this.pm.range(s, e) });
  }

  line(): void {
    const c = this.chunk;
    const toks = this.lex(c.start, c.headerEnd);
    if (toks.length > 0) this.declLine(toks, c.headerEnd);
  }

  private declLine(toks: IToken[], lineEnd: number): void {
    const t0 = toks[0];
    if (!tokenMatcher(t0, Word)) {
      this.nonWordStart(toks, lineEnd);
      return;
    }
    const kw = t0.image;
    if (ONE_ARG.has(kw)) return this.oneArg(kw, toks, lineEnd);
    switch (kw) {
      case 'guard':
      case 'layout':
      case 'css':
        return this.wordList(kw, toks, lineEnd);
      case 'use':
        return this.useLine(toks, lineEnd);
      case 'act':
      case 'api':
        if (toks.some((t) => t.tokenType === LCurly)) return this.oldBlock(kw, toks);
        return this.endpoint(kw, toks, lineEnd);
    }
    if (BLOCK_KEYWORDS.has(kw)) return this.oneLineBlock(kw, toks, lineEnd);
    this.unknown(toks);
  }

  private nonWordStart(toks: IToken[], lineEnd: number): void {
    const t0 = toks[0];
    const t1 = toks[1];
    if (t0.image === '@') {
      const adjacent = t1 !== undefined && tokenMatcher(t1, Word) && this.start(t1) === this.end(t0);
      const word = adjacent ? t1.image : '';
      const range = adjacent ? this.span(t0, t1) : this.r(t0);
      const message = DECLARATION_KEYWORD_SET.has(word)
        ? `legacy metadata \`@${word}\` is not supported: write \`${word} ...\` without \`@\``
        : `legacy metadata \`@${word}\` is not supported: declarations are written without \`@\`, e.g. \`route ` +
          `"/path"\``;
      this.report('malformed_legacy_metadata', message, range);
      return;
    }
    if (t0.image === '<') {
      this.report(
        'parse_error',
        'markup belongs inside a `view {` block',
        this.pm.range(this.start(t0), trimEnd(this.text, this.start(t0), lineEnd)),
      );
      return;
    }
    if (t0.tokenType === RCurly) {
      this.report('parse_error', 'unexpected `}`: no block is open here', this.r(t0));
      return;
    }
    this.report(
      'parse_error',
      `unexpected ${describe(t0)}: expected a declaration such as \`route "/path"\``,
      this.r(t0),
    );
  }

  private unknown(toks: IToken[]): void {
    const t0 = toks[0];
    const kw = t0.image;
    const hasBrace = toks.some((t) => t.tokenType === LCurly);
    if (UNSUPPORTED_BLOCKS.has(kw) && (hasBrace || kw === 'state' || kw === 'store')) {
      this.report('unsupported_top_level_block', UNSUPPORTED_BLOCKS.get(kw)!, this.r(t0));
      return;
    }
    if (FOREIGN_DECLARATIONS.has(kw)) {
      this.report('unknown_declaration', `unknown declaration "${kw}": kit does not support it`, this.r(t0));
      return;
    }
    if (hasBrace) {
      const near = closestKeyword(kw);
      this.report(
        'unsupported_top_level_block',
        `unknown block \`${kw} {\`` +
          (near && BLOCK_KEYWORDS.has(near)
            ? `; did you mean "${near}"?`
            : ': kit supports view, fragment, style, paths, server, go server and props blocks'),
        this.r(t0),
      );
      return;
    }
    const near = closestKeyword(kw);
    this.report(
      'unknown_declaration',
      near !== undefined
        ? `unknown declaration "${kw}"; did you mean "${near}"?`
        : `unknown declaration "${kw}"; expected a declaration keyword such as package, route, guard, layout, ` +
            `act, api or view`,
      this.r(t0),
    );
  }

  private oneArg(kw: string, toks: IToken[], lineEnd: number): void {
    const res = declParser.run(toks, () => declParser.oneArg(), plainOneArg);
    const usage = usageOf(kw);
    if (this.parserErrors(usage) || res === undefined) return;
    const want = ONE_ARG.get(kw);
    const arg = res.arg;
    const isString = arg !== undefined && arg.tokenType === StringTok;
    if (arg === undefined || (want === 'word' && isString) || (want === 'string' && !isString)) {
      this.report('parse_error', usage, arg === undefined ? this.r(res.kw) : this.r(arg));
      return;
    }
    const range = this.declRange(res.kw, lineEnd);
    const keyword = this.r(res.kw);
    switch (kw) {
      case 'package':
        this.push({ kind: 'package', range, keyword, name: this.word(arg) });
        break;
      case 'page':
        this.push({ kind: 'page', range, keyword, id: this.word(arg) });
        break;
      case 'render':
        this.push({ kind: 'render', range, keyword, mode: this.word(arg) });
        break;
      case 'revalidate':
        this.push({ kind: 'revalidate', range, keyword, value: this.word(arg) });
        break;
      case 'component':
        this.push({ kind: 'component', range, keyword, name: this.word(arg) });
        break;
      case 'route':
        this.push({ kind: 'route', range, keyword, path: this.str(arg) });
        break;
      case 'cache':
        this.push({ kind: 'cache', range, keyword, value: this.str(arg) });
        break;
      case 'title':
      case 'description':
      case 'canonical':
        this.push({ kind: 'meta', range, keyword, name: kw, value: this.str(arg) });
        break;
      case 'js':
        this.push({ kind: 'js', range, keyword, file: this.str(arg) });
        break;
      case 'asset':
        this.push({ kind: 'asset', range, keyword, file: this.str(arg) });
        break;
      case 'error':
        this.push({ kind: 'error', range, keyword, file: this.str(arg) });
        break;
      case 'wasm':
        this.push({ kind: 'wasm', range, keyword, target: isString ? this.str(arg) : this.word(arg) });
        break;
    }
  }

  private wordList(kw: 'guard' | 'layout' | 'css', toks: IToken[], lineEnd: number): void {
    const res = declParser.run(toks, () => declParser.wordList(), plainWordList);
    const usage = usageOf(kw);
    if (this.parserErrors(usage) || res === undefined) return;
    const items = res.items;
    const strings = items.filter((t) => t.tokenType === StringTok);
    if (kw === 'css' && strings.length > 0) {
      if (items.length !== 1) {
        const odd = items.find((t) => t !== strings[0]) ?? strings[1];
        this.report('parse_error', `css takes either names or one quoted file; ${usage}`, this.r(odd));
        return;
      }
      this.push({
        kind: 'css',
        range: this.declRange(res.kw, lineEnd),
        keyword: this.r(res.kw),
        names: [],
        file: this.str(strings[0]),
      });
      return;
    }
    if (strings.length > 0) {
      this.report('parse_error', `${kw} IDs are bare words, not strings; ${usage}`, this.r(strings[0]));
      return;
    }
    const words: WordNode[] = [];
    let prevComma = true;
    let commaProblem: IToken | undefined;
    for (const t of items) {
      if (t.tokenType === Comma) {
        if (prevComma && commaProblem === undefined) commaProblem = t;
        prevComma = true;
      } else {
        words.push(this.word(t));
        prevComma = false;
      }
    }
    if (words.length === 0) {
      this.report('parse_error', usage, this.r(res.kw));
      return;
    }
    if (commaProblem !== undefined) {
      this.report('parse_error', `unexpected \`,\`: expected a name between commas; ${usage}`, this.r(commaProblem));
      return;
    }
    if (prevComma) {
      this.report('parse_error', `unexpected trailing \`,\`; ${usage}`, this.r(items[items.length - 1]));
      return;
    }
    const range = this.declRange(res.kw, lineEnd);
    const keyword = this.r(res.kw);
    if (kw === 'guard') this.push({ kind: 'guard', range, keyword, guards: words });
    else if (kw === 'layout') this.push({ kind: 'layout', range, keyword, layouts: words });
    else this.push({ kind: 'css', range, keyword, names: words });
  }

  private useLine(toks: IToken[], lineEnd: number): void {
    declParser.input = toks;
    const res = declParser.useLine();
    const usage = usageOf('use');
    if (this.parserErrors(usage)) return;
    if (res === undefined || res.alias === undefined || res.pkg === undefined) {
      this.report('parse_error', usage, toks.length > 1 ? this.span(toks[0], toks[toks.length - 1]) : this.r(toks[0]));
      return;
    }
    this.push({
      kind: 'use',
      range: this.declRange(res.kw, lineEnd),
      keyword: this.r(res.kw),
      alias: this.word(res.alias),
      pkg: this.str(res.pkg),
    });
  }

  private endpoint(kw: 'act' | 'api', toks: IToken[], lineEnd: number): void {
    const res: EndpointLine | undefined = declParser.run(toks, () => declParser.endpointLine(), plainEndpointLine);
    const usage = usageOf(kw);
    if (this.parserErrors(usage)) return;
    if (res === undefined || res.symbol === undefined || res.method === undefined) {
      this.report('parse_error', usage, toks.length > 1 ? this.span(toks[0], toks[toks.length - 1]) : this.r(toks[0]));
      return;
    }
    const range = this.declRange(res.kw, lineEnd);
    const base = { range, keyword: this.r(res.kw), symbol: this.word(res.symbol), method: this.word(res.method) };
    let problem = false;
    const problemAt = (message: string, t: IToken): void => {
      if (problem) return;
      problem = true;
      this.report('parse_error', message, this.r(t));
    };
    let path: StringLit | undefined;
    if (res.path !== undefined) path = this.str(res.path);
    let error: StringLit | undefined;
    for (const e of res.errors) {
      if (e.value === undefined) problemAt('`error` needs a quoted error document path: error "/errors/x.html"', e.kw);
      else if (error !== undefined) problemAt('duplicate `error` option', e.kw);
      else error = this.str(e.value);
    }
    let cors: CorsOptions | undefined;
    if (res.cors.length > 0) {
      if (kw === 'act') problemAt('act declarations take no cors options (only api declarations do)', res.cors[0].kw);
      else {
        if (res.cors.length > 1) problemAt('duplicate `cors` options', res.cors[1].kw);
        const c = res.cors[0];
        const last =
          c.options.length > 0 ? (c.options[c.options.length - 1].value ?? c.options[c.options.length - 1].name) : c.kw;
        cors = { range: this.span(c.kw, last) };
        if (c.options.length === 0)
          problemAt(
            '`cors` needs options: cors origins "https://a.example" methods "GET, POST" credentials true maxAge 600',
            c.kw,
          );
        for (const o of c.options) {
          const name = o.name.image;
          const known = CORS_STRING_OPTIONS.has(name) || name === 'credentials' || name === 'maxAge';
          if (!known) {
            problemAt(
              `unknown cors option \`${name}\`; expected origins, methods, headers, expose, credentials or maxAge`,
              o.name,
            );
            continue;
          }
          if ((cors as unknown as Record<string, unknown>)[name] !== undefined) {
            problemAt(`duplicate cors option \`${name}\``, o.name);
            continue;
          }
          const v = o.value;
          if (CORS_STRING_OPTIONS.has(name)) {
            if (v === undefined || v.tokenType !== StringTok) {
              problemAt(`cors option \`${name}\` needs a quoted comma-separated list: ${name} "a, b"`, v ?? o.name);
              continue;
            }
            (cors as Record<'origins' | 'methods' | 'headers' | 'expose', StringLit>)[name as 'origins'] = this.str(v);
          } else if (name === 'credentials') {
            // Only the form is checked here; the core's invalid_cors_option judges the word.
            if (v === undefined || v.tokenType === StringTok) {
              problemAt('cors option `credentials` needs true or false', v ?? o.name);
              continue;
            }
            cors.credentials = this.word(v);
          } else {
            if (v === undefined || v.tokenType === StringTok) {
              problemAt('cors option `maxAge` needs whole seconds: maxAge 600', v ?? o.name);
              continue;
            }
            cors.maxAge = this.word(v);
          }
        }
      }
    }
    if (problem) return;
    if (kw === 'act') {
      const d: ActDecl = { kind: 'act', ...base };
      if (path !== undefined) d.path = path;
      if (error !== undefined) d.error = error;
      this.push(d);
    } else {
      const d: ApiDecl = { kind: 'api', ...base };
      if (path !== undefined) d.path = path;
      if (error !== undefined) d.error = error;
      if (cors !== undefined) d.cors = cors;
      this.push(d);
    }
  }

  private oldBlock(kw: 'act' | 'api', header: IToken[]): void {
    const brace = header.find((t) => t.tokenType === LCurly) ?? header[header.length - 1];
    const sym = header[1] !== undefined && tokenMatcher(header[1], Word) ? header[1].image : 'Name';
    const message =
      kw === 'act'
        ? `\`act ${sym} {}\` is the old action block syntax: declare \`act ${sym} POST "/path"\` on one line and ` +
          `export a function ${sym} from a module next to this file`
        : `\`api ${sym} {}\` is the old API block syntax: declare \`api ${sym} GET "/path"\` on one line and ` +
          `export a function ${sym} from a module next to this file`;
    this.report(
      kw === 'act' ? 'old_action_block_syntax' : 'old_api_block_syntax',
      message,
      this.span(header[0], brace),
    );
  }

  /** `server {}`, `paths { => { a: "b" } }`, `view {}` ... written on one line. */
  private oneLineBlock(kw: string, toks: IToken[], lineEnd: number): void {
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
        body: [],
        bodyRange: this.pm.range(openEnd, closeAt),
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
        this.push({ kind: 'view', range, keyword: kind.keyword, body: [], bodyRange: this.pm.range(openEnd, closeAt) });
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
    declParser.input = header;
    const res = declParser.fragmentHeader();
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

  /** `view {` / `fragment ... {` with markup up to a `}` line. */
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
      this.push({ ...h, range, body, bodyRange });
      return;
    }
    const h = this.blockHeader('view', header);
    if (!closed) this.unterminated('view', header, true);
    if (h === undefined) return;
    const body = parseMarkup(this.text, c.bodyStart, c.bodyEnd, this.pm, this.out.diags);
    this.push({ kind: 'view', range, keyword: h.keyword, body, bodyRange });
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

/** Parses one chunk. Never throws: an internal failure becomes a `parse_error` on the chunk. */
export function parseChunk(text: string, pm: PosMaker, chunk: Chunk, pre?: PreLexed): ChunkResult {
  const b = new ChunkBuilder(text, pm, chunk, pre);
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
