// Renaming `.kit` files and folders (`workspace/willRenameFiles`): the edits that keep what names
// them true, made before the files move. A layout's ID is its file name, so its `layout` lines
// follow; a component whose name follows its file name (`card.cmp.kit`, `component Card`) is
// renamed with its calls; a page whose ID is its file name keeps its `Load<PageID>` export bound;
// a folder whose name is its package's keeps the `use` lines naming it. What cannot follow (a file
// moved into another package) is reported, not guessed.
import type { TextEdit } from 'vscode-languageserver';
import type { Range } from '#grammar/index.js';
import { fileKindFromPath } from '#grammar/index.js';
import type { KitEntry } from '#core/model/entries.js';
import { baseName, dirName, layoutIdFromPath, loadFunctionName, pageIdFromPath } from '#core/model/names.js';
import { stringSpanRange } from '#core/model/ranges.js';
import { layoutKey, packageOfUse } from '#core/resolve/names.js';
import { toRange } from '../convert.js';
import type { FeatureContext } from './context.js';
import { handlerExport, symbolChanges } from './navigation.js';

export interface FileRename {
  /** Workspace paths (a folder's path for a folder). */
  oldPath: string;
  newPath: string;
}

export interface FileRenameResult {
  changes: Record<string, TextEdit[]>;
  /** What the rename leaves for the user to fix, one line each. */
  left: string[];
}

const COMPONENT_NAME = /^[A-Z][A-Za-z0-9_]*$/;

