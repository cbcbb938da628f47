// Each architecture check fails on a violation put into a small tree of its own: the test writes
// the sources into a temporary directory laid out like the repository, runs the check on it and
// asserts that the failure names the file and line. Without these, a check that silently stopped
// finding anything (a changed regular expression, a renamed folder) would pass forever.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  grammarEntryViolations,
  headerViolations,
  importCycles,
  layerViolations,
  looseFiles,
  packageViolations,
  protocolViolations,
  readSourceTree,
  type SourceTree,
  settingsViolations,
} from './checks.js';

const HEADER = '// A module of the injected tree: it exists to break one rule, and nothing else.\n';

let dirs: string[] = [];

/** A tree of the given files (repository paths → text; each gets the opening comment unless it has one). */
function tree(files: Record<string, string>): SourceTree {
  const root = mkdtempSync(join(tmpdir(), 'kit-architecture-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text.startsWith('//') || text.startsWith('/*') ? text : HEADER + text);
  }
  return readSourceTree(root);
}

/** Exactly one violation, at `where` (`file:line`), saying `what`. */
function one(violations: string[], where: string, what: RegExp): void {
  assert.equal(violations.length, 1, `expected one violation at ${where}, got:\n${violations.join('\n')}`);
  assert.ok(violations[0].startsWith(`${where}:`) || violations[0].startsWith(`${where} `), violations[0]);
  assert.match(violations[0], what);
}

describe('architecture: each check fails on an injected violation', () => {
  afterEach(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    dirs = [];
  });

  it('an import up the layer list, and one between siblings', () => {
    const t = tree({
      'shared/route/up.ts': "export { x } from '../../server/src/core/model/m.js';\n",
      'server/src/core/model/m.ts': 'export const x = 1;\n',
      'client/src/side.ts': "\nimport { y } from '../../server/src/lsp/y.js';\nexport const z = y;\n",
      'server/src/lsp/y.ts': 'export const y = 2;\n',
    });
    const wrong = layerViolations(t).sort();
    assert.equal(wrong.length, 2, wrong.join('\n'));
    assert.match(
      wrong[0],
      /^client\/src\/side\.ts:3 → server\/src\/lsp\/y\.ts: client may not import lsp \(siblings\)$/,
    );
    assert.match(
      wrong[1],
      /^shared\/route\/up\.ts:2 → server\/src\/core\/model\/m\.ts: shared\/route may not import core\/model \(upwards\)$/,
    );
  });

  it('a file outside every layer', () => {
    assert.deepEqual(looseFiles(tree({ 'server/src/stray.ts': 'export {};\n' })), ['server/src/stray.ts']);
  });

  it('a cycle of imports', () => {
    const t = tree({
      'shared/route/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'shared/route/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
    });
    assert.deepEqual(importCycles(t), [['shared/route/a.ts', 'shared/route/b.ts']]);
  });

  it('node:fs in the grammar, an npm package besides chevrotain there, and a bare Node module name', () => {
    const t = tree({
      'grammar/src/io.ts': "import { readFileSync } from 'node:fs';\nimport { createToken } from 'chevrotain';\n",
      'grammar/src/dep.ts': "\n\nimport lodash from 'lodash/fp';\n",
      'shared/app/bare.ts': "import { join } from 'path';\n",
    });
    const wrong = packageViolations(t).sort();
    assert.equal(wrong.length, 3, wrong.join('\n'));
    assert.match(wrong[0], /^grammar\/src\/dep\.ts:4: grammar may not import npm package lodash: /);
    assert.match(wrong[1], /^grammar\/src\/io\.ts:2: grammar may not import node:fs: .*no.* I\/O/);
    assert.match(
      wrong[2],
      /^shared\/app\/bare\.ts:2: shared\/app may not import npm package path \(Node's own module: write node:path\)/,
    );
  });

  it('an LSP package in the core, type-only imports and import types included', () => {
    const t = tree({
      'server/src/core/model/m.ts':
        "import type { Position } from 'vscode-languageserver';\nexport type P = Position;\n",
      'server/src/core/workspace/w.ts': "export type U = import('vscode-uri').URI;\n",
    });
    const wrong = packageViolations(t).sort();
    assert.equal(wrong.length, 2, wrong.join('\n'));
    assert.match(
      wrong[0],
      /^server\/src\/core\/model\/m\.ts:2: core\/model may not import npm package vscode-languageserver/,
    );
    assert.match(
      wrong[1],
      /^server\/src\/core\/workspace\/w\.ts:2: core\/workspace may not import npm package vscode-uri/,
    );
  });

  it('an npm package in shared/ (chevrotain in shared/route)', () => {
    const t = tree({ 'shared/route/p.ts': "import { Lexer } from 'chevrotain';\nexport const L = Lexer;\n" });
    one(packageViolations(t), 'shared/route/p.ts:2', /shared\/route may not import npm package chevrotain/);
  });

  it('imports in comments and strings do not count', () => {
    const t = tree({
      'grammar/src/text.ts': "// import { x } from 'node:fs';\nexport const s = \"import 'node:net'\";\n",
    });
    assert.deepEqual(packageViolations(t), []);
  });

  it('a grammar module other than the index imported from outside the grammar', () => {
    const t = tree({
      'grammar/src/ast.ts': 'export interface Node { kind: string }\n',
      'grammar/src/index.ts': "export * from './ast.js';\n",
      'server/src/core/model/ok.ts':
        "import type { Node } from '../../../../grammar/src/index.js';\nexport type N = Node;\n",
      'server/src/core/model/bad.ts':
        "import type { Node } from '../../../../grammar/src/ast.js';\nexport type N = Node;\n",
    });
    one(grammarEntryViolations(t), 'server/src/core/model/bad.ts:2', /imports grammar\/src\/ast\.ts; .*index\.ts/);
  });

  it('a source file without its opening comment, or with a label for one', () => {
    const t = tree({
      'shared/render/none.ts': '/**/\nexport const x = 1;\n',
      'shared/render/short.ts': '// Helpers.\nexport const y = 1;\n',
      'client/src/fine.ts': 'export const z = 1;\n',
    });
    const wrong = headerViolations(t).sort();
    assert.equal(wrong.length, 2, wrong.join('\n'));
    assert.match(wrong[0], /^shared\/render\/none\.ts:1: opens with no comment/);
    assert.match(wrong[1], /^shared\/render\/short\.ts:1: opens with a comment of 1 words/);
  });

  it('process.env and process.cwd() below the front doors, however written; the front doors may', () => {
    const t = tree({
      'server/src/core/project/p.ts':
        'export const n = process.env.KIT_WORKERS;\n' +
        'export const dir = () => process.cwd();\n' +
        "export const e = process['env'];\n" +
        'const { env } = process;\nexport const f = env;\n',
      'shared/route/r.ts': 'export const w = globalThis.process.env.HOME;\n',
      'server/src/cli/io.ts': 'export const cwd = process.cwd();\n',
      'server/src/lsp/x.ts': 'export const env = process.env;\n',
    });
    const wrong = settingsViolations(t).sort();
    assert.deepEqual(
      wrong.map((w) => w.slice(0, w.indexOf(';'))),
      [
        'server/src/core/project/p.ts:2: reads process.env',
        'server/src/core/project/p.ts:3: reads process.cwd',
        'server/src/core/project/p.ts:4: reads process[...]',
        'server/src/core/project/p.ts:5: reads a destructured process',
        'shared/route/r.ts:2: reads process.env',
      ],
    );
  });

  it("one of kit's LSP methods named outside the protocol module", () => {
    const t = tree({
      'shared/protocol/protocol.ts': "export const ROUTES = 'kit/routes';\n",
      'client/src/ask.ts': "export const ask = (send: (m: string) => void) => send('kit/routes');\n",
      'server/src/lsp/own.ts': "export const INTERNAL = 'kit/$malformedMessage';\n",
    });
    one(
      protocolViolations(t),
      'client/src/ask.ts:2',
      /names the method 'kit\/routes'; .*shared\/protocol\/protocol\.ts/,
    );
  });
});
