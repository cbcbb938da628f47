// Grammar throughput and incremental re-parse, each with its baseline measured in the same run:
// lexing only (the same scanners `parseKit` uses, over the same text) vs full parse with AST; full parse of a
// 10,000-line file vs re-parse after a one-character edit in its middle.
import { lexOnly, parseKit, reparseKit } from '#grammar/index.js';
import { generateGiantView, generateLargeFile, generatePage } from '#test/grammar/kit-sources.js';
import { median } from '../fixtures/measure.js';

const FILES = 10_000;
const ROUNDS = 5;

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)];
}
function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}
/** Wall time and process CPU time (ms) of one run; CPU time is far less sensitive to other work on the machine. */
function both(fn: () => void): { wall: number; cpu: number } {
  const c = process.cpuUsage();
  const wall = time(fn);
  const d = process.cpuUsage(c);
  return { wall, cpu: (d.user + d.system) / 1000 };
}

// ---------------------------------------------------------------------------------------------
// Throughput over 10,000 realistic pages

const sources: string[] = [];
let chars = 0;
for (let i = 0; i < FILES; i++) {
  const s = generatePage(i);
  sources.push(s);
  chars += s.length;
}
const mb = Buffer.byteLength(sources.join(''), 'utf8') / (1024 * 1024);
const lines = sources.reduce((n, s) => n + s.split('\n').length - 1, 0);

let sink = 0;
const lexAll = (): void => {
  for (const s of sources) sink += lexOnly(s);
};
const parseAll = (): void => {
  for (const s of sources) sink += parseKit(s, 'page.kit').declarations.length;
};
for (let i = 0; i < 2; i++) {
  lexAll();
  parseAll();
}
const lexRuns: { wall: number; cpu: number }[] = [];
const parseRuns: { wall: number; cpu: number }[] = [];
for (let r = 0; r < ROUNDS; r++) {
  gc();
  lexRuns.push(both(lexAll));
  gc();
  parseRuns.push(both(parseAll));
}
const lex = median(lexRuns.map((x) => x.wall));
const parse = median(parseRuns.map((x) => x.wall));
const lexCpu = median(lexRuns.map((x) => x.cpu));
const parseCpu = median(parseRuns.map((x) => x.cpu));
console.log(
  `input: ${FILES} pages, ${lines} lines, ${mb.toFixed(2)} MB (${chars} UTF-16 units); medians of ${ROUNDS} runs after warm-up`,
);
console.log(
  `lexing only (baseline): ${lex.toFixed(0)} ms  ${(mb / (lex / 1000)).toFixed(1)} MB/s  ${Math.round(FILES / (lex / 1000))} files/s  (CPU ${lexCpu.toFixed(0)} ms)`,
);
console.log(
  `parseKit (AST):         ${parse.toFixed(0)} ms  ${(mb / (parse / 1000)).toFixed(1)} MB/s  ${Math.round(FILES / (parse / 1000))} files/s  (CPU ${parseCpu.toFixed(0)} ms)`,
);
console.log(
  `ratio parse/lexing throughput: ${(lex / parse).toFixed(2)} wall, ${(lexCpu / parseCpu).toFixed(2)} CPU (target >= 0.40); ` +
    `${FILES} files in ${parse.toFixed(0)} ms wall, ${parseCpu.toFixed(0)} ms CPU (target well under 1000 ms)`,
);

// ---------------------------------------------------------------------------------------------
// Edit in the middle of a 10,000-line file

function editBench(label: string, text: string, anchor: string): void {
  const fullMs: number[] = [];
  for (let i = 0; i < 3; i++) parseKit(text, 'big.page.kit');
  for (let i = 0; i < 15; i++) fullMs.push(time(() => parseKit(text, 'big.page.kit')));

  let current = text;
  let file = parseKit(current, 'big.page.kit');
  // Typing in the middle: each edit inserts one character inside markup near the middle line.
  let at = current.indexOf(anchor, current.length >> 1) + anchor.length;
  const editMs: number[] = [];
  for (let i = 0; i < 120; i++) {
    const next = current.slice(0, at) + 'x' + current.slice(at);
    const ms = time(() => {
      file = reparseKit(file, current, next);
    });
    if (i >= 20) editMs.push(ms);
    current = next;
    at++;
  }
  const check = parseKit(current, 'big.page.kit');
  if (check.declarations.length !== file.declarations.length)
    throw new Error('incremental result differs from a fresh parse');
  const lineCount = text.split('\n').length - 1;
  const full = median(fullMs);
  console.log(
    `${label} (${lineCount} lines, ${file.declarations.length} declarations): full parse median ${full.toFixed(2)} ms p95 ${p95(fullMs).toFixed(2)} ms (baseline); ` +
      `reparseKit after a one-character edit median ${median(editMs).toFixed(2)} ms p95 ${p95(editMs).toFixed(2)} ms (target p95 <= 15 ms); ` +
      `speed-up ${(full / median(editMs)).toFixed(1)}x`,
  );
}

editBench('many declarations', generateLargeFile(10_000), '<td>');
editBench('one giant view', generateGiantView(10_000), '<p class="x-');
if (sink === 42) console.log('');
