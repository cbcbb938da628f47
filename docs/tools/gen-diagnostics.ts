// docs/diagnostics.md's reference part: every code of the diagnostics registry, in registry order,
// with its severity, its meaning (the registry's summary), an example that triggers it and the fix.
// The example is the smallest conformance case (test/fixtures/conformance) that, checked alone as
// a `kit` block of the page, reports exactly its expected codes; a code no case can show that way
// takes the example written in diagnostic-notes.ts. A code with neither, or without a fix (the
// registry's suggestion or a note's), stops the generator: a new code cannot ship undocumented.
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { type CodeInfo, REGISTRY } from '#core/diagnostics/registry.js';
import { type Case, CORPUS_ROOT, loadCases } from '#test/conformance/corpus.js';
import { checkKitBlock } from './check-kit.js';
import { DIAGNOSTIC_NOTES, type Note } from './diagnostic-notes.js';
import { parseInfo } from './markdown.js';

const QUICK_FIX: Record<NonNullable<CodeInfo['fix']>, string> = {
  add_public_guard: 'add `guard public`',
  remove_trailing_slash: 'drop the trailing slash',
  add_paths_block: 'add a `paths {}` skeleton',
  split_optional_param: 'split an optional parameter into explicit routes',
  create_handler_stub: 'write a handler stub in the sibling module',
  add_request_render: 'add `render ssr` or `server {}`',
};

const AREA_TITLES: Record<CodeInfo['area'], string> = {
  syntax: 'Syntax',
  structure: 'Structure of a file',
  route: 'Routes',
  guard: 'Guards',
  cache: 'Cache',
  endpoint: 'Endpoints',
  binding: 'Handler binding',
  view: 'Views',
  composition: 'Components and layouts',
  config: 'Project settings (kit.config)',
};

/** A file of a case without its expectation lines (the `// expect...` and `// rows:` header). */
function shownText(text: string): string {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && /^\/\/ (expect|rows)/.test(lines[i])) i++;
  return `${lines.slice(i).join('\n').replace(/\n+$/, '')}\n`;
}

interface Example {
  info: string;
  body: string;
  source?: string;
}

/** A single-file case keeps its name where the name decides the file's kind. */
const NAMED_KIND = /\.(layout|cmp)\.kit$/;

/** A case as a `kit` block: its files (`// file:` lines when several) and the codes it expects. */
function caseBlock(c: Case): Example | undefined {
  if (c.files.some((f) => !f.path.endsWith('.kit'))) return undefined;
  const severity = new Map<string, string>();
  for (const f of c.files)
    for (const code of f.expect.codes.keys())
      severity.set(code, (REGISTRY as Record<string, CodeInfo>)[code]?.severity ?? '?');
  const base = c.folder.layout === 'files' ? c.folder.name : c.id;
  const body = c.files
    .map((f) => {
      const text = shownText(readFileSync(join(CORPUS_ROOT, f.path), 'utf8'));
      return c.files.length > 1 || NAMED_KIND.test(f.path) ? `// file: ${posix.relative(base, f.path)}\n${text}` : text;
    })
    .join('\n');
  const list = (s: string) => [...severity].filter(([, v]) => v === s).map(([k]) => k);
  const attrs = [
    list('error').length ? `error=${list('error')}` : '',
    list('warning').length ? `warning=${list('warning')}` : '',
  ];
  if (!c.folder.ssr) attrs.push('ssr=false');
  return { info: ['kit', ...attrs.filter(Boolean)].join(' '), body, source: `test/fixtures/conformance/${c.id}` };
}

/** Whether a block reports exactly what its info string says, checked as the doc tests check it. */
function holds(example: Example): boolean {
  const { lang, attrs } = parseInfo(example.info);
  return checkKitBlock('corpus', { lang, attrs, body: example.body, line: 1 }).length === 0;
}

function examplesFor(code: string, cases: Case[], note: Note | undefined): Example[] | undefined {
  if (note?.examples) return note.examples;
  const candidates = cases
    .filter((c) => c.files.some((f) => f.expect.codes.has(code)))
    .map(caseBlock)
    .filter((b): b is Example => b !== undefined)
    .sort((a, b) => a.body.length - b.body.length);
  for (const c of candidates) {
    // `ssr=false` only where the case needs it: fewer attributes for a reader to wonder about.
    const plain = { ...c, info: c.info.replace(' ssr=false', '') };
    if (holds(plain)) return [plain];
    if (holds(c)) return [c];
  }
  return undefined;
}

/** The generated part of docs/diagnostics.md. */
export async function diagnosticsReference(registry: Record<string, CodeInfo> = REGISTRY): Promise<string> {
  const cases = loadCases();
  const problems: string[] = [];
  for (const code of Object.keys(DIAGNOSTIC_NOTES))
    if (!registry[code]) problems.push(`diagnostic-notes.ts has a note for ${code}, which is not a registered code`);
  const parts: string[] = [];
  const byArea = new Map<CodeInfo['area'], string[]>();
  for (const [code, info] of Object.entries(registry)) byArea.set(info.area, [...(byArea.get(info.area) ?? []), code]);
  parts.push('| Code | Severity | Meaning |', '|---|---|---|');
  for (const codes of byArea.values())
    for (const code of codes)
      parts.push(
        `| [\`${code}\`](#${code}) | ${registry[code].severity} | ${registry[code].summary.replace(/\|/g, '\\|')} |`,
      );
  for (const [area, codes] of byArea) {
    parts.push('', `## ${AREA_TITLES[area]}`);
    for (const code of codes) {
      const info = registry[code];
      const note = DIAGNOSTIC_NOTES[code];
      const fix = note?.fix ?? info.suggestion;
      const examples = examplesFor(code, cases, note);
      if (!fix) problems.push(`${code}: no fix (write one in docs/tools/diagnostic-notes.ts)`);
      if (!examples)
        problems.push(`${code}: no example (add a conformance case or one in docs/tools/diagnostic-notes.ts)`);
      if (!fix || !examples) continue;
      parts.push('', `### ${code}`, '', `**${info.severity}** · ${info.summary}`);
      if (note?.meaning) parts.push('', note.meaning);
      const from = examples[0].source;
      parts.push('', from ? `Example (from \`${from}\`):` : 'Example:');
      for (const e of examples) parts.push('', `\`\`\`${e.info}`, e.body.replace(/\n+$/, ''), '```');
      parts.push('', `**Fix:** ${fix[0].toUpperCase()}${fix.slice(1)}${/[.!?]$/.test(fix) ? '' : '.'}`);
      if (info.fix) parts.push(`The editor offers it as a quick fix (${QUICK_FIX[info.fix]}).`);
    }
  }
  if (problems.length) throw new Error(`docs/diagnostics.md cannot be generated:\n  ${problems.join('\n  ')}`);
  return parts.join('\n');
}
