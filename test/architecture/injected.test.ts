// Each architecture check fails on a violation put into a small tree of its own: the test writes
// the sources into a temporary directory laid out like the repository, runs the check on it and
// asserts that the failure names the file and line. Without these, a check that silently stopped
// finding anything (a changed regular expression, a renamed folder) would pass forever.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  factViolations,
  grammarEntryViolations,
  headerViolations,
  importCycles,
  importPathViolations,
  layerViolations,
  looseFiles,
  packageViolations,
  protocolViolations,
  readSourceTree,
  type SourceTree,
  settingsViolations,
} from './checks.js';
import { IMPORT_PATH_DIRS, IMPORT_PATH_SKIPPED } from './tables.js';

const HEADER = '// A module of the injected tree: it exists to break one rule, and nothing else.\n';

let dirs: string[] = [];

/** The package.json `imports` of the repository, for trees whose files import through them. */
const IMPORTS = JSON.stringify({
  imports: {
    '#grammar/*': { 'kit-source': './grammar/src/*', default: './out/grammar/src/*' },
    '#shared/*': { 'kit-source': './shared/*', default: './out/shared/*' },
    '#core/*': { 'kit-source': './server/src/core/*', default: './out/server/src/core/*' },
    '#test/*': { 'kit-source': './test/*', default: './out/test/*' },
  },
});

/**
 * A tree of the given files (repository paths → text; each source gets the opening comment unless it
 * has one), read as the sources, or with `everything` as the tree the import-path rule reads.
 */
function tree(files: Record<string, string>, everything = false): SourceTree {
  const root = mkdtempSync(join(tmpdir(), 'kit-architecture-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    const commented = !/\.m?ts$/.test(path) || text.startsWith('//') || text.startsWith('/*');
    writeFileSync(join(root, path), commented ? text : HEADER + text);
  }
  return everything ? readSourceTree(root, IMPORT_PATH_DIRS, IMPORT_PATH_SKIPPED) : readSourceTree(root);
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

  it('#... imports resolved through package.json: one up the layer list, one that nothing maps', () => {
    const t = tree({
      'package.json': IMPORTS,
      'shared/route/up.ts': "import { x } from '#core/model/m.js';\nexport const y = x;\n",
      'server/src/core/model/m.ts': "import { z } from '#nowhere/z.js';\nexport const x = z;\n",
      'server/src/core/model/ok.ts': "import type { Node } from '#grammar/index.js';\nexport type N = Node;\n",
      'grammar/src/index.ts': 'export interface Node { kind: string }\n',
    });
    one(
      layerViolations(t),
      'shared/route/up.ts:2 → server/src/core/model/m.ts',
      /shared\/route may not import core\/model \(upwards\)/,
    );
    one(packageViolations(t), 'server/src/core/model/m.ts:2', /imports #nowhere\/z\.js, which no entry .* maps/);
  });

  it('an import climbing three folders, in a source and in a test; a #... import in shared/', () => {
    const t = tree(
      {
        'package.json': IMPORTS,
        'server/src/core/validate/cross/deep.ts':
          "import { x } from '../../../model/m.js';\nimport { y } from '../../model/m.js';\nexport const z = x + y;\n",
        'server/src/core/model/m.ts': 'export const x = 1;\nexport const y = 2;\n',
        'test/server/core/model/m.test.ts': "\nimport { x } from '../../../../server/src/core/model/m.js';\n",
        'test/server/core/model/fine.test.ts': "import { x } from '#core/model/m.js';\nexport const y = x;\n",
        'shared/app/a.ts': "import { r } from '#shared/route/r.js';\nexport const b = r;\n",
        'shared/route/r.ts': 'export const r = 1;\n',
        'test/fixtures/site/handlers.ts': "import { x } from '../../../../far/away.js';\n",
      },
      true,
    );
    const wrong = importPathViolations(t).sort();
    assert.equal(wrong.length, 3, wrong.join('\n'));
    assert.match(
      wrong[0],
      /^server\/src\/core\/validate\/cross\/deep\.ts:2: imports \.\.\/\.\.\/\.\.\/model\/m\.js, climbing 3/,
    );
    assert.match(wrong[1], /^shared\/app\/a\.ts:2: imports #shared\/route\/r\.js; shared\/ imports relatively/);
    assert.match(wrong[2], /^test\/server\/core\/model\/m\.test\.ts:3: imports .*, climbing 4 folders/);
  });

  it('a language fact spelled again: an array, a union type, a regex; subsets and the facts module pass', () => {
    const facts = new Map<string, ReadonlySet<string>>([
      ['API_METHODS', new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])],
      ['RENDER_MODES', new Set(['spa', 'ssr', 'hybrid'])],
      ['MESSAGE_CONSTRAINTS', new Set(['required', 'minlength', 'maxlength', 'pattern'])],
    ]);
    const t = tree({
      'shared/language/facts.ts': "export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];\n",
      'server/src/core/report/methods.ts': "export const M = new Set(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);\n",
      'shared/app/mode.ts': "\nexport type Mode = 'spa' | 'ssr' | 'hybrid';\n",
      'server/src/lsp/m.ts': 'export const MESSAGE = /^g:message:(required|minlength|maxlength|pattern)$/;\n',
      'server/src/core/model/safe.ts':
        "export const READS = ['GET', 'POST'];\nexport const MORE = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];\n",
    });
    const wrong = factViolations(t, facts).sort();
    assert.equal(wrong.length, 3, wrong.join('\n'));
    assert.match(
      wrong[0],
      /^server\/src\/core\/report\/methods\.ts:2: spells API_METHODS again; .*shared\/language\/facts\.ts/,
    );
    assert.match(wrong[1], /^server\/src\/lsp\/m\.ts:2: spells MESSAGE_CONSTRAINTS again/);
    assert.match(wrong[2], /^shared\/app\/mode\.ts:3: spells RENDER_MODES again/);
  });
});
