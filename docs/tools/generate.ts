// `npm run docs`: regenerates the generated parts of the documentation (docs/cli.md from the
// command line's help, docs/app-api.md from the shipped declarations, docs/diagnostics.md from the
// diagnostics registry and the conformance corpus). With `--check` it writes nothing and exits 1
// when a page differs from what would be generated (the doc tests run the same comparison).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appApiReference } from './gen-app-api.js';
import { cliReference } from './gen-cli.js';
import { diagnosticsReference } from './gen-diagnostics.js';
import { repoRoot } from './pages.js';
import { firstDifference, replaceRegion } from './regions.js';

export interface Generated {
  page: string;
  region: string;
  make(): Promise<string>;
}

export const GENERATED: Generated[] = [
  { page: 'docs/cli.md', region: 'cli', make: cliReference },
  { page: 'docs/app-api.md', region: 'app-api', make: appApiReference },
  { page: 'docs/diagnostics.md', region: 'diagnostics', make: diagnosticsReference },
];

/** The page's text with its generated part made afresh. */
export async function regenerate(g: Generated, root: string = repoRoot): Promise<{ current: string; fresh: string }> {
  const current = readFileSync(join(root, g.page), 'utf8');
  return { current, fresh: replaceRegion(current, g.region, await g.make()) };
}

/** One line per generated page that differs from what would be generated now. */
export async function staleGenerated(root: string = repoRoot, which: Generated[] = GENERATED): Promise<string[]> {
  const out: string[] = [];
  for (const g of which) {
    const { current, fresh } = await regenerate(g, root);
    if (current !== fresh) out.push(`${g.page} is out of date (${firstDifference(current, fresh)}): run npm run docs`);
  }
  return out;
}

export async function main(): Promise<void> {
  if (process.argv.includes('--check')) {
    const stale = await staleGenerated();
    for (const s of stale) console.error(s);
    process.exitCode = stale.length ? 1 : 0;
    return;
  }
  for (const g of GENERATED) {
    const { current, fresh } = await regenerate(g);
    if (current !== fresh) writeFileSync(join(repoRoot, g.page), fresh);
    console.log(`${g.page}: ${current === fresh ? 'up to date' : 'regenerated'}`);
  }
}
