// Finds the sources of a run: `.kit` files under the given files and directories (skipping
// node_modules and dot folders) and the handler modules of the directories that hold them.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isHandlerModulePath } from '../model/handler-modules.js';

export class SourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceError';
  }
}

export interface DiscoveredSources {
  /** `.kit` files, sorted, as display paths (relative to cwd when inside it, `/` separators). */
  kitFiles: string[];
  /** Handler modules of the directories holding those files, sorted. */
  modules: string[];
}

/** Path as shown to users: relative to cwd when inside it, with `/` separators. */
export function displayPath(abs: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, abs);
  const shown = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
  return sep === '/' ? shown : shown.split(sep).join('/');
}

function walk(dir: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw new SourceError(`cannot read directory ${displayPath(dir)}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  for (const name of names) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue; // a dangling link is not a source
    }
    if (st.isDirectory()) walk(p, out);
    else if (name.endsWith('.kit') && st.isFile()) out.push(p);
  }
}

export function discoverSources(inputs: string[], cwd: string = process.cwd()): DiscoveredSources {
  const kit = new Set<string>();
  for (const input of inputs) {
    const abs = resolve(cwd, input);
    let st;
    try {
      st = statSync(abs);
    } catch {
      throw new SourceError(`no such file or directory: ${input}`);
    }
    if (st.isDirectory()) {
      const found: string[] = [];
      walk(abs, found);
      for (const f of found) kit.add(f);
    } else if (abs.endsWith('.kit')) kit.add(abs);
    else throw new SourceError(`not a .kit file: ${input}`);
  }
  const dirs = new Set<string>();
  for (const f of kit) dirs.add(resolve(f, '..'));
  const modules: string[] = [];
  for (const d of dirs) {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (isHandlerModulePath(name)) {
        try {
          if (statSync(p).isFile()) modules.push(p);
        } catch {
          /* vanished between listing and stat */
        }
      }
    }
  }
  const sortShown = (xs: Iterable<string>) => [...xs].map((x) => displayPath(x, cwd)).sort();
  return { kitFiles: sortShown(kit), modules: sortShown(modules) };
}
