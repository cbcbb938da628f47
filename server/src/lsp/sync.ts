// How text reaches the projects' models: the editor's open documents (their text wins while they
// are open), and the disk for everything else (watched-file events, a document closed, the modules
// beside a new `.kit` file). Each function only changes a workspace, and tells the folder's page
// types writer which pages changed (it writes a moment later, only files whose text changes); the
// workspace tracks what its changes affect, and the server publishes that when it settles.
import { basename, dirname } from 'node:path';
import { FileChangeType } from 'vscode-languageserver/node';
import { discoverSources } from '#core/project/discover.js';
import { isAppConfigPath } from '#core/model/app-config.js';
import { isHandlerModulePath } from '#core/model/handler-modules.js';
import type { OpenDocuments } from './documents.js';
import { handlerModulesIn, type KitProject, readText } from './projects.js';

export function isKitPath(p: string): boolean {
  return p.endsWith('.kit');
}

/**
 * True when a handler module belongs in the model: it is already there, `.kit` files sit beside it,
 * or it is the app config at the folder's root.
 */
function moduleBelongs(p: KitProject, key: string, fsPath: string): boolean {
  if (p.ws.has(key) || (isAppConfigPath(key) && !key.includes('/') && p.root !== undefined)) return true;
  return p.ws.kitPaths().some((k) => dirname(p.fsPathOf(k)) === dirname(fsPath));
}

/** An open document's current text into its project's model (`.kit` files re-parse incrementally). */
export function syncDocument(p: KitProject, docs: OpenDocuments, fsPath: string): void {
  const d = docs.get(fsPath);
  if (!d || d.problem) return; // a too-large or binary text: the last good one stays in the model
  const key = p.keyOf(fsPath);
  const text = d.doc.getText();
  if (isKitPath(fsPath) || d.doc.languageId === 'kit') {
    const isNew = !p.ws.kit(key);
    if (p.ws.editKitFile(key, text) && isNew && d.uri.startsWith('file:')) loadModulesOf(p, docs, dirname(fsPath));
    p.types?.schedule(p.ws, [key]);
  } else if (isHandlerModulePath(basename(fsPath)) && moduleBelongs(p, key, fsPath)) {
    if (p.ws.module(key)?.text !== text) p.ws.setModule(key, text);
  }
}

/** Loads the handler modules of a directory that were not part of the model yet. */
export function loadModulesOf(p: KitProject, docs: OpenDocuments, dir: string): void {
  for (const fsPath of handlerModulesIn(dir)) {
    const key = p.keyOf(fsPath);
    if (p.ws.has(key)) continue;
    const open = docs.get(fsPath)?.doc.getText();
    const source = open !== undefined ? { text: open, diagnostics: [] } : readText(fsPath);
    if (source !== undefined) p.ws.setModule(key, source.text, source.diagnostics);
  }
}

/**
 * A document was closed: the disk's content takes over again. Answers false when the file left
 * the model (deleted meanwhile, or outside every folder).
 */
export function restoreFromDisk(p: KitProject, isLoose: boolean, fsPath: string): boolean {
  const key = p.keyOf(fsPath);
  const disk = isLoose ? undefined : readText(fsPath);
  p.types?.schedule(p.ws, [key]);
  if (disk === undefined) {
    if (p.ws.has(key)) p.ws.remove(key);
    return false;
  }
  if (isKitPath(fsPath) && p.ws.kit(key)?.text !== disk.text)
    p.ws.setKitFile(key, disk.text, undefined, disk.diagnostics);
  else if (p.ws.module(key) && p.ws.module(key)!.text !== disk.text) p.ws.setModule(key, disk.text, disk.diagnostics);
  return true;
}

/** A watched-file event for a file that is not open in the editor. */
export function applyFileChange(p: KitProject, docs: OpenDocuments, fsPath: string, type: FileChangeType): void {
  const key = p.keyOf(fsPath);
  if (isKitPath(fsPath)) p.types?.schedule(p.ws, [key]);
  if (type === FileChangeType.Deleted) {
    if (p.ws.has(key)) p.ws.remove(key);
    else {
      // A deleted directory: everything under it goes.
      const prefix = key.endsWith('/') ? key : `${key}/`;
      const gone = [...p.ws.kitPaths(), ...p.ws.modulePaths()].filter((k) => k.startsWith(prefix));
      for (const k of gone) p.ws.remove(k);
      p.types?.schedule(p.ws, gone);
    }
  } else if (isKitPath(fsPath)) {
    const source = readText(fsPath);
    if (source === undefined) {
      if (p.ws.has(key)) p.ws.remove(key);
      return;
    }
    const isNew = !p.ws.has(key);
    if (p.ws.kit(key)?.text !== source.text) p.ws.setKitFile(key, source.text, undefined, source.diagnostics);
    if (isNew) loadModulesOf(p, docs, dirname(fsPath));
  } else if (isHandlerModulePath(basename(fsPath))) {
    const source = readText(fsPath);
    if (source !== undefined && moduleBelongs(p, key, fsPath) && p.ws.module(key)?.text !== source.text)
      p.ws.setModule(key, source.text, source.diagnostics);
  } else if (type === FileChangeType.Created && p.root !== undefined) {
    // A directory created or moved in: index what it holds.
    let found: { kitFiles: string[]; modules: string[] };
    try {
      found = discoverSources([fsPath], p.root);
    } catch {
      return; // not a directory, or already gone
    }
    for (const k of found.kitFiles) {
      if (docs.has(p.fsPathOf(k))) continue;
      const source = readText(p.fsPathOf(k));
      if (source) p.ws.setKitFile(k, source.text, undefined, source.diagnostics);
    }
    p.types?.schedule(p.ws, found.kitFiles);
    for (const k of found.modules) {
      const source = p.ws.has(k) ? undefined : readText(p.fsPathOf(k));
      if (source) p.ws.setModule(k, source.text, source.diagnostics);
    }
  }
}
