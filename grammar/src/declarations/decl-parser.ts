// The Chevrotain parser for declaration lines and record lines. Rules are deliberately lenient about
// missing parts (they come back as `undefined` and the builder reports them with the declaration's own
// usage message); anything unexpected is left to Chevrotain, whose errors the builder converts. The
// common line shapes are answered without the rules (`decl-shortcuts.ts`, through `run`).
import type { IOrAlt, IToken } from 'chevrotain';
import { tokenMatcher } from '../common/chevrotain.js';
import { LazyAnalysedParser } from '../common/lazy-setup.js';
import {
  Arrow,
  Colon,
  Comma,
  declTokens,
  Equals,
  Junk,
  KwCors,
  KwError,
  LCurly,
  RCurly,
  StringTok,
  Word,
} from './decl-lexer.js';
import { CORS_OPTIONS, isOneOf } from '#shared/language/facts.js';

export interface OneArg {
  kw: IToken;
  arg?: IToken;
}
export interface WordList {
  kw: IToken;
  /** Words and commas in order (commas kept so the builder can check separators). */
  items: IToken[];
}
export interface EndpointLine {
  kw: IToken;
  symbol?: IToken;
  method?: IToken;
  path?: IToken;
  /** `error` keyword and its string (the string may be missing). */
  errors: { kw: IToken; value?: IToken }[];
  cors: { kw: IToken; options: { name: IToken; value?: IToken }[] }[];
}
export interface FragmentHeader {
  kw: IToken;
  name?: IToken;
  method?: IToken;
  path?: IToken;
  target?: IToken;
  open?: IToken;
}
export interface UseLine {
  kw: IToken;
  alias?: IToken;
  pkg?: IToken;
}
export interface BlockHeader {
  kw: IToken;
  second?: IToken;
  open?: IToken;
}
/** One `name: value` of a paths record; `value` is a string token or a run of other tokens. */
export interface RecordField {
  name: IToken;
  colon?: IToken;
  value: IToken[];
}
export interface RecordLine {
  arrow?: IToken;
  open?: IToken;
  /** Fields (paths) or words (server) interleaved with commas, in order. */
  items: (RecordField | IToken)[];
  close?: IToken;
}
export interface PropLine {
  name: IToken;
  type?: IToken;
  eq?: IToken;
  value?: IToken;
}

function isKeywordTail(t: IToken): boolean {
  return tokenMatcher(t, KwError) || tokenMatcher(t, KwCors);
}

// Alternatives and repetition bodies are built once, not on every rule call (Chevrotain accepts
// them as values); per-call results go through fields. Actions run outside the recording phase only.
export class DeclParser extends LazyAnalysedParser {
  private items: IToken[] = [];
  private errorsOut: EndpointLine['errors'] = [];
  private corsOut: EndpointLine['cors'] = [];
  private corsOptions: { name: IToken; value?: IToken }[] = [];
  private recordItems: (RecordField | IToken)[] = [];
  private fieldValue: IToken[] = [];

  constructor() {
    super(declTokens, { recoveryEnabled: true, maxLookahead: 3, skipValidations: true });
  }

  /**
   * `rule` run over `toks`, or the result `plain` knows for them without running it; `errors` is
   * then empty, as after a clean run, so callers read both the same way.
   */
  run<T>(toks: IToken[], rule: () => T, plain: (toks: readonly IToken[]) => T | undefined): T {
    const known = plain(toks);
    if (known !== undefined) {
      this.errors = [];
      return known;
    }
    this.input = toks;
    return rule();
  }

  private readonly notKeywordTail = (): boolean => !isKeywordTail(this.LA(1));

  // --- oneArg
  private readonly argAlts: IOrAlt<IToken>[] = [
    { ALT: () => this.CONSUME2(Word) },
    { ALT: () => this.CONSUME(StringTok) },
  ];
  private readonly arg = (): IToken => this.OR(this.argAlts);

  /**
   * `kw [word|string]` — package, page, render, revalidate, component, route, cache, meta, js, asset,
   * wasm, error.
   */
  oneArg = this.RULE('oneArg', (): OneArg => {
    const kw = this.CONSUME(Word);
    const arg = this.OPTION(this.arg);
    return { kw, arg };
  });

