// The names and the assets manifest's text of the two manifests every static output has:
// `kit-routes.json` (the routes report) and `kit-assets.json` (every other file with its hash and
// size, and the cache policies). Without imports, so that the build cache (`cli/build/`) names
// them without loading the writer.

export const ROUTES_MANIFEST = 'kit-routes.json';
export const ASSETS_MANIFEST = 'kit-assets.json';

function sortKeys<T>(m: ReadonlyMap<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of [...m.keys()].sort()) out[k] = m.get(k)!;
  return out;
}

/** The assets manifest's text: every file with its hash and size, and the cache policies. */
export function assetsManifestText(
  hashes: ReadonlyMap<string, string>,
  sizes: ReadonlyMap<string, number>,
  cache: ReadonlyMap<string, string>,
): string {
  const manifest = {
    version: 1,
    files: [...hashes.keys()].sort(),
    hashes: sortKeys(hashes),
    sizes: sortKeys(sizes),
    cache: sortKeys(cache),
  };
  return JSON.stringify(manifest, null, 2) + '\n';
}
