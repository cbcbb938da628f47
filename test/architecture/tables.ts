// What the source tree's invariants allow (docs/architecture.md, "Layers"): the layer list, the
// imports each layer may make of npm packages and Node's modules, and the few modules below the front
// doors that may read the process's environment or working directory. Kept apart from the checks
// (`checks.ts`) so that a change of a rule is a change of a row here, with its reason beside it.

/** Where the sources the rules cover live. */
export const SOURCE_DIRS = ['grammar/src', 'shared', 'server/src', 'client/src'] as const;

/**
 * Where the rule of import paths (no import climbs more than two folders) holds: the sources, and
 * the tests, benchmarks and tools that import them; not the fixtures (sites of users' code) or the
 * Astro peer benchmark (a project of its own).
 */
export const IMPORT_PATH_DIRS = [...SOURCE_DIRS, 'client/scripts', 'test', 'bench', 'docs/tools', 'scripts'] as const;
export const IMPORT_PATH_SKIPPED = ['test/fixtures', 'bench/astro'] as const;

export interface Layer {
  layer: string;
  /** Layers of one rank are siblings: neither imports the other. */
  rank: number;
  prefix: string;
}

/** Layers from the bottom up. The first matching prefix names a file's layer. */
export const LAYERS: readonly Layer[] = [
  { layer: 'shared/language', rank: 0, prefix: 'shared/language/' },
  { layer: 'grammar', rank: 1, prefix: 'grammar/src/' },
  { layer: 'shared/route', rank: 1, prefix: 'shared/route/' },
  { layer: 'shared/trace', rank: 1, prefix: 'shared/trace/' },
  { layer: 'shared/protocol', rank: 1, prefix: 'shared/protocol/' },
  { layer: 'shared/client', rank: 1, prefix: 'shared/client/' },
  { layer: 'shared/render', rank: 2, prefix: 'shared/render/' },
  { layer: 'shared/app', rank: 3, prefix: 'shared/app/' },
  { layer: 'core/diagnostics', rank: 4, prefix: 'server/src/core/diagnostics/' },
  { layer: 'core/format', rank: 4, prefix: 'server/src/core/format/' },
  { layer: 'core/model', rank: 5, prefix: 'server/src/core/model/' },
  { layer: 'core/resolve', rank: 6, prefix: 'server/src/core/resolve/' },
  { layer: 'core/validate', rank: 7, prefix: 'server/src/core/validate/' },
  { layer: 'core/bind', rank: 7, prefix: 'server/src/core/bind/' },
  { layer: 'core/workspace', rank: 8, prefix: 'server/src/core/workspace/' },
  { layer: 'core/project', rank: 9, prefix: 'server/src/core/project/' },
  { layer: 'core/report', rank: 10, prefix: 'server/src/core/report/' },
  { layer: 'core/build', rank: 10, prefix: 'server/src/core/build/' },
  { layer: 'core/app', rank: 11, prefix: 'server/src/core/app/' },
  { layer: 'core', rank: 12, prefix: 'server/src/core/' },
  { layer: 'lsp', rank: 13, prefix: 'server/src/lsp/' },
  { layer: 'client', rank: 13, prefix: 'client/src/' },
  { layer: 'cli', rank: 14, prefix: 'server/src/cli/' },
];

export interface AllowedImports {
  /** npm packages (by package name: `vscode-languageserver/node` is `vscode-languageserver`). */
  packages: readonly string[];
  /** Node's modules, as imported (`node:fs/promises` is its own row). */
  node: readonly string[];
  why: string;
}

const PURE = 'pure functions of their input: no npm package, no I/O, nothing of Node';

/**
 * What each layer may import besides our own modules (type-only imports count). A layer missing
 * here may import nothing else. Every Node module is written `node:x`: a bare `fs` reads as an npm
 * package and fails.
 */
