// The dev server's output directory that is not one: the files a build would write, served from
// memory, page bodies rendered only when the app first asks for them. A lazy compile's asset files
// (the first app of `kit dev`, before every page compiled) are looked up as they are asked for.
import type { StaticFile } from '#shared/app/manifest.js';
import type { StaticSource } from '#shared/app/static-files.js';
import { servedFile } from '#core/app/route-table.js';
import { plannedAsset, plannedFiles, type CompiledSite, type PlannedFile } from '#core/build/index.js';

/** Page bodies rendered when the app first asks for them; assets as compiled. */
export function memorySource(site: CompiledSite): {
  source: StaticSource;
  files: string[];
  cache: Record<string, string>;
} {
  const content = new Map<string, () => string | Uint8Array>();
  const cache: Record<string, string> = {};
  const add = (f: PlannedFile) => {
    content.set(f.rel, f.content);
    if (f.cache !== undefined) cache[f.rel] = f.cache;
  };
  for (const f of plannedFiles(site)) add(f);
  const files = [...content.keys()].sort();
  const lazy = site.lazy;
  /** An asset a page compiled since (every asset is below `assets/`). */
  const late = (file: string): PlannedFile | undefined => {
    const asset = lazy !== undefined && file.startsWith('assets/') ? lazy.asset(file) : undefined;
    if (asset === undefined) return undefined;
    const f = plannedAsset(asset);
    add(f);
    return f;
  };
  return {
    files,
    cache,
    source: {
      kind: 'dir',
      read(file) {
        const make = content.get(file) ?? late(file)?.content;
        if (make === undefined) throw new Error(`no such file in the dev build: ${file}`);
        const body = make();
        return typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
      },
      ...(lazy !== undefined
        ? {
            lookup(key: string): StaticFile | undefined {
              const f = content.has(key) ? undefined : late(key);
              return f && servedFile(f.rel, f.cache);
            },
          }
        : {}),
    },
  };
}
