// The declaration parser's shortcuts for common line shapes (`DeclParser.run`) must answer exactly
// what the Chevrotain rule answers, with no errors, whenever they answer at all.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { IToken } from 'chevrotain';
import { declLexer } from '../../grammar/src/decl-scanner.js';
import {
  declParser,
  plainBlockHeader,
  plainEndpointLine,
  plainOneArg,
  plainWordList,
} from '../../grammar/src/decl-parser.js';

const RULES = {
  oneArg: { plain: plainOneArg, rule: () => declParser.oneArg() },
  wordList: { plain: plainWordList, rule: () => declParser.wordList() },
  blockHeader: { plain: plainBlockHeader, rule: () => declParser.blockHeader() },
  endpointLine: { plain: plainEndpointLine, rule: () => declParser.endpointLine() },
} as const;

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
          assert.deepStrictEqual(declParser.run(toks, RULES[name].rule, RULES[name].plain), plain);
          assert.equal(declParser.errors.length, 0);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
