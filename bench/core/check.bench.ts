// `kit check` speed (issue 2): full check of generated 1,000- and 10,000-file workspaces in one
// process, with the lexing-only pass over the same text as the same-run baseline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lexOnly, parseKit } from '../../grammar/src/index.js';
import { summarize } from '../../server/src/core/model/summary.js';
import { loadProject } from '../../server/src/core/project/load.js';
import { generateSite, writeSite } from '../fixtures/site-generator.js';
import { median, time } from '../fixtures/measure.js';


const gc = (globalThis as { gc?: () => void }).gc;

for (const n of [1000, 5000, 10000]) {
  const files = generateSite(n);
  const bytes = files.reduce((a, f) => a + f.text.length, 0);
  const lines = files.reduce((a, f) => a + f.text.split('\n').length, 0);
  // Throughput: lexing only vs parse + summary, same texts, same process.
  const lexRuns: number[] = [];
  const parseRuns: number[] = [];
  for (let r = 0; r < 5; r++) {
    lexRuns.push(time(() => { for (const f of files) lexOnly(f.text); }));
    parseRuns.push(time(() => { for (const f of files) summarize(parseKit(f.text, f.path)); }));
  }
  const lexMs = median(lexRuns.slice(1));
  const parseMs = median(parseRuns.slice(1));
  const mb = bytes / 1e6;
  console.log(`${n} files (${lines} lines, ${mb.toFixed(1)} MB): lex-only ${(mb / (lexMs / 1000)).toFixed(1)} MB/s, parse+summary ${(mb / (parseMs / 1000)).toFixed(1)} MB/s → ${(100 * lexMs / parseMs).toFixed(0)}% of lexing throughput (target ≥ 40%)`);

  // Full check from disk in one process: discovery, read, parse, summary, index, every rule.
  const dir = mkdtempSync(join(tmpdir(), 'kit-check-bench-'));
  try {
    writeSite(dir, files);
    const runs: number[] = [];
    let heapMb = 0;
    let diagCount = 0;
    for (let r = 0; r < 3; r++) {
      gc?.();
      const before = process.memoryUsage().heapUsed;
      let ws: ReturnType<typeof loadProject> | undefined;
      runs.push(time(() => {
        ws = loadProject([dir], { ssr: true });
        diagCount = ws.workspace.allDiagnostics().length;
      }));
      gc?.();
      heapMb = Math.max(heapMb, (process.memoryUsage().heapUsed - before) / 1e6);
      void ws;
    }
    const checkMs = median(runs);
    const target = n === 10000 ? ' (target < 1500 ms)' : n === 5000 ? ' (target ≤ 700 ms; Langium peer 3300–3900 ms)' : ' (Langium peer 940–1080 ms)';
    console.log(`${n} files: full check ${checkMs.toFixed(0)} ms${target}, retained heap ${heapMb.toFixed(0)} MB (target < ${n === 5000 ? 150 : 400} MB), ${diagCount} diagnostics; lexing-only baseline ${lexMs.toFixed(0)} ms → check/lex ratio ${(checkMs / lexMs).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
