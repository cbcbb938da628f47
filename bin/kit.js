#!/usr/bin/env node
// The `kit` command: runs the bundled CLI (out/bundle/kit.cjs, written by scripts/bundle.mjs) through
// V8's code cache (out/bundle/start.cjs, from server/src/cli/start.ts). CommonJS (bin/package.json):
// Node starts a CommonJS entry faster than an ES module one, and caches compiled code for it only.
const { join } = require('node:path');
require('../out/bundle/start.cjs').start(join(__dirname, '..', 'out', 'bundle', 'kit.cjs'));
