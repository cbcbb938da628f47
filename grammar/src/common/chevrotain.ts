// The Chevrotain runtime the grammar uses. The package's entry point loads lodash-es as several
// hundred separate modules, which made loading it most of every `kit` command's start-up; the same
// package also ships its code as one pre-built module (`lib/chevrotain.mjs`, same version), which
// loads in a few milliseconds. That file is not in the package's `exports`, so it is found next to
// the entry point; if it is missing the entry point is used. The bundles (the CLI's, the VS Code
// extension's) replace this module with a plain re-export (scripts/esbuild-plugins.mjs), which
// reads the export line below.
import type * as Chevrotain from 'chevrotain';

async function load(): Promise<typeof Chevrotain> {
  try {
    return (await import(new URL('../chevrotain.mjs', import.meta.resolve('chevrotain')).href)) as typeof Chevrotain;
  } catch {
    return await import('chevrotain');
  }
}

export const { createToken, EmbeddedActionsParser, EOF, Lexer, tokenMatcher } = await load();
