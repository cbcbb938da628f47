// The other invariants of docs/architecture.md that a test holds, on every source file: the grammar
// is imported through its index; every file opens with a comment saying what it holds and why; below
// the front doors nothing reads the process's environment or working directory; kit's own LSP
// methods are named in one protocol module, which the client and the server both use; no import
// climbs more than two folders (sources and tests); and the language's closed sets of words are
// spelled once, in the facts module, which the grammar, the rules, completion and the runtime read.
// `injected.test.ts` shows each check failing on a violation put into a copy.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeclarationKind } from '#grammar/index.js';
import * as facts from '#shared/language/facts.js';
import {
  FACTS_MODULE,
  factSets,
  factViolations,
  grammarEntryViolations,
  headerViolations,
  importPathViolations,
  importsOf,
  PROTOCOL_MODULE,
  protocolViolations,
  readSourceTree,
  settingsViolations,
} from './checks.js';
import { IMPORT_PATH_DIRS, IMPORT_PATH_SKIPPED } from './tables.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const tree = readSourceTree(root);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while the grammar's declaration kinds are the facts module's. */
const kindsAgree: Same<DeclarationKind, facts.DeclarationKindName> = true;

function holds(wrong: string[], what: string): void {
  assert.deepEqual(wrong, [], `${what}:\n${wrong.join('\n')}`);
}

describe('architecture: invariants', () => {
  it('imports the grammar through its index', () => {
    holds(grammarEntryViolations(tree), 'imports of grammar modules other than the index');
  });

  it('opens every source file with a comment saying what it holds', () => {
    holds(headerViolations(tree), 'files without their opening comment');
  });

  it('reads no environment or working directory below the front doors', () => {
    holds(settingsViolations(tree), 'settings read below the front doors');
  });

  it("names kit's LSP methods in the protocol module, which the client and the server import", () => {
    holds(protocolViolations(tree), 'methods named outside the protocol module');
    const users = tree.files.filter((f) => importsOf(tree, f).some((i) => i.to === PROTOCOL_MODULE));
    assert.ok(
      users.some((f) => f.startsWith('client/src/')),
      'the client does not import the protocol module',
    );
    assert.ok(
      users.some((f) => f.startsWith('server/src/lsp/')),
      'the server does not import the protocol module',
    );
  });

  it('climbs no more than two folders in any import, sources and tests alike; shared/ imports relatively', () => {
    const all = readSourceTree(root, IMPORT_PATH_DIRS, IMPORT_PATH_SKIPPED);
    assert.ok(all.files.some((f) => f.startsWith('test/server/')) && all.files.some((f) => f.startsWith('bench/')));
    holds(importPathViolations(all), 'imports that climb too far');
  });

  it('spells each of the language facts once, in the facts module', () => {
    const sets = factSets(facts);
    assert.ok(sets.has('API_METHODS') && sets.has('VOID_ELEMENTS') && sets.has('ALLOWED_DECLARATIONS.page'));
    holds(factViolations(tree, sets), 'second spellings of a language fact');
    assert.equal(kindsAgree, true);
  });

  it('has the grammar, the rules, completion and the runtime read the facts module', () => {
    const users = tree.files.filter((f) => importsOf(tree, f).some((i) => i.to === FACTS_MODULE));
    for (const where of [
      'grammar/src/',
      'server/src/core/validate/',
      'server/src/lsp/features/completion.ts',
      'shared/app/',
      'shared/render/',
    ])
      assert.ok(
        users.some((f) => f.startsWith(where)),
        `nothing under ${where} imports ${FACTS_MODULE}`,
      );
  });

  it("has the editor's grammar files agree with the facts: void elements, keywords, API methods", () => {
    const config = JSON.parse(readFileSync(join(root, 'syntaxes', 'language-configuration.json'), 'utf8')) as {
      indentationRules: { increaseIndentPattern: string };
    };
    const voids = /\(\?:([a-z|]+)\)\\b/.exec(config.indentationRules.increaseIndentPattern)?.[1].split('|');
    assert.deepEqual(new Set(voids), facts.VOID_ELEMENTS, 'the indentation rule names the void elements');
    const grammar = readFileSync(join(root, 'syntaxes', 'kit.tmLanguage.json'), 'utf8');
    for (const word of [...facts.DECLARATION_KEYWORDS, ...facts.API_METHODS])
      assert.match(grammar, new RegExp(`[(|]${word}[|)\\\\]`), `the TextMate grammar highlights ${word}`);
  });
});
