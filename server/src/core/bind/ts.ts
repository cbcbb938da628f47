// The TypeScript compiler module, loaded on first use: requiring it costs ~0.2 s, which a
// workspace without handler modules (or an editor session that never binds) must not pay.
import { createRequire } from 'node:module';
import type * as TS from 'typescript';

let mod: typeof TS | undefined;

export function typescript(): typeof TS {
  return (mod ??= createRequire(import.meta.url)('typescript') as typeof TS);
}

export type { TS };
