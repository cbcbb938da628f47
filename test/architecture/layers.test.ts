// The import layers of docs/architecture.md, checked on every source file: an import may point
// down the layer list or inside its own layer, never up or sideways, and no file imports itself
// through others (type-only imports count too: they are the same dependency to a reader).
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * Layers from the bottom up. Layers of one rank are siblings: neither imports the other. The
 * first matching prefix names a file's layer.
 */
const LAYERS: readonly { layer: string; rank: number; prefix: string }[] = [
  { layer: 'grammar', rank: 0, prefix: 'grammar/src/' },
  { layer: 'shared/route', rank: 0, prefix: 'shared/route/' },
  { layer: 'shared/trace', rank: 0, prefix: 'shared/trace/' },
  { layer: 'shared/render', rank: 1, prefix: 'shared/render/' },
  { layer: 'shared/app', rank: 2, prefix: 'shared/app/' },
  { layer: 'core/diagnostics', rank: 3, prefix: 'server/src/core/diagnostics/' },
  { layer: 'core/format', rank: 3, prefix: 'server/src/core/format/' },
  { layer: 'core/model', rank: 4, prefix: 'server/src/core/model/' },
  { layer: 'core/resolve', rank: 5, prefix: 'server/src/core/resolve/' },
  { layer: 'core/validate', rank: 6, prefix: 'server/src/core/validate/' },
  { layer: 'core/bind', rank: 6, prefix: 'server/src/core/bind/' },
  { layer: 'core/workspace', rank: 7, prefix: 'server/src/core/workspace/' },
  { layer: 'core/project', rank: 8, prefix: 'server/src/core/project/' },
  { layer: 'core/report', rank: 9, prefix: 'server/src/core/report/' },
  { layer: 'core/build', rank: 9, prefix: 'server/src/core/build/' },
  { layer: 'core/app', rank: 10, prefix: 'server/src/core/app/' },
  { layer: 'core', rank: 11, prefix: 'server/src/core/' },
  { layer: 'lsp', rank: 12, prefix: 'server/src/lsp/' },
  { layer: 'client', rank: 12, prefix: 'client/src/' },
  { layer: 'cli', rank: 13, prefix: 'server/src/cli/' },
];

const SOURCE_DIRS = ['grammar/src', 'shared', 'server/src', 'client/src'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'test' || name === 'out' || name === 'dist') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const IMPORT =
  /(?:^|[\n;])\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

interface Import {
  from: string;
  line: number;
  to: string;
}

/** Relative imports of a file, resolved to repository paths of `.ts` sources. */
function importsOf(file: string): Import[] {
  const text = readFileSync(join(root, file), 'utf8');
  const out: Import[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    const target = relative(root, resolve(root, dirname(file), spec))
      .split(sep)
      .join('/');
    const line = text.slice(0, m.index! + m[0].length).split('\n').length;
    out.push({ from: file, line, to: target.replace(/\.m?js$/, (x) => (x === '.mjs' ? '.mts' : '.ts')) });
  }
  return out;
}

function layerOf(file: string) {
  return LAYERS.find((l) => file.startsWith(l.prefix));
}

const files = SOURCE_DIRS.flatMap((d) => sourceFiles(join(root, d))).map((f) => relative(root, f).split(sep).join('/'));
const imports = files.flatMap(importsOf);

describe('architecture: import layers', () => {
  it('finds the sources and their imports (the check is live)', () => {
    assert.ok(files.length > 200, `only ${files.length} source files found`);
    assert.ok(imports.length > 500, `only ${imports.length} imports found`);
    assert.ok(
      imports.some((i) => i.from === 'server/src/core/workspace/local-rules.ts' && i.to.endsWith('validate/index.ts')),
    );
  });

  it('places every source file in a layer', () => {
    const loose = files.filter((f) => !layerOf(f));
    assert.deepEqual(loose, [], 'files outside every layer of the list');
  });

  it('imports point down the layer list or stay inside their layer', () => {
    const wrong: string[] = [];
    for (const i of imports) {
      const a = layerOf(i.from);
      const b = layerOf(i.to);
      if (!a || !b || a === b) continue;
      if (b.rank >= a.rank)
        wrong.push(
          `${i.from}:${i.line} → ${i.to}: ${a.layer} may not import ${b.layer} (${b.rank === a.rank ? 'siblings' : 'upwards'})`,
        );
    }
    assert.deepEqual(wrong, [], `imports against the layers:\n${wrong.join('\n')}`);
  });

  it('has no import cycle between files', () => {
    const edges = new Map<string, string[]>();
    for (const i of imports) {
      if (!edges.has(i.from)) edges.set(i.from, []);
      edges.get(i.from)!.push(i.to);
    }
    // Tarjan's strongly connected components: any component of two or more files is a cycle.
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
    for (const f of files) if (!index.has(f)) visit(f);
    assert.deepEqual(cycles, [], `import cycles:\n${cycles.map((c) => c.join(' ⇄ ')).join('\n')}`);
  });
});
