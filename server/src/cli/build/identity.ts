// Which kit is building, as the build cache keys it: the version, and the code itself, so that a kit
// rebuilt from changed sources under the same version never reuses another's output. The bundled
// CLI carries its bundle's hash (stamped by scripts/bundle.mjs); the compiled tree run directly (the
// tests) hashes its own modules; TypeScript, which turns `js "./x.ts"` modules into JavaScript,
// counts with its version.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { version } from '../version.js';

let identity: string | undefined;

export function kitIdentity(): string {
  identity ??= `${version()}+${process.env.KIT_BUILD_ID || unbundledHash()}+ts${typescriptVersion()}`;
  return identity;
}

function typescriptVersion(): string {
  try {
    const req = createRequire(import.meta.url);
    return (JSON.parse(readFileSync(req.resolve('typescript/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'none';
  }
}

/** A hash of the compiled modules beside this one (`out/grammar`, `out/shared`, `out/server`). */
function unbundledHash(): string {
  const out = fileURLToPath(new URL('../../../../', import.meta.url));
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js')) hash.update(e.name).update(readFileSync(p));
    }
  };
  for (const d of ['grammar', 'shared', 'server']) walk(join(out, d));
  return hash.digest('hex').slice(0, 32);
}