export const ALLOWED_IMPORTS: Readonly<Record<string, AllowedImports>> = {
  grammar: {
    packages: ['chevrotain'],
    node: [],
    why: 'text in, tree out: Chevrotain and nothing that does I/O, so any editor buffer may be fed to it',
  },
  'shared/language': {
    packages: [],
    node: [],
    why: 'the language facts: data every layer reads, so it may import nothing, not even the grammar',
  },
  'shared/route': { packages: [], node: [], why: PURE },
  'shared/render': { packages: [], node: [], why: PURE },
  'shared/protocol': { packages: [], node: [], why: 'wire types only, for the client and the server alike' },
  'shared/client': { packages: [], node: [], why: 'browser scripts: the page has nothing to import' },
  'shared/trace': {
    packages: [],
    node: ['node:crypto', 'node:http', 'node:net', 'node:path', 'node:perf_hooks', 'node:tls', 'node:url'],
    why:
      'the trace runtime of generated apps: no npm package (it runs in any Node program); ' +
      'ids, the clock, the collector over HTTP and its Host rule (IP literals)',
  },
  'shared/app': {
    packages: [],
    node: [
      'node:async_hooks',
      'node:crypto',
      'node:fs',
      'node:fs/promises',
      'node:http',
      'node:module',
      'node:net',
      'node:os',
      'node:path',
      'node:util',
    ],
    why: 'the runtime of generated apps: Node built-ins and web standards only, no npm package',
  },
  'core/diagnostics': { packages: [], node: [], why: PURE },
  'core/format': { packages: [], node: [], why: PURE },
  'core/model': { packages: [], node: [], why: `${PURE}; no LSP type (positions are plain data)` },
  'core/resolve': { packages: [], node: [], why: PURE },
  'core/validate': { packages: [], node: [], why: PURE },
  'core/workspace': {
    packages: [],
    node: [],
    why: 'the incremental engine: files come in through `CheckOptions.files`, no I/O of its own, no LSP type',
  },
  'core/report': { packages: [], node: [], why: `${PURE}; the front doors print` },
  'core/bind': {
    packages: ['typescript'],
    node: ['node:fs', 'node:module', 'node:os', 'node:path', 'node:vm', 'node:worker_threads'],
    why: "handler binding: TypeScript's compiler API, loaded lazily through V8's code cache, and its worker",
  },
  'core/project': {
    packages: [],
    node: ['node:crypto', 'node:fs', 'node:os', 'node:path', 'node:url', 'node:worker_threads'],
    why: 'reading a project from disk, on threads (hashing what it read for the build cache); no LSP type',
  },
  'core/build': {
    packages: [],
    node: ['node:crypto', 'node:fs', 'node:fs/promises', 'node:path', 'node:url', 'node:worker_threads'],
    why: 'writing the static site (its files from a write thread); no LSP type',
  },
  'core/app': {
    packages: ['esbuild'],
    node: ['node:child_process', 'node:crypto', 'node:fs', 'node:module', 'node:os', 'node:path', 'node:url'],
    why: 'the generated app: esbuild compiles its handlers, postject (a child process) makes the executable',
  },
  core: { packages: [], node: [], why: 'the public index re-exports the layers below' },
  lsp: {
    packages: ['vscode-languageserver', 'vscode-languageserver-textdocument', 'vscode-uri'],
    node: ['node:crypto', 'node:fs', 'node:inspector', 'node:path', 'node:v8'],
    why:
      'the editor door: the LSP library stops here, the core below never sees its types; ' +
      'pulled diagnostics get hashed result IDs',
  },
  client: {
    packages: ['vscode', 'vscode-languageclient'],
    node: ['node:crypto', 'node:path'],
    why: "the VS Code extension: VS Code's API and its language client",
  },
  cli: {
    packages: ['esbuild'],
    node: [
      'node:child_process',
      'node:crypto',
      'node:fs',
      'node:http',
      'node:module',
      'node:net',
      'node:os',
      'node:path',
      'node:perf_hooks',
      'node:stream',
      'node:url',
      'node:util',
    ],
    why: '`kit dev` compiles handlers with esbuild; the terminal door does I/O of every kind',
  },
};

/**
 * Imports of a grammar module other than its index that are allowed, by importing file: each on a
 * path that must not initialise the parser.
 */
export const GRAMMAR_SIDE_DOORS: Readonly<Record<string, { module: string; why: string }>> = {
  'server/src/cli/run.ts': {
    module: 'grammar/src/common/typos.ts',
    why:
      "the start path: an unknown command's did-you-mean runs no parser code " +
      '(the index loads Chevrotain and every parser; test/bin/code-cache.e2e.test.ts holds it)',
  },
};

/**
 * Below the front doors, what may read `process.env` or `process.cwd()`: the folders scanned, and
 * the modules that may, with the reason. The command line (`server/src/cli`) and the language server
 * (`server/src/lsp`) read them and pass settings in.
 */
export const SETTINGS_SCANNED = [
  'server/src/core/',
  'grammar/src/',
  'shared/language/',
  'shared/route/',
  'shared/render/',
  'shared/protocol/',
  'shared/app/',
  'shared/trace/',
] as const;

export const SETTINGS_READERS: Readonly<Record<string, string>> = {
  'server/src/core/bind/code-cache.ts':
    'the V8 flags of the process it runs in (its command line and NODE_OPTIONS): a code cache is valid ' +
    'only under the flags it was made with. A fact of the process, like `process.version`, not a setting',
  'shared/app/server.ts':
    "the generated app's own front door: `startServer` (what the app's entry calls) reads its " +
    'environment (KIT_CSRF_SECRET, KIT_TRACE, PORT...) and arguments unless it is given them',
  'shared/trace/tracer.ts':
    "public API that a user's program calls (`newTracer` in kit.config): a tracer's source root " +
    "defaults to that program's working directory",
};
