// The conformance corpus (test/fixtures/conformance/): its folders, their cases, the `kit check`
// runs that cover them and the comparison of a case's expectations with the JSON report.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { codeInfo } from '#core/diagnostics/registry.js';
import { fixture, outDir } from '../helpers/repo.js';
import { parseExpectations, type FileExpectations } from './expectations.js';

export const CORPUS_ROOT = fixture('conformance');
export const CLI_MAIN = join(outDir, 'server', 'src', 'cli', 'main.js');

export interface FolderSpec {
  name: string;
  /** Run with `--ssr`. */
  ssr: boolean;
  /** `files`: every `.kit` file is a case; `dirs`: every sub-directory is a case. */
  layout: 'files' | 'dirs';
  /** Accepted sources: an `// expect:` line may list info codes only. */
  accept: boolean;
  /** Each case gets a `kit check` process of its own (cases that would overlap any neighbour). */
  isolated: boolean;
  /** Also run the folder without `--ssr`: every file must add `missing_ssr_addon` (or say otherwise). */
  alsoWithoutSsr: boolean;
}

export const FOLDERS: readonly FolderSpec[] = [
  { name: 'accept', ssr: false, layout: 'files', accept: true, isolated: false, alsoWithoutSsr: false },
  { name: 'accept-ssr', ssr: true, layout: 'files', accept: true, isolated: false, alsoWithoutSsr: true },
  { name: 'reject', ssr: false, layout: 'files', accept: false, isolated: false, alsoWithoutSsr: false },
  { name: 'reject-ssr', ssr: true, layout: 'files', accept: false, isolated: false, alsoWithoutSsr: true },
  { name: 'multi', ssr: false, layout: 'dirs', accept: false, isolated: false, alsoWithoutSsr: false },
  { name: 'multi-ssr', ssr: true, layout: 'dirs', accept: false, isolated: false, alsoWithoutSsr: false },
  { name: 'isolated', ssr: false, layout: 'dirs', accept: false, isolated: true, alsoWithoutSsr: false },
  { name: 'isolated-ssr', ssr: true, layout: 'dirs', accept: false, isolated: true, alsoWithoutSsr: false },
];

export interface CorpusFile {
  /** Path relative to the corpus root with `/` separators, as `kit check` prints it when run there. */
  path: string;
  expect: FileExpectations;
}

export interface Case {
  /** `reject/route-relative.kit`, `multi/duplicate-route`. */
  id: string;
  folder: FolderSpec;
  /** Directory that `// expect-related:` paths are relative to. */
  base: string;
  files: CorpusFile[];
}

const MODULE = /\.(ts|mts|js|mjs)$/;
/** The app config that registers a single-file folder's protective guards (`unknown_guard`). */
const SHARED_CONFIG = /^kit\.config\.(ts|mts|js|mjs)$/;
const NOT_MODULE = /(\.d\.ts|\.d\.mts|\.(test|spec)\.(ts|mts|js|mjs))$/;

function isSource(name: string): boolean {
  return name.endsWith('.kit') || (MODULE.test(name) && !NOT_MODULE.test(name));
}

/** Source files under `rel` (relative to the corpus root), recursively, sorted. */
function sourcesUnder(rel: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(CORPUS_ROOT, rel)).sort()) {
    const child = posix.join(rel, name);
    if (statSync(join(CORPUS_ROOT, child)).isDirectory()) out.push(...sourcesUnder(child));
    else if (isSource(name)) out.push(child);
  }
  return out;
}

function corpusFile(path: string): CorpusFile {
  return { path, expect: parseExpectations(readFileSync(join(CORPUS_ROOT, path), 'utf8')) };
}

/** Every case of the corpus, folder by folder. A layout mistake is thrown: the corpus is broken. */
export function loadCases(): Case[] {
  const cases: Case[] = [];
  for (const folder of FOLDERS) {
    const names = readdirSync(join(CORPUS_ROOT, folder.name)).sort();
    for (const name of names) {
      const rel = posix.join(folder.name, name);
      const isDir = statSync(join(CORPUS_ROOT, rel)).isDirectory();
      if (folder.layout === 'files') {
        if (!isDir && SHARED_CONFIG.test(name)) continue; // the folder's guard registry, not a case
        if (isDir || !name.endsWith('.kit'))
          throw new Error(`conformance: ${rel}: ${folder.name}/ holds single .kit files (and one kit.config.ts) only`);
        cases.push({ id: rel, folder, base: folder.name, files: [corpusFile(rel)] });
      } else {
        if (!isDir) throw new Error(`conformance: ${rel}: ${folder.name}/ holds one directory per case`);
        const files = sourcesUnder(rel).map(corpusFile);
        if (!files.some((f) => f.path.endsWith('.kit')))
          throw new Error(`conformance: ${rel}: a case needs at least one .kit file`);
        cases.push({ id: rel, folder, base: rel, files });
      }
    }
  }
  return cases;
}