  // --- wordList
  private readonly listAlts: IOrAlt<IToken>[] = [
    { ALT: () => this.CONSUME2(Word) },
    { ALT: () => this.CONSUME(Comma) },
    { ALT: () => this.CONSUME(StringTok) },
  ];
  private readonly listItem = (): void => {
    const t = this.OR(this.listAlts);
    if (!this.RECORDING_PHASE) this.items.push(t);
  };

  /** `kw a, b c` — guard, layout, css. Strings are accepted too (`css "./x.css"`). */
  wordList = this.RULE('wordList', (): WordList => {
    const kw = this.CONSUME(Word);
    const items: IToken[] = [];
    this.items = items;
    this.MANY(this.listItem);
    return { kw, items };
  });

  // --- useLine
  private readonly useAlias = (): IToken => this.CONSUME2(Word);
  private readonly usePkg = (): IToken => this.CONSUME(StringTok);

  useLine = this.RULE('useLine', (): UseLine => {
    const kw = this.CONSUME(Word);
    const alias = this.OPTION(this.useAlias);
    const pkg = this.OPTION2(this.usePkg);
    return { kw, alias, pkg };
  });

  // --- endpointLine
  private readonly symbolOpt = { GATE: this.notKeywordTail, DEF: (): IToken => this.CONSUME2(Word) };
  private readonly methodOpt = { GATE: this.notKeywordTail, DEF: (): IToken => this.CONSUME3(Word) };
  private readonly pathOpt = (): IToken => this.CONSUME(StringTok);
  private readonly errorValue = (): IToken => this.CONSUME2(StringTok);
  private readonly corsValueAlts: IOrAlt<IToken>[] = [
    { ALT: () => this.CONSUME3(StringTok) },
    {
      GATE: () => !isOneOf(CORS_OPTIONS, this.LA(1).image) && !isKeywordTail(this.LA(1)),
      ALT: () => this.CONSUME5(Word),
    },
  ];
  private readonly corsValue = (): IToken => this.OR2(this.corsValueAlts);
  private readonly corsOption = {
    GATE: this.notKeywordTail,
    DEF: (): void => {
      const name = this.CONSUME4(Word);
      const value = this.OPTION5(this.corsValue);
      if (!this.RECORDING_PHASE) this.corsOptions.push({ name, value });
    },
  };
  private readonly tailAlts: IOrAlt<void>[] = [
    {
      ALT: () => {
        const ek = this.CONSUME(KwError);
        const value = this.OPTION4(this.errorValue);
        if (!this.RECORDING_PHASE) this.errorsOut.push({ kw: ek, value });
      },
    },
    {
      ALT: () => {
        const ck = this.CONSUME(KwCors);
        const options: { name: IToken; value?: IToken }[] = [];
        this.corsOptions = options;
        this.MANY2(this.corsOption);
        if (!this.RECORDING_PHASE) this.corsOut.push({ kw: ck, options });
      },
    },
  ];
  private readonly tail = (): void => this.OR(this.tailAlts);

  /** `act|api <Symbol> <METHOD> ["<path>"] [error "<x>"] [cors <opt> <value> ...]` */
  endpointLine = this.RULE('endpointLine', (): EndpointLine => {
    const kw = this.CONSUME(Word);
    const symbol = this.OPTION(this.symbolOpt);
    const method = this.OPTION2(this.methodOpt);
    const path = this.OPTION3(this.pathOpt);
    const errors: EndpointLine['errors'] = [];
    const cors: EndpointLine['cors'] = [];
    this.errorsOut = errors;
    this.corsOut = cors;
    this.MANY(this.tail);
    return { kw, symbol, method, path, errors, cors };
  });

  // --- fragmentHeader
  private readonly fragName = (): IToken => this.CONSUME2(Word);
  private readonly fragMethod = (): IToken => this.CONSUME3(Word);
  private readonly fragPath = (): IToken => this.CONSUME(StringTok);
  private readonly fragTarget = (): IToken => this.CONSUME2(StringTok);
  private readonly fragOpen = (): IToken => this.CONSUME(LCurly);

