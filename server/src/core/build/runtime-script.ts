// The SPA link runtime emitted as `assets/kit/kit.js`: `shared/client/kit-nav.js` followed by
// `shared/client/kit-forms.js` (partial and command forms) when that file exists. The sources are
// plain browser JavaScript read from the repository at build time (no build step).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const KIT_JS_PATH = 'assets/kit/kit.js';
export const KIT_JS_TAG = '<script src="/assets/kit/kit.js" defer></script>';

/** The `shared/client` directory, found by walking up from this module (source or compiled output). */
export function clientSourceDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'shared', 'client', 'kit-nav.js');
    if (existsSync(candidate)) return dirname(candidate);
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('shared/client/kit-nav.js not found above ' + dirname(fileURLToPath(import.meta.url)));
    dir = parent;
  }
}

let cached: string | undefined;

/** `kit-nav.js`, then `kit-forms.js` when present, in that order. */
export function kitRuntimeSource(): string {
  if (cached !== undefined) return cached;
  const dir = clientSourceDir();
  let src = readFileSync(join(dir, 'kit-nav.js'), 'utf8');
  const forms = join(dir, 'kit-forms.js');
  if (existsSync(forms)) {
    if (!src.endsWith('\n')) src += '\n';
    src += readFileSync(forms, 'utf8');
  }
  cached = src;
  return src;
}