// ---- running the CLI ----------------------------------------------------------------------

export interface JsonPos {
  line: number;
  column: number;
}
export interface JsonRange {
  start: JsonPos;
  end: JsonPos;
}
export interface JsonDiagnostic {
  file: string;
  code: string;
  pos: JsonPos;
  range: JsonRange;
  severity: string;
  message: string;
  related?: { file: string; pos: JsonPos; range: JsonRange; message: string }[];
  suggestion?: string;
}
export interface CheckRun {
  args: string[];
  exitCode: number;
  diagnostics: JsonDiagnostic[];
  /** Set when the run itself failed (bad exit code, unreadable output); every case of it fails. */
  failure?: string;
}

export function runKit(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export async function runCheck(ssr: boolean, inputs: string[]): Promise<CheckRun> {
  const args = ['check', '--json', ...(ssr ? ['--ssr'] : []), ...inputs];
  const { code, stdout, stderr } = await runKit(args, CORPUS_ROOT);
  const run: CheckRun = { args, exitCode: code, diagnostics: [] };
  try {
    const doc = JSON.parse(stdout) as { version?: unknown; diagnostics?: unknown };
    if (doc.version !== 1 || !Array.isArray(doc.diagnostics)) throw new Error('not a version 1 report');
    run.diagnostics = doc.diagnostics as JsonDiagnostic[];
  } catch (e) {
    run.failure = `kit ${args.join(' ')} exited ${code} without a JSON report (${(e as Error).message}); stderr: ${stderr.trim()}`;
    return run;
  }
  const errors = run.diagnostics.some((d) => d.severity === 'error');
  if (code !== (errors ? 1 : 0))
    run.failure = `kit ${args.join(' ')} exited ${code}, expected ${errors ? 1 : 0}; stderr: ${stderr.trim()}`;
  return run;
}

/** Runs `jobs` with at most `limit` in flight. */
export async function pool<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out = new Array<T>(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return out;
}

// ---- comparing ----------------------------------------------------------------------------

function fmtRange(r: JsonRange): string {
  return `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}`;
}

export function describeDiagnostic(d: JsonDiagnostic): string {
  const rel = d.related?.length
    ? ` related=[${d.related.map((r) => `${r.file}:${r.pos.line}:${r.pos.column} ${JSON.stringify(r.message)}`).join('; ')}]`
    : '';
  return `${d.file} ${fmtRange(d.range)} ${d.severity} ${d.code}: ${d.message}${rel}`;
}

function counts(codes: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const c of codes) m.set(c, (m.get(c) ?? 0) + 1);
  return m;
}

function codeSetProblems(
  file: string,
  expected: Map<string, number>,
  exact: boolean,
  actual: JsonDiagnostic[],
): string[] {
  const problems: string[] = [];
  const got = counts(actual.map((d) => d.code));
  for (const [code, n] of expected) {
    const have = got.get(code) ?? 0;
    if (have === 0) problems.push(`${file}: expected ${code}, got none`);
    else if ((exact || n > 1) && have !== n) problems.push(`${file}: expected ${code} exactly ${n}×, got ${have}×`);
  }
  for (const [code, have] of got) {
    if (!expected.has(code)) problems.push(`${file}: unexpected ${code} (${have}×)`);
  }
  return problems;
}

/** Structural sanity of one JSON diagnostic (the CLI tests pin the exact shape). */
function shapeProblems(d: JsonDiagnostic): string[] {
  const p: string[] = [];
  const okPos = (x: JsonPos | undefined) =>
    !!x && Number.isInteger(x.line) && Number.isInteger(x.column) && x.line >= 1 && x.column >= 1;
  if (!okPos(d.pos) || !okPos(d.range?.start) || !okPos(d.range?.end))
    p.push(`bad position in ${describeDiagnostic(d)}`);
  else {
    const { start, end } = d.range;
    if (end.line < start.line || (end.line === start.line && end.column < start.column))
      p.push(`range ends before it starts: ${describeDiagnostic(d)}`);
    if (d.pos.line !== start.line || d.pos.column !== start.column)
      p.push(`pos differs from range start: ${describeDiagnostic(d)}`);
  }
  if (!d.message) p.push(`empty message: ${describeDiagnostic(d)}`);
  for (const r of d.related ?? []) {
    if (!okPos(r.pos) || !r.message) p.push(`bad related location in ${describeDiagnostic(d)}`);
  }
  return p;
}

