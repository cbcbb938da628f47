// The dev server's output directory that is not one: the files a build would write, served from
// memory, page bodies rendered only when the app first asks for them.
import type { StaticSource } from '../../../../shared/app/static-files.js';
import { plannedFiles, type CompiledSite } from '../../core/build/index.js';

/** Page bodies rendered when the app first asks for them; assets as compiled. */
export function memorySource(site: CompiledSite): {
  source: StaticSource;
  files: string[];
  cache: Record<string, string>;
} {
  const content = new Map<string, () => string | Uint8Array>();
  const cache: Record<string, string> = {};
  for (const f of plannedFiles(site)) {
    content.set(f.rel, f.content);
    if (f.cache !== undefined) cache[f.rel] = f.cache;
  }
  return {
    files: [...content.keys()].sort(),
    cache,
    source: {
      kind: 'dir',
      read(file) {
        const make = content.get(file);
        if (make === undefined) throw new Error(`no such file in the dev build: ${file}`);
        const body = make();
        return typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
      },
    },
  };
}
