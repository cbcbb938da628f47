#!/usr/bin/env node
// The `kit` command: the bundled CLI (out/bundle/kit.js, written by scripts/bundle.mjs), which loads
// a handful of files where the compiled modules (out/server/src/cli/main.js) are a few hundred.
// KIT_DEBUG turns on source maps first, so stack traces name the TypeScript sources.
if (process.env.KIT_DEBUG) process.setSourceMapsEnabled(true);
await import('../out/bundle/kit.js');
