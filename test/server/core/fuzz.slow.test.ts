// Property test of the checker: random and mutated `.kit` sources (and handler modules), loaded into
// one Workspace so the cross-file rules run, never make it throw, and every diagnostic range (and
// every related range) lies inside its own document with line and column matching the offset.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Workspace } from '#core/workspace/workspace.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import type { Range } from '#grammar/index.js';
import { fixture, repoRoot } from '../../helpers/repo.js';

function sources(dir: string, ext: RegExp, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, ext, out);
    else if (ext.test(name)) out.push(readFileSync(p, 'utf8'));
  }
  return out;
}

const KIT_SEEDS = [...sources(fixture('conformance'), /\.kit$/), ...sources(join(repoRoot, 'examples'), /\.kit$/)];
const MODULE_SEEDS = [...sources(fixture('conformance'), /\.ts$/), ...sources(join(repoRoot, 'examples'), /\.ts$/)];

/** Fragments that matter to the grammar and the rules: delimiters, keywords, markup, odd characters. */
const SNIPPETS = [
  '"',
  '\\',
  '{',
  '}',
  '<',
  '>',
  '/>',
  '</',
  '\n',
  '\r\n',
  '\r',
  ' ',
  '\t',
  '=',
  ',',
  ':',
  '=>',
  '//',
  '/*',
  '#',
  '?',
  '...',
  'route "/x/{id}"',
  'route "/"',
  'route "/{p...}"',
  'guard public',
  'guard public, auth.required',
  'page x',
  'layout main',
  'render ssr',
  'server {\n  => { a, b.c }\n}',
  'paths {\n  => { id: "1" }\n}',
  'view {\n',
  '\n}\n',
  'view {\n  <main>x</main>\n}',
  'act Save POST "/save"',
  'api Get GET',
  'fragment F GET "/f/{id:int}" "#f" {',
  'component C',
  'props {\n  a string = "x"\n}',
  'cache "public"',
  'revalidate 5m',
  'use ui "ui"',
  'style {',
  '@route',
  'load {',
  '<slot />',
  '<C a="1" />',
  '<ui.C />',
  '<form g:post={Save} g:target="#t">',
  '{param("id")}',
  '{a.b}',
  '{#if x}',
  '{@html x}',
  'g:if={x} g:lane="server"',
  'g:for={i in xs}',
  'href="javascript:x"',
  'onclick="x"',
  '<script>',
  '<!--',
  '-->',
  'é',
  '𝓚',
  '世界',
  '\u0000',
  '\u2028',
  '\ufeff',
  '\ud800',
  '\udc00',
  '\u200b',
  '//kit:api GET /x\n',
  '//kit:act POST /y\n//kit:guard public\n',
  'export function H() {}\n',
];

type Edit =
  | { op: 'delete'; at: number; len: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'duplicate'; at: number; len: number; to: number };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 40 }) }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...SNIPPETS), fc.string({ maxLength: 8, unit: 'binary' })),
  }),
  fc.record({
    op: fc.constant('duplicate' as const),
    at: fc.nat(),
    len: fc.integer({ min: 1, max: 80 }),
    to: fc.nat(),
  }),
);

function applyEdits(text: string, edits: Edit[]): string {
  let s = text;
  for (const e of edits) {
    const at = s.length ? e.at % (s.length + 1) : 0;
    if (e.op === 'delete') s = s.slice(0, at) + s.slice(at + e.len);
    else if (e.op === 'insert') s = s.slice(0, at) + e.text + s.slice(at);
    else {
      const piece = s.slice(at, at + e.len);
      const to = s.length ? e.to % (s.length + 1) : 0;
      s = s.slice(0, to) + piece + s.slice(to);
    }
  }
  return s;
}

const mutatedKit = fc
  .tuple(fc.constantFrom(...KIT_SEEDS), fc.array(editArb, { maxLength: 6 }))
  .map(([seed, edits]) => applyEdits(seed, edits));
const randomKit = fc.array(fc.constantFrom(...SNIPPETS), { maxLength: 30 }).map((parts) => parts.join(''));
const kitSource = fc.oneof(
  { weight: 4, arbitrary: mutatedKit },
  { weight: 1, arbitrary: randomKit },
  { weight: 1, arbitrary: fc.string({ maxLength: 200, unit: 'binary' }) },
);
const moduleSource = fc
  .tuple(fc.constantFrom(...MODULE_SEEDS), fc.array(editArb, { maxLength: 4 }))
  .map(([seed, edits]) => applyEdits(seed, edits));

