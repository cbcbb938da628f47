// The Chevrotain parser for declaration lines and record lines. Rules are deliberately lenient about
// missing parts (they come back as `undefined` and the builder reports them with the declaration's own
// usage message); anything unexpected is left to Chevrotain, whose errors the builder converts.
import type { IOrAlt, IToken } from 'chevrotain';
import { tokenMatcher } from './chevrotain.js';
import { LazyAnalysedParser } from './lazy-setup.js';
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

// Most declaration lines are `kw arg`, `kw a, b`, `kw {`, `act Name POST "/path"`, a prop
// `name type = value` or a record `=> { a: "b" }`: for a line whose tokens already have the exact
// shape a rule accepts, its result is known without running the rule (`DeclParser.run`); running
// Chevrotain for a two-token line costs more than lexing it, and a site whose lines all have such
// shapes never pays for the parser's set-up (`lazy-setup.ts`). Any
// other line (extra, missing or unexpected tokens) goes through the rule, which reports it. Exact
// token types only: a keyword token that merely matches Word through a category (`error`, `cors`)
// takes the rule's path.

/** What `oneArg` answers for a line that is exactly `kw` or `kw word|string`; else undefined. */
export function plainOneArg(toks: readonly IToken[]): OneArg | undefined {
  if (toks.length === 0 || toks.length > 2 || toks[0].tokenType !== Word) return undefined;
  if (toks.length === 1) return { kw: toks[0], arg: undefined };
  const t = toks[1].tokenType;
  return t === Word || t === StringTok ? { kw: toks[0], arg: toks[1] } : undefined;
}

/** What `wordList` answers for a line of `kw` then only words, commas and strings; else undefined. */
export function plainWordList(toks: readonly IToken[]): WordList | undefined {
  if (toks.length === 0 || toks[0].tokenType !== Word) return undefined;
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i].tokenType;
    if (t !== Word && t !== Comma && t !== StringTok) return undefined;
  }
  return { kw: toks[0], items: toks.slice(1) };
}

/** What `blockHeader` answers for exactly `kw {` or `kw second {`; else undefined. */
export function plainBlockHeader(toks: readonly IToken[]): BlockHeader | undefined {
  const n = toks.length;
  if (n < 2 || n > 3 || toks[0].tokenType !== Word || toks[n - 1].tokenType !== LCurly) return undefined;
  if (n === 2) return { kw: toks[0], second: undefined, open: toks[1] };
  return toks[1].tokenType === Word ? { kw: toks[0], second: toks[1], open: toks[2] } : undefined;
}

/** What `endpointLine` answers for exactly `kw Symbol METHOD` or `kw Symbol METHOD "path"`; else undefined. */
export function plainEndpointLine(toks: readonly IToken[]): EndpointLine | undefined {
  const n = toks.length;
  if (n < 3 || n > 4 || toks[0].tokenType !== Word || toks[1].tokenType !== Word || toks[2].tokenType !== Word)
    return undefined;
  if (n === 4 && toks[3].tokenType !== StringTok) return undefined;
  return { kw: toks[0], symbol: toks[1], method: toks[2], path: n === 4 ? toks[3] : undefined, errors: [], cors: [] };
}

/** What `useLine` answers for exactly `use alias "pkg"`; else undefined. */
export function plainUseLine(toks: readonly IToken[]): UseLine | undefined {
  if (toks.length !== 3 || toks[0].tokenType !== Word || toks[1].tokenType !== Word) return undefined;
  return toks[2].tokenType === StringTok ? { kw: toks[0], alias: toks[1], pkg: toks[2] } : undefined;
}

/** What `fragmentHeader` answers for exactly `fragment Name METHOD "path" "target" {`; else undefined. */
export function plainFragmentHeader(toks: readonly IToken[]): FragmentHeader | undefined {
  if (toks.length !== 6) return undefined;
  const [kw, name, method, path, target, open] = toks;
  if (kw.tokenType !== Word || name.tokenType !== Word || method.tokenType !== Word) return undefined;
  if (path.tokenType !== StringTok || target.tokenType !== StringTok || open.tokenType !== LCurly) return undefined;
  return { kw, name, method, path, target, open };
}

/** What `propLine` answers for `name [type] [= word|string]` of exact token types; else undefined. */
export function plainPropLine(toks: readonly IToken[]): PropLine | undefined {
  const n = toks.length;
  if (n === 0 || n > 4 || toks[0].tokenType !== Word) return undefined;
  let i = 1;
  const type = i < n && toks[i].tokenType === Word ? toks[i++] : undefined;
  const eq = i < n && toks[i].tokenType === Equals ? toks[i++] : undefined;
  const t = eq && i < n ? toks[i].tokenType : undefined;
  const value = t === Word || t === StringTok ? toks[i++] : undefined;
  return i === n ? { name: toks[0], type, eq, value } : undefined;
}

/** Token types a record field's value is made of (`valueAlts`). */
const VALUE_TYPES: ReadonlySet<unknown> = new Set([StringTok, Word, Junk, Colon, Equals]);

/**
 * What `recordLine` answers for `=> { ... }` whose items are commas and `name [:] value...` fields,
 * all of exact token types; else undefined. A field's value takes every value token up to the next
 * comma, as the rule's repetition does.
 */
export function plainRecordLine(toks: readonly IToken[]): RecordLine | undefined {
  const n = toks.length;
  if (n < 3 || toks[0].tokenType !== Arrow || toks[1].tokenType !== LCurly || toks[n - 1].tokenType !== RCurly)
    return undefined;
  const items: (RecordField | IToken)[] = [];
  let i = 2;
  while (i < n - 1) {
    const t = toks[i];
    if (t.tokenType === Comma) {
      items.push(t);
      i++;
      continue;
    }
    if (t.tokenType !== Word) return undefined;
    i++;
    const colon = i < n - 1 && toks[i].tokenType === Colon ? toks[i++] : undefined;
    const value: IToken[] = [];
    while (i < n - 1 && VALUE_TYPES.has(toks[i].tokenType)) value.push(toks[i++]);
    items.push(colon !== undefined || value.length > 0 ? { name: t, colon, value } : t);
  }
  return { arrow: toks[0], open: toks[1], items, close: toks[n - 1] };
}

const CORS_OPTIONS = new Set(['origins', 'methods', 'headers', 'expose', 'credentials', 'maxAge']);

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
      GATE: () => !CORS_OPTIONS.has(this.LA(1).image) && !isKeywordTail(this.LA(1)),
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
