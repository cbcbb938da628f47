#!/usr/bin/env node
// Runs every compiled benchmark (out/bench/**/*.bench.js) in its own process, one after another,
// so that allocation and timing figures of one case never leak into another.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const benchOut = join(root, 'out', 'bench');
const only = process.argv.slice(2);

function walk(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) found.push(...walk(p));
    else if (name.endsWith('.bench.js')) found.push(p);
  }
  return found;
}

let failed = 0;
for (const file of walk(benchOut)) {
  const rel = relative(benchOut, file);
  if (only.length && !only.some((o) => rel.includes(o))) continue;
  console.log(`\n=== ${rel}`);
  const r = spawnSync(process.execPath, ['--expose-gc', file], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) {
    failed++;
    console.log(`!!! ${rel} exited with ${r.status}`);
  }
}
process.exit(failed ? 1 : 0);
