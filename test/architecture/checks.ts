// The checks behind the architecture tests, in the spirit of rust-analyzer's `tidy`: each reads a
// source tree (the repository, or a temporary copy with a violation put in) and answers every place
// that breaks its rule as `file:line: what`, so that a failure names where to look. The rules'
// tables are in `tables.ts`; TypeScript's own scanner finds imports and string literals, so text in
// comments, strings and templates never counts as code.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { type TS, typescript } from '#core/bind/ts.js';
import {
  ALLOWED_IMPORTS,
  GRAMMAR_SIDE_DOORS,
  LAYERS,
  type Layer,
  SETTINGS_READERS,
  SETTINGS_SCANNED,
  SOURCE_DIRS,
} from './tables.js';

// The compiler as kit loads it (once, through V8's code cache): an ES import of the package would
// load a second copy, after scanning its 9 MB for named exports.
const ts = typescript();

export interface SourceTree {
  root: string;
  /** Repository paths, `/`-separated. */
  files: readonly string[];
  text(file: string): string;
  /** The package's own imports (package.json `imports`): `#grammar/` → `grammar/src/`, by prefix. */
  aliases: ReadonlyMap<string, string>;
}

const SOURCE_FILE = /\.(ts|mts|js|mjs)$/;

function walk(root: string, dir: string, out: string[], skipped: readonly string[]): void {
  for (const name of readdirSync(join(root, dir)).sort()) {
    if (name === 'node_modules' || name === 'test' || name === 'out' || name === 'dist') continue;
    const path = `${dir}/${name}`;
    if (skipped.includes(path)) continue;
    if (statSync(join(root, path)).isDirectory()) walk(root, path, out, skipped);
    else if (SOURCE_FILE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
}

type ImportTarget = string | { [condition: string]: ImportTarget };

/**
 * The `#...` imports of the package.json at `root`, as folder prefixes: each pattern's source
 * (the `kit-source` condition), or its compiled target with the leading `out/` taken off.
 */
export function packageAliases(root: string): Map<string, string> {
  const aliases = new Map<string, string>();
  const manifest = join(root, 'package.json');
  if (!existsSync(manifest)) return aliases;
  const imports = (JSON.parse(readFileSync(manifest, 'utf8')) as { imports?: Record<string, ImportTarget> }).imports;
  for (const [key, target] of Object.entries(imports ?? {})) {
    const to = typeof target === 'string' ? target : (target['kit-source'] ?? target.default);
    if (typeof to !== 'string' || !key.endsWith('*') || !to.endsWith('*')) continue;
    aliases.set(key.slice(0, -1), to.slice(0, -1).replace(/^\.\/(?:out\/)?/, ''));
  }
  return aliases;
}

/** Trees read so far, by root and folders: the architecture tests share one reading of the repository. */
const trees = new Map<string, SourceTree>();

/**
 * The sources under `dirs` of the tree at `root` (folders that do not exist are skipped, and so are
 * the folders `skipped` names).
 */
export function readSourceTree(
  root: string,
  dirs: readonly string[] = SOURCE_DIRS,
  skipped: readonly string[] = [],
): SourceTree {
  const key = [root, ...dirs, '\0', ...skipped].join('\0');
  let tree = trees.get(key);
  if (!tree) trees.set(key, (tree = readTree(root, dirs, skipped)));
  return tree;
}

function readTree(root: string, dirs: readonly string[], skipped: readonly string[]): SourceTree {
  const files: string[] = [];
  for (const d of dirs) if (existsSync(join(root, d))) walk(root, d, files, skipped);
  const texts = new Map<string, string>();
  return {
    root,
    files,
    aliases: packageAliases(root),
    text(file) {
      let t = texts.get(file);
      if (t === undefined) texts.set(file, (t = readFileSync(join(root, file), 'utf8')));
      return t;
    },
  };
}

export interface ImportRef {
  from: string;
  line: number;
  /** The specifier as written. */
  spec: string;
  /**
   * The target of an import of our own (relative, or `#...` through package.json `imports`), as
   * the repository path of its source (`.js` read as `.ts`).
   */
  to?: string;
}

/** A repository path's source: `.js` read as `.ts`, `.mjs` as `.mts`. */
function sourceOf(path: string): string {
  return path.replace(/\.m?js$/, (x) => (x === '.mjs' ? '.mts' : '.ts'));
}

/** The repository path a `#...` specifier names, if one of the package's imports maps it. */
export function aliasTarget(tree: SourceTree, spec: string): string | undefined {
  for (const [prefix, dir] of tree.aliases)
    if (spec.startsWith(prefix)) return sourceOf(dir + spec.slice(prefix.length));
  return undefined;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

const importCache = new WeakMap<SourceTree, Map<string, ImportRef[]>>();

/** Every import of a file: static, dynamic, `export ... from`, type-only and `import('x')` types. */
export function importsOf(tree: SourceTree, file: string): ImportRef[] {
  let byFile = importCache.get(tree);
  if (!byFile) importCache.set(tree, (byFile = new Map()));
  const known = byFile.get(file);
  if (known) return known;
  const text = tree.text(file);
  const refs = ts.preProcessFile(text, true, true).importedFiles.map((f): ImportRef => {
    const ref: ImportRef = { from: file, line: lineAt(text, f.pos), spec: f.fileName };
    if (f.fileName.startsWith('.')) {
      const target = relative(tree.root, resolve(tree.root, dirname(file), f.fileName))
        .split(sep)
        .join('/');
      ref.to = sourceOf(target);
    } else if (f.fileName.startsWith('#')) ref.to = aliasTarget(tree, f.fileName);
    return ref;
  });
  byFile.set(file, refs);
  return refs;
}

export function layerOf(file: string): Layer | undefined {
  return LAYERS.find((l) => file.startsWith(l.prefix));
}

/** Files of the tree outside every layer. */
export function looseFiles(tree: SourceTree): string[] {
  return tree.files.filter((f) => !layerOf(f));
}

/** Imports of our own modules against the layer list: upwards, sideways, or out of every layer. */
export function layerViolations(tree: SourceTree): string[] {
  const wrong: string[] = [];
  for (const file of tree.files)
    for (const i of importsOf(tree, file)) {
      if (i.to === undefined) continue;
      const a = layerOf(i.from);
      const b = layerOf(i.to);
      if (!a) continue;
      if (!b) {
        wrong.push(`${i.from}:${i.line} → ${i.to}: ${a.layer} imports a file outside every layer`);
        continue;
      }
      if (a === b || b.rank < a.rank) continue;
      const how = b.rank === a.rank ? 'siblings' : 'upwards';
      wrong.push(`${i.from}:${i.line} → ${i.to}: ${a.layer} may not import ${b.layer} (${how})`);
    }
  return wrong;
}

/** Files that import themselves through others: each strongly connected component of two or more. */
export function importCycles(tree: SourceTree): string[][] {
  const edges = new Map<string, string[]>();
  for (const file of tree.files)
    edges.set(
      file,
      importsOf(tree, file).flatMap((i) => (i.to === undefined ? [] : [i.to])),
    );
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) cycles.push(scc.sort());
    }
  };
  for (const f of tree.files) if (!index.has(f)) visit(f);
  return cycles;
}

