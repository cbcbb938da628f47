// Writes the starter site of `kit init` from `templates/starter/` in kit's package. Names starting
// with `_` or `gitignore` stand for dot names (`_vscode` → `.vscode`): npm leaves `.gitignore` out
// of packages, and dot folders would be skipped by kit's own source discovery. `{{name}}`,
// `{{kitVersion}}` and `{{kitSpec}}` (the dependency spec for kit, inside a JSON string) are filled in.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The starter's files in kit's package, found from this module's location (`out/server/src/cli/init/`). */
export function starterDir(): string {
  return fileURLToPath(new URL('../../../../../templates/starter/', import.meta.url));
}

/** An npm package name from a directory name: lowercase letters, digits, `-`, `.` and `_`. */
export function packageNameFor(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name || 'my-kit-site';
}

function targetName(name: string): string {
  if (name === 'gitignore') return '.gitignore';
  return name.startsWith('_') ? `.${name.slice(1)}` : name;
}

/** Files of the starter, as paths relative to the project, in a stable order. */
function listFiles(dir: string, rel = ''): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (const name of readdirSync(dir).sort()) {
    const from = join(dir, name);
    const to = rel ? `${rel}/${targetName(name)}` : targetName(name);
    if (statSync(from).isDirectory()) out.push(...listFiles(from, to));
    else out.push({ from, to });
  }
  return out;
}

/** Entries of a directory that make it "not empty" for `kit init` (a fresh git repository is empty). */
export function occupants(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => n !== '.git');
}

/** Writes the starter into `dir` (created if needed); answers the files written, relative to `dir`. */
export function writeStarter(dir: string, vars: { name: string; kitVersion: string; kitSpec: string }): string[] {
  const written: string[] = [];
  for (const f of listFiles(starterDir())) {
    const text = readFileSync(f.from, 'utf8')
      .replaceAll('{{name}}', vars.name)
      .replaceAll('{{kitVersion}}', vars.kitVersion)
      .replaceAll('{{kitSpec}}', JSON.stringify(vars.kitSpec).slice(1, -1));
    const target = join(dir, ...f.to.split('/'));
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(target, text);
    written.push(relative(dir, target).split(sep).join('/'));
  }
  return written;
}
