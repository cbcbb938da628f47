// No function of the request runtime (`shared/app`) is longer than 80 lines: each endpoint kind has
// its own small executor, and a request's walk reads top to bottom. Functions are found with the
// TypeScript parser (declarations, methods, accessors, constructors, function expressions and
// arrows), each measured from its first line to its last, nested functions included in their parent.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type TS, typescript } from '#core/bind/ts.js';

// The compiler as kit loads it (once, through V8's code cache): an ES import of the package would
// load a second copy, after scanning its 9 MB for named exports.
const ts = typescript();

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MAX = 80;

interface Measured {
  name: string;
  line: number;
  lines: number;
}

function nameOf(node: TS.Node): string {
  const named = node as { name?: TS.Node };
  if (named.name !== undefined && ts.isIdentifier(named.name)) return named.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent !== undefined && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent !== undefined && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent !== undefined && ts.isPropertyDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}

/** Every function-like node of a source text, with its length in lines. */
export function functionLengths(fileName: string, text: string): Measured[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: Measured[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) && (node as { body?: TS.Node }).body !== undefined) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ name: nameOf(node), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

describe('architecture: function length in the request runtime', () => {
  it(`keeps every function in shared/app within ${MAX} lines`, () => {
    const files = sources(join(root, 'shared', 'app'));
    assert.ok(files.length > 30, 'the runtime was found');
    const long: string[] = [];
    for (const f of files) {
      for (const m of functionLengths(f, readFileSync(f, 'utf8')))
        if (m.lines > MAX) long.push(`${relative(root, f)}:${m.line}: ${m.name} has ${m.lines} lines`);
    }
    assert.deepEqual(long, []);
  });

  it('finds a long function wherever it is written', () => {
    const body = Array.from({ length: MAX }, (_, i) => `  total += ${i};`).join('\n');
    const text = [
      `export function declared() {\n  let total = 0;\n${body}\n  return total;\n}`,
      `const arrow = () => {\n  let total = 0;\n${body}\n  return total;\n};`,
      `class C {\n  method() {\n    let total = 0;\n${body}\n    return total;\n  }\n}`,
      `function short() {\n  return 1;\n}`,
    ].join('\n');
    const long = functionLengths('injected.ts', text)
      .filter((m) => m.lines > MAX)
      .map((m) => m.name);
    assert.deepEqual(long, ['declared', 'arrow', 'method']);
  });
});