/** The npm package a bare specifier names (`@scope/name/sub` is `@scope/name`). */
export function packageOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Imports of npm packages and Node's modules that the layer's row of `ALLOWED_IMPORTS` does not list. */
export function packageViolations(tree: SourceTree): string[] {
  const wrong: string[] = [];
  for (const file of tree.files) {
    const layer = layerOf(file);
    if (!layer) continue;
    const allowed = ALLOWED_IMPORTS[layer.layer] ?? { packages: [], node: [], why: 'no row in the table' };
    for (const i of importsOf(tree, file)) {
      if (i.to !== undefined) continue;
      if (i.spec.startsWith('#')) {
        wrong.push(`${file}:${i.line}: imports ${i.spec}, which no entry of package.json's imports maps`);
        continue;
      }
      const isNode = i.spec.startsWith('node:');
      if (isNode ? allowed.node.includes(i.spec) : allowed.packages.includes(packageOf(i.spec))) continue;
      const what = isNode ? i.spec : `npm package ${packageOf(i.spec)}`;
      const hint = !isNode && isBuiltin(i.spec) ? ` (Node's own module: write node:${i.spec})` : '';
      wrong.push(`${file}:${i.line}: ${layer.layer} may not import ${what}${hint}: ${allowed.why}`);
    }
  }
  return wrong;
}

const GRAMMAR = 'grammar/src/';
const GRAMMAR_INDEX = 'grammar/src/index.ts';