  /** `fragment <Name> <METHOD> "<route>" "#<id>" {` */
  fragmentHeader = this.RULE('fragmentHeader', (): FragmentHeader => {
    const kw = this.CONSUME(Word);
    const name = this.OPTION(this.fragName);
    const method = this.OPTION2(this.fragMethod);
    const path = this.OPTION3(this.fragPath);
    const target = this.OPTION4(this.fragTarget);
    const open = this.OPTION5(this.fragOpen);
    return { kw, name, method, path, target, open };
  });

  // --- blockHeader
  private readonly blockSecond = (): IToken => this.CONSUME2(Word);
  private readonly blockOpen = (): IToken => this.CONSUME(LCurly);

  /** `view {`, `paths {`, `go server {` ... (the body is handled line by line). */
  blockHeader = this.RULE('blockHeader', (): BlockHeader => {
    const kw = this.CONSUME(Word);
    const second = this.OPTION(this.blockSecond);
    const open = this.OPTION2(this.blockOpen);
    return { kw, second, open };
  });

  // --- recordLine
  private readonly valueAlts: IOrAlt<IToken>[] = [
    { ALT: () => this.CONSUME(StringTok) },
    { ALT: () => this.CONSUME2(Word) },
    { ALT: () => this.CONSUME(Junk) },
    { ALT: () => this.CONSUME2(Colon) },
    { ALT: () => this.CONSUME(Equals) },
  ];
  private readonly valueItem = (): void => {
    const v = this.OR2(this.valueAlts);
    if (!this.RECORDING_PHASE) this.fieldValue.push(v);
  };
  private readonly recordColon = (): IToken => this.CONSUME(Colon);
  private readonly recordAlts: IOrAlt<void>[] = [
    {
      ALT: () => {
        const c = this.CONSUME(Comma);
        if (!this.RECORDING_PHASE) this.recordItems.push(c);
      },
    },
    {
      ALT: () => {
        const name = this.CONSUME(Word);
        const colon = this.OPTION3(this.recordColon);
        const value: IToken[] = [];
        this.fieldValue = value;
        this.MANY2(this.valueItem);
        if (!this.RECORDING_PHASE)
          this.recordItems.push(colon !== undefined || value.length > 0 ? { name, colon, value } : name);
      },
    },
  ];
  private readonly recordItem = (): void => this.OR(this.recordAlts);
  private readonly recordArrow = (): IToken => this.CONSUME(Arrow);
  private readonly recordOpen = (): IToken => this.CONSUME(LCurly);
  private readonly recordClose = (): IToken => this.CONSUME(RCurly);

  /** `=> { slug: "a", page: "2" }` (paths) or `=> { field, a.b }` (server). */
  recordLine = this.RULE('recordLine', (): RecordLine => {
    const arrow = this.OPTION(this.recordArrow);
    const open = this.OPTION2(this.recordOpen);
    const items: (RecordField | IToken)[] = [];
    this.recordItems = items;
    this.MANY(this.recordItem);
    const close = this.OPTION4(this.recordClose);
    return { arrow, open, items, close };
  });

  // --- propLine
  private readonly propType = (): IToken => this.CONSUME2(Word);
  private readonly propValueAlts: IOrAlt<IToken>[] = [
    { ALT: () => this.CONSUME3(Word) },
    { ALT: () => this.CONSUME(StringTok) },
  ];
  private readonly propValue = (): IToken => this.OR(this.propValueAlts);
  private propEq: IToken | undefined;
  private propVal: IToken | undefined;
  private readonly propDefault = (): void => {
    this.propEq = this.CONSUME(Equals);
    this.propVal = this.OPTION3(this.propValue);
  };

  /** `name type [= literal]` inside `props {}`. */
  propLine = this.RULE('propLine', (): PropLine => {
    const name = this.CONSUME(Word);
    const type = this.OPTION(this.propType);
    this.propEq = undefined;
    this.propVal = undefined;
    this.OPTION2(this.propDefault);
    return { name, type, eq: this.propEq, value: this.propVal };
  });
}

export const declParser = new DeclParser();
