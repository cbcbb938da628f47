// Which Markdown files are the documentation: the README and every page under docs/ (the tools'
// own folder aside). Every doc check walks this list, so a new page is checked by being written.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the directory holding kit's own package.json, above this module. */
export function repoRootFrom(start: string): string {
  let dir = start;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === '@kit-lang/kit')
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`kit repository root not found above ${start}`);
    dir = parent;
  }
}

export const repoRoot = repoRootFrom(dirname(fileURLToPath(import.meta.url)));

export interface Page {
  /** `/`-separated path from the root: `README.md`, `docs/routing.md`. */
  path: string;
  text: string;
}

function markdownUnder(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir)).sort()) {
    const rel = `${dir}/${name}`;
    if (name === 'tools' || name === 'node_modules') continue;
    if (statSync(join(root, rel)).isDirectory()) out.push(...markdownUnder(root, rel));
    else if (name.endsWith('.md')) out.push(rel);
  }
  return out;
}

/** The documentation pages under `root` (the repository, or a copy of it in a test). */
export function docPages(root: string = repoRoot): Page[] {
  const paths = ['README.md', ...markdownUnder(root, 'docs')];
  return paths.map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

/** A path relative to the root, `/`-separated, for messages. */
export function shown(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}
