// Content-hashed asset files of a build (`assets/css/…`, `assets/js/…`): one entry per distinct
// content, named `<name>.<first 10 hex of sha256>.<ext>`, so a changed file gets a new URL and an
// unchanged one keeps its cache.
import { hash } from 'node:crypto';

export interface SiteAsset {
  /** Output-relative path with `/` separators, e.g. `assets/css/layout-site-main.0a1b2c3d4e.css`. */
  path: string;
  content: string | Uint8Array;
  /** `sha256-<hex>` of the content. */
  sha256: string;
  /** Hashed names never change content: cacheable forever. */
  immutable: boolean;
}

/** SHA-256 in hex. One call, no hash object: a build hashes every page, source and key, some 20,000 small inputs. */
export function sha256Hex(content: string | Uint8Array): string {
  return hash('sha256', content, 'hex');
}

/** A file-name-safe rendering of an owner or file name. */
export function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'asset';
}

export class AssetRegistry {
  private readonly byPath = new Map<string, SiteAsset>();

  /** Registers content under `assets/<dir>/<name>.<hash>.<ext>` and returns its URL path. */
  hashed(dir: string, name: string, ext: string, content: string | Uint8Array): string {
    const hex = sha256Hex(content);
    const path = `assets/${dir}/${safeName(name)}.${hex.slice(0, 10)}.${ext}`;
    if (!this.byPath.has(path)) this.byPath.set(path, { path, content, sha256: `sha256-${hex}`, immutable: true });
    return '/' + path;
  }

  /** Registers content under a fixed path (the link runtime). */
  fixed(path: string, content: string | Uint8Array): string {
    this.byPath.set(path, { path, content, sha256: `sha256-${sha256Hex(content)}`, immutable: false });
    return '/' + path;
  }

  /** Takes over an asset of an earlier build (a page reused as it was). */
  adopt(asset: SiteAsset | undefined): void {
    if (asset !== undefined && !this.byPath.has(asset.path)) this.byPath.set(asset.path, asset);
  }

  /** The asset at an output path (`assets/css/…`), if registered. */
  get(path: string): SiteAsset | undefined {
    return this.byPath.get(path);
  }

  /** Every asset, sorted by path. */
  list(): SiteAsset[] {
    return [...this.byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}