/** Problems of one case against the diagnostics of its run (empty when the case passes). */
export function compareCase(c: Case, run: CheckRun, mode: 'main' | 'without-ssr' = 'main'): string[] {
  if (run.failure) return [run.failure];
  const problems: string[] = [];
  const own = new Set(c.files.map((f) => f.path));
  for (const f of c.files) {
    for (const e of f.expect.errors) problems.push(`${f.path}: corpus header error: ${e}`);
    // Binding diagnostics (handler modules read with the TypeScript compiler) have their own tests;
    // a case compares them only when its header names them.
    const named = new Set([...f.expect.codes.keys(), ...(f.expect.withoutSsr?.keys() ?? [])]);
    const actual = run.diagnostics.filter(
      (d) => d.file === f.path && (codeInfo(d.code)?.area !== 'binding' || named.has(d.code)),
    );
    for (const d of actual) {
      problems.push(...shapeProblems(d));
      for (const r of d.related ?? []) {
        if (!own.has(r.file))
          problems.push(
            `${f.path}: related location in ${r.file}, outside this case: the case overlaps a neighbour (give it its own route prefix or move it to isolated/): ${describeDiagnostic(d)}`,
          );
      }
    }
    if (mode === 'without-ssr') {
      const expected = f.expect.withoutSsr ?? new Map([...f.expect.codes, ['missing_ssr_addon', 1]]);
      problems.push(...codeSetProblems(f.path, expected, false, actual));
      continue;
    }
    if (c.folder.layout === 'files' && !c.folder.accept && !f.expect.declared)
      problems.push(`${f.path}: a rejected case needs a // expect: line`);
    if (c.folder.accept && f.expect.declared) {
      for (const d of actual)
        if (d.severity !== 'info')
          problems.push(`${f.path}: accepted sources may expect info diagnostics only, got ${describeDiagnostic(d)}`);
    }
    problems.push(...codeSetProblems(f.path, f.expect.codes, f.expect.exact, actual));
    const unused = new Set(actual);
    for (const r of f.expect.ranges) {
      const hit = [...unused].find(
        (d) =>
          d.code === r.code &&
          d.range.start.line === r.start[0] &&
          d.range.start.column === r.start[1] &&
          d.range.end.line === r.end[0] &&
          d.range.end.column === r.end[1],
      );
      if (hit) unused.delete(hit);
      else
        problems.push(
          `${f.path}: no ${r.code} at ${r.start.join(':')}-${r.end.join(':')}; ranges of ${r.code}: ${
            actual
              .filter((d) => d.code === r.code)
              .map((d) => fmtRange(d.range))
              .join(', ') || 'none'
          }`,
        );
    }
    for (const r of f.expect.related) {
      const file = posix.join(c.base, r.file);
      const ok = actual.some(
        (d) =>
          d.code === r.code &&
          (d.related ?? []).some(
            (x) =>
              x.file === file &&
              x.pos.line === r.line &&
              (r.column === undefined || x.pos.column === r.column) &&
              (r.message === undefined || x.message.includes(r.message)),
          ),
      );
      if (!ok)
        problems.push(
          `${f.path}: no ${r.code} with related location ${r.text}; got: ${
            actual
              .filter((d) => d.code === r.code)
              .map(describeDiagnostic)
              .join(' | ') || 'none'
          }`,
        );
    }
    for (const m of f.expect.messages) {
      if (!actual.some((d) => d.code === m.code && d.message.includes(m.substring))) {
        problems.push(
          `${f.path}: no ${m.code} message containing "${m.substring}"; got: ${
            actual
              .filter((d) => d.code === m.code)
              .map((d) => JSON.stringify(d.message))
              .join(' | ') || 'none'
          }`,
        );
      }
    }
    for (const [code, severity] of f.expect.severities) {
      for (const d of actual)
        if (d.code === code && d.severity !== severity)
          problems.push(`${f.path}: ${code} has severity ${d.severity}, expected ${severity}`);
    }
  }
  if (problems.length) {
    const all = run.diagnostics.filter((d) => own.has(d.file) && codeInfo(d.code)?.area !== 'binding');
    problems.push(
      `-- diagnostics of ${c.id} (${run.args.join(' ')}):`,
      ...(all.length ? all.map(describeDiagnostic) : ['(none)']),
    );
  }
  return problems;
}
