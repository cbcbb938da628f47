// What a batch of watched paths changes in a `kit dev` workspace: the files read again (a saved file
// re-parsed incrementally), the files that came and went (discovery again, unless every path is a
// file the workspace holds), and other files pages or handlers read. The session rebuilds from it.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { crossShape } from '#core/model/cross-shape.js';
import { discoverSources, displayPath, SourceError } from '#core/project/discover.js';
import { readSourceFile, type SourceText } from '#core/project/read-source.js';
import type { Workspace } from '#core/workspace/workspace.js';

export interface ReadChanges {
  /** Display paths of the files that changed, came or went. */
  touched: Set<string>;
  /** A file came or went, or a `.kit` file changed what other files see (its shape). */
  full: boolean;
  /** A handler module (or a file one may import) changed, came or went. */
  modules: boolean;
}

/** Removes the files of `known` that discovery no longer finds (`present`); true when any went. */
function removeGone(ws: Workspace, known: string[], present: string[], touched: Set<string>): boolean {
  const now = new Set(present);
  let gone = false;
  for (const path of known) {
    if (now.has(path)) continue;
    ws.remove(path);
    touched.add(path);
    gone = true;
  }
  return gone;
}

/**
 * A changed file's text; or, when it went between discovery and this read (a folder renamed while
 * the batch was read: the watcher reports where it went next), undefined, the file removed from
 * `ws` and counted as touched.
 */
function readOrGone(ws: Workspace, cwd: string, path: string, touched: Set<string>): SourceText | undefined {
  const abs = resolve(cwd, path);
  try {
    return readSourceFile(abs, path);
  } catch (e) {
    if (!(e instanceof SourceError) || existsSync(abs)) throw e;
  }
  if (ws.has(path)) ws.remove(path);
  touched.add(path);
  return undefined;
}

function underChangedDir(path: string, changed: Set<string>): boolean {
  for (const c of changed) if (path.startsWith(c + '/')) return true;
  return false;
}

/**
 * Applies a batch of changed paths (absolute; files or directories, present or gone) to `ws`.
 * `readByPages`: whether a page's output was made from a file (a css or js file it links).
 */
export function readChanges(
  ws: Workspace,
  root: string,
  cwd: string,
  changedAbs: Iterable<string>,
  readByPages: (path: string) => boolean,
): ReadChanges {
  const changed = new Set<string>();
  for (const abs of changedAbs) changed.add(displayPath(abs, cwd));
  let found: { kitFiles: string[]; modules: string[] };
  // Saves of files the workspace holds (the common case) need no new look at the tree.
  const known = [...changed].every((p) => ws.has(p) && existsSync(resolve(cwd, p)));
  if (known) found = { kitFiles: ws.kitPaths(), modules: ws.modulePaths() };
  else {
    try {
      found = discoverSources([root], cwd);
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      found = { kitFiles: [], modules: [] };
    }
  }
  let full = false;
  let modules = false;
  const touched = new Set<string>();
  if (removeGone(ws, ws.kitPaths(), found.kitFiles, touched)) full = true;
  for (const path of found.kitFiles) {
    const old = ws.kit(path);
    if (old !== undefined && !changed.has(path) && !underChangedDir(path, changed)) continue;
    const read = readOrGone(ws, cwd, path, touched);
    if (read === undefined) {
      full = true;
      continue;
    }
    const { text, diagnostics } = read;
    if (old === undefined) {
      ws.setKitFile(path, text, undefined, diagnostics);
      full = true;
    } else if (old.text !== text || diagnostics.length > 0) {
      const shapeBefore = crossShape(old);
      if (diagnostics.length > 0) ws.setKitFile(path, text, undefined, diagnostics);
      else ws.editKitFile(path, text);
      if (crossShape(ws.kit(path)!) !== shapeBefore) full = true;
    } else continue;
    touched.add(path);
  }
  if (removeGone(ws, ws.modulePaths(), found.modules, touched)) modules = true;
  for (const path of found.modules) {
    const old = ws.module(path);
    if (old !== undefined && !changed.has(path) && !underChangedDir(path, changed)) continue;
    const read = readOrGone(ws, cwd, path, touched);
    if (read === undefined) {
      modules = true;
      continue;
    }
    const { text, diagnostics } = read;
    if (old !== undefined && old.text === text) continue;
    ws.setModule(path, text, diagnostics);
    touched.add(path);
    modules = true;
  }
  // Anything else that changed may be a css/js file a page reads, or a helper a handler imports.
  // An editor's temporary file, made and gone within the batch, is nothing.
  for (const path of changed) {
    if (touched.has(path) || path.endsWith('.kit')) continue;
    if (!existsSync(resolve(cwd, path)) && !readByPages(path)) continue;
    touched.add(path);
    if (/\.(m?[jt]s|tsx?|jsx?)$/.test(path)) modules = true;
  }
  return { touched, full, modules };
}
