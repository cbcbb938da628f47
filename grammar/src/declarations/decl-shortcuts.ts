// Shortcuts for the declaration parser's rules (`DeclParser.run`). Most declaration lines are
// `kw arg`, `kw a, b`, `kw {`, `act Name POST "/path"`, a prop `name type = value` or a record
// `=> { a: "b" }`: for a line whose tokens already have the exact shape a rule accepts, its result
// is known without running the rule. Running Chevrotain for a two-token line costs more than lexing
// it, and a site whose lines all have such shapes never pays for the parser's set-up
// (`lazy-setup.ts`). Any other line (extra, missing or unexpected tokens) goes through the rule,
// which reports it. Exact token types only: a keyword token that merely matches Word through a
// category (`error`, `cors`) takes the rule's path.
import type { IToken } from 'chevrotain';
import { Arrow, Colon, Comma, Equals, Junk, LCurly, RCurly, StringTok, Word } from './decl-lexer.js';
import type {
  BlockHeader,
  EndpointLine,
  FragmentHeader,
  OneArg,
  PropLine,
  RecordField,
  RecordLine,
  UseLine,
  WordList,
} from './decl-parser.js';

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