/** File names that exercise every file kind and two packages. */
const KIT_NAMES = [
  'site/a.kit',
  'site/b.kit',
  'site/card.cmp.kit',
  'site/main.layout.kit',
  'blog/c.page.kit',
  'blog/d.kit',
];

const workspaceArb = fc.record({
  ssr: fc.boolean(),
  kits: fc.array(kitSource, { minLength: 1, maxLength: KIT_NAMES.length }),
  module: fc.option(moduleSource, { nil: undefined }),
});

/** Line starts as the grammar counts them for `.kit` files (`\n`, `\r\n`, lone `\r`). */
function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

function rangeProblem(what: string, text: string | undefined, range: Range, kit: boolean): string | undefined {
  if (text === undefined) return `${what}: points into a file the workspace does not hold`;
  const { start, end } = range;
  if (!(0 <= start.offset && start.offset <= end.offset && end.offset <= text.length))
    return `${what}: offsets ${start.offset}-${end.offset} outside 0..${text.length}`;
  // Handler modules are scanned line by line on `\n` only; `.kit` files use the LSP's line breaks.
  const starts = kit ? lineStartsOf(text) : [0, ...[...text.matchAll(/\n/g)].map((m) => m.index! + 1)];
  for (const [name, p] of [
    ['start', start],
    ['end', end],
  ] as const) {
    const lineStart = starts[p.line];
    const next = p.line + 1 < starts.length ? starts[p.line + 1] : text.length + 1;
    if (lineStart === undefined || lineStart + p.column !== p.offset || p.offset >= next) {
      return `${what}: ${name} {line ${p.line}, column ${p.column}} does not match offset ${p.offset}`;
    }
  }
  return undefined;
}

function check(ws: Workspace, texts: Map<string, string>): string[] {
  const problems: string[] = [];
  const all: Diagnostic[] = ws.allDiagnostics();
  for (const d of all) {
    const label = `${d.code} in ${d.file}`;
    const p = rangeProblem(label, texts.get(d.file), d.range, d.file.endsWith('.kit'));
    if (p) problems.push(p);
    for (const r of d.related ?? []) {
      const q = rangeProblem(`related of ${label}`, texts.get(r.file), r.range, r.file.endsWith('.kit'));
      if (q) problems.push(q);
    }
    if (/internal (parser )?error/.test(d.message)) problems.push(`${label}: ${d.message}`);
  }
  // The per-file view agrees with the whole-workspace view.
  const perFile = [...texts.keys()].flatMap((f) => ws.diagnosticsFor(f));
  if (perFile.length !== all.length)
    problems.push(`diagnosticsFor gives ${perFile.length} diagnostics, allDiagnostics ${all.length}`);
  return problems;
}

describe('checker fuzz (fast-check)', function () {
  this.timeout(60000);

  it('mutated and random sources never throw and keep every range inside its document', () => {
    fc.assert(
      fc.property(workspaceArb, ({ ssr, kits, module }) => {
        const ws = new Workspace({ ssr });
        const texts = new Map<string, string>();
        kits.forEach((text, i) => {
          ws.setKitFile(KIT_NAMES[i], text);
          texts.set(KIT_NAMES[i], text);
        });
        if (module !== undefined) {
          ws.setModule('site/handlers.ts', module);
          texts.set('site/handlers.ts', module);
        }
        ws.flush();
        assert.deepEqual(check(ws, texts), []);
      }),
      { numRuns: 150 },
    );
  });

  it('survives edits applied one after another to a live workspace', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KIT_SEEDS),
        fc.constantFrom(...KIT_SEEDS),
        fc.array(editArb, { minLength: 1, maxLength: 12 }),
        (a, b, edits) => {
          const ws = new Workspace({ ssr: true });
          const texts = new Map([
            ['site/a.kit', a],
            ['site/b.kit', b],
          ]);
          ws.setKitFile('site/a.kit', a);
          ws.setKitFile('site/b.kit', b);
          ws.flush();
          let current = a;
          for (const e of edits) {
            current = applyEdits(current, [e]);
            ws.setKitFile('site/a.kit', current);
            texts.set('site/a.kit', current);
            ws.flush();
            assert.deepEqual(check(ws, texts), []);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