/** Imports from outside the grammar of a grammar module other than its index. */
export function grammarEntryViolations(tree: SourceTree): string[] {
  const wrong: string[] = [];
  for (const file of tree.files) {
    if (file.startsWith(GRAMMAR)) continue;
    for (const i of importsOf(tree, file)) {
      if (i.to === undefined || !i.to.startsWith(GRAMMAR) || i.to === GRAMMAR_INDEX) continue;
      if (GRAMMAR_SIDE_DOORS[file]?.module === i.to) continue;
      wrong.push(`${file}:${i.line}: imports ${i.to}; the grammar is imported through ${GRAMMAR_INDEX}`);
    }
  }
  return wrong;
}

/** Words a file's opening comment must have at least: a sentence saying what it holds and why. */
export const HEADER_MIN_WORDS = 8;

/** The comment a file opens with (`//` lines or one block comment), as plain words; '' when none. */
export function openingComment(text: string): string {
  const body = text.startsWith('#!') ? text.slice(text.indexOf('\n') + 1) : text;
  if (body.startsWith('/*')) {
    const end = body.indexOf('*/');
    return end < 0 ? '' : body.slice(2, end).replace(/^\s*\*+/gm, ' ');
  }
  const lines: string[] = [];
  for (const line of body.split('\n')) {
    if (!line.startsWith('//')) break;
    lines.push(line.slice(2));
  }
  return lines.join(' ');
}

/** Files that do not open with a comment saying what they hold. */
export function headerViolations(tree: SourceTree): string[] {
  const wrong: string[] = [];
  for (const file of tree.files) {
    const words = openingComment(tree.text(file)).split(/\s+/).filter(Boolean).length;
    if (words < HEADER_MIN_WORDS)
      wrong.push(
        `${file}:1: opens with ${words ? `a comment of ${words} words` : 'no comment'}; ` +
          `a source file opens with a comment saying what it holds and why (${HEADER_MIN_WORDS} words or more)`,
      );
  }
  return wrong;
}

function parse(tree: SourceTree, file: string): TS.SourceFile {
  return ts.createSourceFile(file, tree.text(file), ts.ScriptTarget.Latest, true);
}

function isProcess(node: TS.Expression): boolean {
  if (ts.isIdentifier(node)) return node.text === 'process';
  return ts.isPropertyAccessExpression(node) && node.name.text === 'process';
}

