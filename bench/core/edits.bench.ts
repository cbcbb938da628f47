// What one keystroke costs the incremental engine, by the kind of edit, in a 5,000-file workspace:
// `editKitFile` and then what the language server does next (`takeAffected`, the diagnostics of
// every affected file). The language server benchmark times one kind (text inside a view) through
// the protocol; an edit that changes what other files see (a route, a page ID, a guard, a link)
// re-evaluates buckets, and a rule whose buckets are too wide shows only here: the first version of
// `broken_internal_link` made every keystroke in a route string re-check every link (200+ ms).
//
// Two workspaces: the benchmarks' generated site (ten pages to a directory, a handler module each,
// no broken link) and, when the Langium peer's workspace is there (`bench/core/langium-peer.bench.ts`
// writes it), the peer's 5,000 files (one directory, thousands of broken links and unknown guards).
// Median and p95 of 30 edits per kind (each edit and its undo, the slower of the two), after 6
// warm-up edits.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SUMMARIES, Workspace } from '#core/workspace/workspace.js';
import { generateSite } from '../fixtures/site-generator.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const peer = join(root, '.bench-work', 'langium', 'ws-5000');
const EDITS = 30;
const WARM = 6;

interface Kind {
  name: string;
  /** The edited text, or undefined when this file has nothing to edit of that kind. */
  edit(text: string): string | undefined;
}

const KINDS: Kind[] = [
  { name: 'text inside the view', edit: (t) => replaceOnce(t, /<h1>/, '<h1>x') },
  { name: 'route string', edit: (t) => replaceOnce(t, /^route "\//m, 'route "/x') },
  { name: 'page ID', edit: (t) => replaceOnce(t, /^page (\S+)/m, 'page $1x') },
  { name: 'guard', edit: (t) => replaceOnce(t, /^guard (\S+)/m, 'guard $1x') },
  { name: 'a link added', edit: (t) => replaceOnce(t, /<h1>/, '<a href="/elsewhere/page">L</a><h1>') },
  { name: 'action name', edit: (t) => replaceOnce(t, /^act (\w+)/m, 'act $1x') },
];

function replaceOnce(text: string, pattern: RegExp, by: string): string | undefined {
  return pattern.test(text) ? text.replace(pattern, by) : undefined;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))];
}

function measure(label: string, w: Workspace): void {
  w.allDiagnostics();
  const files = w.allKit().filter((e) => e.summary.kind === 'page');
  console.log(`${label}: ${w.allKit().length} .kit files, ${w.allDiagnostics().length} diagnostics`);
  for (const kind of KINDS) {
    const times: number[] = [];
    for (let i = 0; i < WARM + EDITS; i++) {
      const e = files[Math.floor(((i + 0.5) * files.length) / (WARM + EDITS))];
      const original = e.text;
      const edited = kind.edit(original);
      if (edited === undefined) continue;
      let ms = 0;
      for (const text of [edited, original]) {
        const t = performance.now();
        w.editKitFile(e.path, text);
        for (const f of w.takeAffected()) w.diagnosticsFor(f);
        ms = Math.max(ms, performance.now() - t);
      }
      if (i >= WARM) times.push(ms);
    }
    if (times.length === 0) continue;
    console.log(
      `  ${kind.name.padEnd(22)} median ${pct(times, 0.5).toFixed(2)} ms, p95 ${pct(times, 0.95).toFixed(2)} ms`,
    );
  }
}

// Loaded as the language server loads a folder from disk (one-shot trees, markup dropped once
// checked); the edited files then hold incremental trees, as documents open in an editor do.
const DISK = SUMMARIES;
const generated = new Workspace({ ssr: true }, process.cwd(), DISK);
const files = generateSite(5000, { handlers: true });
for (const f of files.filter((f) => f.path.endsWith('.kit'))) generated.setKitFile(f.path, f.text);
for (const f of files.filter((f) => !f.path.endsWith('.kit'))) generated.setModule(f.path, f.text);
measure('generated site (10 pages to a directory)', generated);

if (existsSync(peer)) {
  const w = new Workspace({ ssr: true }, join(peer, '..'), DISK);
  const dir = join(peer, 'pages');
  for (const name of readdirSync(dir).sort())
    w.setKitFile(`ws-5000/pages/${name}`, readFileSync(join(dir, name), 'utf8'));
  measure('Langium peer workspace (one directory)', w);
} else {
  console.log('Langium peer workspace not written yet (run bench/core/langium-peer.bench.ts first): skipped');
}
