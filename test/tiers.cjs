// The two test tiers and the rule that puts a test file in one of them, read by the mocha configs
// (.mocharc.cjs, .mocharc.unit.cjs, .mocharc.e2e.cjs) and by test/architecture/tiers.test.ts. A
// file's tier follows from its name, so a new test needs no list edited: `*.e2e.test.ts` and
// `*.browser.test.ts` (child processes, browsers, packing, network sockets) and `*.slow.test.ts`
// (in process, but too slow for the unit tier's budget) make the end-to-end tier; every other
// `*.test.ts` is a unit test, which the unit run's guard (test/helpers/tier-guard.ts) holds to
// that. Tests run from the compiled output; a compiled test whose source is gone (a renamed or
// deleted test, left behind in out/ because tsc never deletes) is not part of either tier.
'use strict';
const { existsSync, readdirSync } = require('node:fs');
const { join, relative, sep } = require('node:path');

const root = join(__dirname, '..');
const outTest = join(root, 'out', 'test');
const E2E = /\.(e2e|browser|slow)\.test\.(js|ts)$/;

/** 'e2e' or 'unit', from a test file's name (source or compiled). */
function tierOf(file) {
  return E2E.test(file) ? 'e2e' : 'unit';
}

/** Every compiled test file whose TypeScript source exists, relative to the root, sorted. */
function compiledTests() {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path !== join(outTest, 'fixtures')) walk(path);
      } else if (entry.name.endsWith('.test.js')) {
        const source = join(root, 'test', relative(outTest, path)).replace(/\.js$/, '.ts');
        if (existsSync(source)) found.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  if (existsSync(outTest)) walk(outTest);
  return found.sort();
}

/** The mocha configuration of one tier ('unit', 'e2e') or of the whole suite ('all'). */
function mochaConfig(tier) {
  const spec = compiledTests().filter((f) => tier === 'all' || tierOf(f) === tier);
  return {
    spec,
    timeout: 30000,
    reporter: 'spec',
    exit: true,
    // The unit run fails a test that spawns a process or opens a socket.
    ...(tier === 'unit' ? { require: [join(root, 'out', 'test', 'helpers', 'tier-guard.js')] } : {}),
  };
}

module.exports = { tierOf, compiledTests, mochaConfig };
