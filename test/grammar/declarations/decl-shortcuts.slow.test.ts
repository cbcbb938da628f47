// The declaration parser's shortcuts for common line shapes (`DeclParser.run`) must answer exactly
// what the Chevrotain rule answers, with no errors, whenever they answer at all.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { IToken } from 'chevrotain';
import { declLexer } from '#grammar/declarations/decl-scanner.js';
import { declParser } from '#grammar/declarations/decl-parser.js';
import {
  plainBlockHeader,
  plainEndpointLine,
  plainFragmentHeader,
  plainOneArg,
  plainPropLine,
  plainRecordLine,
  plainUseLine,
  plainWordList,
} from '#grammar/declarations/decl-shortcuts.js';

const RULES = {
  oneArg: { plain: plainOneArg, rule: () => declParser.oneArg() },
  wordList: { plain: plainWordList, rule: () => declParser.wordList() },
  blockHeader: { plain: plainBlockHeader, rule: () => declParser.blockHeader() },
  endpointLine: { plain: plainEndpointLine, rule: () => declParser.endpointLine() },
  useLine: { plain: plainUseLine, rule: () => declParser.useLine() },
  fragmentHeader: { plain: plainFragmentHeader, rule: () => declParser.fragmentHeader() },
  propLine: { plain: plainPropLine, rule: () => declParser.propLine() },
  recordLine: { plain: plainRecordLine, rule: () => declParser.recordLine() },
} as const;

/** One entry of `RULES`, its result type erased (the table's entries each have their own). */
interface Shortcut {
  plain: (toks: readonly IToken[]) => unknown;
  rule: () => unknown;
}

function tokens(line: string): IToken[] {
  return declLexer.tokenize(line).tokens;
}

/** The rule's own answer and whether it reported errors. */
function byRule(name: keyof typeof RULES, toks: IToken[]): { res: unknown; errors: number } {
  declParser.input = toks;
  const res = RULES[name].rule();
  return { res, errors: declParser.errors.length };
}

describe('grammar: declaration line shortcuts', () => {
  const taken: [keyof typeof RULES, string][] = [
    ['oneArg', 'page home'],
    ['oneArg', 'route "/blog/{slug}"'],
    ['oneArg', 'render'],
    ['wordList', 'guard auth.required, role:editor'],
    ['wordList', 'css "./site.css"'],
    ['wordList', 'guard a,,b'],
    ['wordList', 'layout'],
    ['blockHeader', 'view {'],
    ['blockHeader', 'go server {'],
    ['endpointLine', 'act Save POST "/contact/send"'],
    ['endpointLine', 'api Stats GET'],
    ['useLine', 'use ui "site/ui"'],
    ['fragmentHeader', 'fragment Row GET "/rows/{id}" "#row" {'],
    ['propLine', 'title string'],
    ['propLine', 'compact bool = false'],
    ['propLine', 'label string = "Hi"'],
    ['propLine', 'count int ='],
    ['propLine', 'orphan'],
    ['propLine', 'size = 3'],
    ['recordLine', '=> { slug: "a", page: "2" }'],
    ['recordLine', '=> { field, a.b }'],
    ['recordLine', '=> { }'],
    ['recordLine', '=> { a: "x" b: c:d = # }'],
    ['recordLine', '=> { , , a }'],
  ];
  for (const [name, line] of taken) {
    it(`${name}: \`${line}\` takes the shortcut and equals the rule`, () => {
      const toks = tokens(line);
      const plain = RULES[name].plain(toks);
      assert.ok(plain, 'shortcut taken');
      const r = byRule(name, toks);
      assert.equal(r.errors, 0);
      assert.deepStrictEqual(plain, r.res);
    });
  }

  const left: [keyof typeof RULES, string][] = [
    ['oneArg', 'page home extra'],
    ['oneArg', 'title error'], // a keyword token: Word only by category
    ['oneArg', 'route {'],
    ['wordList', 'guard a {'],
    ['blockHeader', 'view'],
    ['blockHeader', 'view x y {'],
    ['endpointLine', 'act Save POST "/x" error "e"'],
    ['endpointLine', 'act Save'],
    ['endpointLine', 'act cors POST'],
    ['useLine', 'use ui'],
    ['useLine', 'use error "x"'],
    ['fragmentHeader', 'fragment Row GET "/rows" {'],
    ['propLine', 'title string extra'],
    ['propLine', 'title error'],
    ['propLine', 'title string = = 1'],
    ['recordLine', '{ slug: "a" }'],
    ['recordLine', '=> { slug: "a" } x'],
    ['recordLine', '=> { : "a" }'],
    ['recordLine', '=> { a: { } }'],
    ['recordLine', '=> { a: error }'],
  ];
  for (const [name, line] of left) {
    it(`${name}: \`${line}\` is left to the rule`, () => {
      assert.equal(RULES[name].plain(tokens(line)), undefined);
    });
  }

  it('answers what the rule answers for random lines, or leaves them to it', () => {
    const word = fc.constantFrom(
      'page',
      'home',
      'guard',
      'a.b',
      'role:x',
      'error',
      'cors',
      'POST',
      'Save',
      'go',
      'server',
      'view',
      '/x',
    );
    const piece = fc.oneof(word, fc.constantFrom('"/p"', '"x', ',', '{', '}', '=', ':', '=>', '#'));
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(RULES) as (keyof typeof RULES)[])),
        fc.array(piece, { minLength: 1, maxLength: 6 }),
        (name, parts) => {
          const toks = tokens(parts.join(' '));
          const plain = RULES[name].plain(toks);
          const r = byRule(name, toks);
          if (plain === undefined) return;
          assert.equal(r.errors, 0, `the rule reported errors where the shortcut answered: ${parts.join(' ')}`);
          assert.deepStrictEqual(plain, r.res);
          // And the shortcut leaves the parser's error list as a clean run does.
          const { rule, plain: shortcut } = RULES[name] as Shortcut;
          assert.deepStrictEqual(declParser.run(toks, rule, shortcut), plain);
          assert.equal(declParser.errors.length, 0);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('answers what the rule answers for random record and prop lines, or leaves them to it', () => {
    const piece = fc.constantFrom('a', 'a.b', 'x:y', 'error', '"v"', '"v', ',', ':', '=', '#', '{', '}', '=>');
    const line = fc.oneof(
      fc.array(piece, { maxLength: 8 }).map((ps) => ['recordLine', `=> { ${ps.join(' ')} }`] as const),
      fc.array(piece, { minLength: 1, maxLength: 5 }).map((ps) => ['propLine', ps.join(' ')] as const),
    );
    fc.assert(
      fc.property(line, ([name, text]) => {
        const toks = tokens(text);
        const plain = RULES[name].plain(toks);
        const r = byRule(name, toks);
        if (plain === undefined) return;
        assert.equal(r.errors, 0, `the rule reported errors where the shortcut answered: ${text}`);
        assert.deepStrictEqual(plain, r.res);
      }),
      { numRuns: 3000 },
    );
  });
});
