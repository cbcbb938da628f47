// The other invariants of docs/architecture.md that a test holds, on every source file: the grammar
// is imported through its index; every file opens with a comment saying what it holds and why; below
// the front doors nothing reads the process's environment or working directory; and kit's own LSP
// methods are named in one protocol module, which the client and the server both use.
// `injected.test.ts` shows each check failing on a violation put into a copy.
import { strict as assert } from 'node:assert';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  grammarEntryViolations,
  headerViolations,
  importsOf,
  PROTOCOL_MODULE,
  protocolViolations,
  readSourceTree,
  settingsViolations,
} from './checks.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const tree = readSourceTree(root);

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
});