/** `blog-card` → `BlogCard`. */
function componentNameOf(base: string): string {
  return base
    .split(/[-_.\s]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

const loose = (s: string) => s.replace(/[-_.\s]/g, '').toLowerCase();

function stripKind(base: string): string {
  return base.replace(/(\.cmp|\.layout|\.page)?\.kit$/, '');
}

/** The package a `.kit` file would be in at `path`: its own `package`, else the folder's name. */
function packageAt(e: KitEntry, path: string): string {
  return e.summary.packageDecl ? e.summary.packageName : baseName(dirName(path)) || 'main';
}

class Edits {
  readonly changes: Record<string, TextEdit[]> = {};
  readonly left: string[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly ctx: FeatureContext) {}

  add(file: string, range: Range, newText: string): void {
    const id = `${file}:${range.start.offset}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    (this.changes[this.ctx.uriOf(file)] ??= []).push({ range: toRange(range), newText });
  }

  merge(changes: Record<string, TextEdit[]>): void {
    for (const [uri, edits] of Object.entries(changes)) (this.changes[uri] ??= []).push(...edits);
  }

  leave(file: string, range: Range, what: string): void {
    this.left.push(`${file}:${range.start.line + 1}: ${what}`);
  }
}

function layoutFollows(ctx: FeatureContext, e: KitEntry, newPath: string, out: Edits): void {
  const s = e.summary;
  const newId = layoutIdFromPath(newPath);
  const newPkg = packageAt(e, newPath);
  if (newId === s.ownerId && newPkg === s.packageName) return;
  const key = `${s.packageName}.${s.ownerId}`;
  for (const user of ctx.ws.kitMembers(`luse:${key}`)) {
    for (const w of user.summary.layoutDecl?.layouts ?? []) {
      if (layoutKey(user.summary, w.text) !== key) continue;
      if (newPkg !== s.packageName) {
        out.leave(user.path, w.range, `layout ${w.text} moves to package ${newPkg}; name it from there`);
        continue;
      }
      const dot = w.text.indexOf('.');
      const alias = dot > 0 && user.summary.uses.has(w.text.slice(0, dot)) ? w.text.slice(0, dot + 1) : '';
      out.add(user.path, w.range, alias + newId);
    }
  }
}

function componentFollows(ctx: FeatureContext, e: KitEntry, newPath: string, out: Edits): void {
  const decl = e.summary.component;
  if (!decl || fileKindFromPath(newPath) !== 'component') return;
  const name = decl.name.text;
  if (loose(stripKind(baseName(e.path))) !== loose(name)) return;
  const newName = componentNameOf(stripKind(baseName(newPath)));
  if (newName === name || !COMPONENT_NAME.test(newName)) return;
  if (packageAt(e, newPath) !== e.summary.packageName) {
    out.leave(e.path, decl.name.range, `component ${name} moves to package ${packageAt(e, newPath)}; its calls stay`);
    return;
  }
  out.merge(symbolChanges(ctx, { kind: 'component', key: `${e.summary.packageName}.${name}`, name }, newName));
}

function loadFollows(ctx: FeatureContext, e: KitEntry, newPath: string, out: Edits): void {
  const s = e.summary;
  if (s.kind !== 'page' || s.pageIdDecl || !s.server || fileKindFromPath(newPath) !== 'page') return;
  const newId = pageIdFromPath(newPath);
  if (newId === s.ownerId) return;
  const exp = handlerExport(ctx, e.path, 'load', loadFunctionName(s.ownerId));
  if (!exp) return;
  if (dirName(exp.file) !== dirName(newPath)) {
    out.leave(
      exp.file,
      exp.range,
      `page ${newId} leaves the folder of its load function ${loadFunctionName(s.ownerId)}`,
    );
    return;
  }
  out.add(exp.file, exp.range, loadFunctionName(newId));
}

/**
 * `use` lines naming a folder that moves: a folder above a package (`use ui "shared/ui"` when
 * `shared` is renamed) changes the spelling only; the package's own folder changes the name a
 * `use` reads (its last element) when the folder's name is the package's, no `package` line there.
 */
function usesFollow(ctx: FeatureContext, oldDir: string, newDir: string, out: Edits): void {
  const all = ctx.ws.allKit();
  const own = all.filter((e) => dirName(e.path) === oldDir);
  const renamesPackage =
    own.length > 0 && own.every((e) => !e.summary.packageDecl) && baseName(oldDir) !== baseName(newDir);
  const oldPkg = baseName(oldDir);
  // Another folder of the same package name: a `use` of that name may mean either.
  const shared = renamesPackage && all.some((e) => dirName(e.path) !== oldDir && e.summary.packageName === oldPkg);
  for (const e of all) {
    for (const u of e.summary.uses.values()) {
      const spec = u.pkg.value;
      let next: string | undefined;
      // A folder above the package's: the spelling follows, the package (the last element) stays.
      if (spec.startsWith(oldDir + '/')) next = newDir + spec.slice(oldDir.length);
      else if (renamesPackage && packageOfUse(spec) === oldPkg) {
        if (shared) {
          out.leave(e.path, u.pkg.range, `use ${u.alias.text} "${spec}": another folder is package ${oldPkg} too`);
          continue;
        }
        next = spec.slice(0, spec.length - oldPkg.length) + baseName(newDir);
      }
      if (next !== undefined && next !== spec)
        out.add(e.path, stringSpanRange(e.ast, u.pkg, { start: 0, end: spec.length }), next);
    }
  }
}

/** The edits that keep the workspace's names true when `renames` happen (files and folders). */
export function fileRenameEdits(ctx: FeatureContext, renames: readonly FileRename[]): FileRenameResult {
  const out = new Edits(ctx);
  for (const { oldPath, newPath } of renames) {
    const e = ctx.ws.kit(oldPath);
    if (e) {
      layoutFollows(ctx, e, newPath, out);
      componentFollows(ctx, e, newPath, out);
      loadFollows(ctx, e, newPath, out);
    } else if (ctx.ws.allKit().some((k) => k.path.startsWith(oldPath + '/'))) {
      // A folder: the files inside keep their names, so only the package it may name changes.
      usesFollow(ctx, oldPath, newPath, out);
    }
  }
  return { changes: out.changes, left: out.left };
}
