// The one-line chunks of a chunk builder: comment lines, and declaration lines dispatched by their
// keyword (`package`, `route`, `guard`, `use`, `act` ...) to the parser rule of their form; what is
// no declaration (an unknown or foreign keyword, legacy `@` metadata, stray markup) is reported
// with what to write instead. A block written on one line is the block builder's (declarations.ts).
import type { IToken } from 'chevrotain';
import { tokenMatcher } from '../common/chevrotain.js';
import type { Word as WordNode } from '../ast.js';
import { declParser } from './decl-parser.js';
import { plainOneArg, plainUseLine, plainWordList } from './decl-shortcuts.js';
import { Comma, Junk, LCurly, RCurly, StringTok, Word } from './decl-lexer.js';
import { BLOCK_KEYWORDS, DECLARATION_KEYWORD_SET } from '#shared/language/facts.js';
import { closestKeyword, FOREIGN_DECLARATIONS, UNSUPPORTED_BLOCKS } from './keywords.js';
import { usageOf, isSpaceCode, trimEnd, describe, ONE_ARG } from './declaration-usage.js';
import { EndpointDeclarations } from './endpoint-declarations.js';

export abstract class LineDeclarations extends EndpointDeclarations {
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

  protected nonWordStart(toks: IToken[], lineEnd: number): void {
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

  protected unknown(toks: IToken[]): void {
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
    if (kw === 'revalidate') {
      const value = this.durationRun(toks);
      if (value !== undefined) {
        this.push({ kind: 'revalidate', range: this.declRange(toks[0], lineEnd), keyword: this.r(toks[0]), value });
        return;
      }
    }
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

  /**
   * A duration written with characters a word does not hold (Go's `+60s`, `1000000µs`): the
   * tokens after `revalidate` that touch each other, when one of them is such a character, read as
   * one word; the core judges the text (`invalid_revalidate`). Undefined for any other line.
   */
  private durationRun(toks: IToken[]): WordNode | undefined {
    if (toks.length < 3) return undefined;
    let odd = false;
    for (let i = 1; i < toks.length; i++) {
      const t = toks[i];
      if (t.tokenType === Junk) odd = true;
      else if (t.tokenType !== Word) return undefined;
      if (i > 1 && this.start(t) !== this.end(toks[i - 1])) return undefined;
    }
    if (!odd) return undefined;
    const first = toks[1];
    const last = toks[toks.length - 1];
    return { text: this.text.slice(this.start(first), this.end(last)), range: this.span(first, last) };
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
    const res = declParser.run(toks, () => declParser.useLine(), plainUseLine);
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

  /** `server {}`, `paths { => { a: "b" } }`, `view {}` ... written on one line. */
  protected abstract oneLineBlock(kw: string, toks: IToken[], lineEnd: number): void;
}