/** Reads of `process.env` and `process.cwd` (also `process['env']` and `const { env } = process`). */
function settingsReads(source: TS.SourceFile): { line: number; what: string }[] {
  const found: { line: number; what: string }[] = [];
  const at = (node: TS.Node, what: string) =>
    found.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, what });
  const visit = (node: TS.Node): void => {
    if (ts.isPropertyAccessExpression(node) && isProcess(node.expression) && /^(env|cwd)$/.test(node.name.text))
      at(node, `process.${node.name.text}`);
    else if (ts.isElementAccessExpression(node) && isProcess(node.expression)) at(node, 'process[...]');
    else if (
      ts.isVariableDeclaration(node) &&
      ts.isObjectBindingPattern(node.name) &&
      node.initializer &&
      isProcess(node.initializer)
    )
      at(node, 'a destructured process');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Reads of the process's environment or working directory below the front doors. */
export function settingsViolations(tree: SourceTree): string[] {
  const wrong: string[] = [];
  for (const file of tree.files) {
    if (!SETTINGS_SCANNED.some((d) => file.startsWith(d)) || file in SETTINGS_READERS) continue;
    if (!/\bprocess\b/.test(tree.text(file))) continue;
    for (const r of settingsReads(parse(tree, file)))
      wrong.push(
        `${file}:${r.line}: reads ${r.what}; below the front doors settings are passed in ` +
          '(the command line and the language server read the environment and the working directory)',
      );
  }
  return wrong;
}

/** The module that names kit's own LSP requests and notifications, and their types. */
export const PROTOCOL_MODULE = 'shared/protocol/protocol.ts';
/** A method of kit's own on the wire (`kit/$...` names stay inside the server). */
const KIT_METHOD = /^kit\/[A-Za-z]/;

/** String literals naming one of kit's LSP methods outside the protocol module. */
export function protocolViolations(tree: SourceTree): string[] {
  const wrong: string[] = [];
  for (const file of tree.files) {
    if (file === PROTOCOL_MODULE || !/^(server\/src|client\/src)\//.test(file)) continue;
    if (!tree.text(file).includes('kit/')) continue;
    const source = parse(tree, file);
    const visit = (node: TS.Node): void => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && KIT_METHOD.test(node.text)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        wrong.push(
          `${file}:${line}: names the method '${node.text}'; kit's LSP methods are named in ${PROTOCOL_MODULE}`,
        );
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return wrong;
}

/** The module of the language's closed sets of words (`shared/language/facts.ts`). */
export const FACTS_MODULE = 'shared/language/facts.ts';
/** Words a literal list must have to count as spelling a fact set (two could agree by chance). */
const FACT_MIN_WORDS = 3;

/**
 * The sets of words the facts module exports, by name: each exported array or Set of strings, and
 * each such value of an exported record (`ALLOWED_DECLARATIONS.page`).
 */
export function factSets(facts: Readonly<Record<string, unknown>>): Map<string, ReadonlySet<string>> {
  const sets = new Map<string, ReadonlySet<string>>();
  const add = (name: string, value: unknown): void => {
    const words = Array.isArray(value) ? value : value instanceof Set ? [...value] : undefined;
    if (words?.every((w) => typeof w === 'string') && new Set(words).size >= FACT_MIN_WORDS)
      sets.set(name, new Set(words as string[]));
  };
  for (const [name, value] of Object.entries(facts)) {
    add(name, value);
    if (value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Set))
      for (const [key, inner] of Object.entries(value)) add(`${name}.${key}`, inner);
  }
  return sets;
}

/** The literal lists of words of a file: arrays of strings, unions of string types, regex alternations. */
function wordLists(source: TS.SourceFile): { line: number; words: string[] }[] {
  const found: { line: number; words: string[] }[] = [];
  const at = (node: TS.Node, words: string[]) =>
    found.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, words });
  const text = (e: TS.Node): string | undefined =>
    ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) ? e.text : undefined;
  const visit = (node: TS.Node): void => {
    if (ts.isArrayLiteralExpression(node)) {
      const words = node.elements.map(text);
      if (words.every((w) => w !== undefined)) at(node, words as string[]);
    } else if (ts.isUnionTypeNode(node)) {
      const words = node.types.map((t) => (ts.isLiteralTypeNode(t) ? text(t.literal) : undefined));
      if (words.every((w) => w !== undefined)) at(node, words as string[]);
    } else if (ts.isRegularExpressionLiteral(node)) {
      for (const m of node.text.matchAll(/\((?:\?:)?([\w:-]+(?:\|[\w:-]+)+)\)/g)) at(node, m[1].split('|'));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Literal lists outside the facts module that spell one of its sets whole (the same words, in any
 * order): a second spelling, which the next change of the language would miss.
 */
export function factViolations(tree: SourceTree, facts: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const wrong: string[] = [];
  for (const file of tree.files) {
    if (file === FACTS_MODULE || !/\.m?ts$/.test(file)) continue;
    for (const list of wordLists(parse(tree, file))) {
      const words = new Set(list.words);
      if (words.size < FACT_MIN_WORDS) continue;
      for (const [name, set] of facts)
        if (set.size === words.size && [...words].every((w) => set.has(w)))
          wrong.push(`${file}:${list.line}: spells ${name} again; the language's facts are named in ${FACTS_MODULE}`);
    }
  }
  return wrong;
}

/** The most folders a relative import may climb (`../../x`); further, it goes through package.json `imports`. */
export const MAX_CLIMB = 2;
/** Folders whose files import relatively only: shared/ is copied as it is into generated apps. */
export const RELATIVE_ONLY = ['shared/'] as const;

/**
 * Relative imports that climb more than `MAX_CLIMB` folders (the area's `#...` import names the
 * target instead), and `#...` imports in a folder that must import relatively.
 */
export function importPathViolations(tree: SourceTree): string[] {
  const wrong: string[] = [];
  for (const file of tree.files)
    for (const i of importsOf(tree, file)) {
      const climb = /^(?:\.\.\/)*/.exec(i.spec)![0].length / 3;
      if (climb > MAX_CLIMB)
        wrong.push(
          `${file}:${i.line}: imports ${i.spec}, climbing ${climb} folders; ` +
            `past ${MAX_CLIMB}, import through package.json's imports (#grammar/..., #core/..., #shared/...)`,
        );
      else if (i.spec.startsWith('#') && RELATIVE_ONLY.some((d) => file.startsWith(d)))
        wrong.push(
          `${file}:${i.line}: imports ${i.spec}; shared/ imports relatively, as generated apps ` +
            'hold a copy of it without package.json imports',
        );
    }
  return wrong;
}
