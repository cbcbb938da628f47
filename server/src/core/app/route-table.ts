// The generated app's route table (shared/app/manifest.ts) as a projection of the checked
// workspace: page rows and endpoint rows of the report model (guards, CSRF, params, bindings),
// the compiled site (template IR, prerendered files) and the static output's asset manifest.
import { readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Element, Range } from '#grammar/index.js';
import type {
  AppManifest,
  CorsPolicy,
  EndpointEntry,
  HandlerRef,
  PageEntry,
  StaticFile,
} from '#shared/app/manifest.js';
import { MANIFEST_VERSION } from '#shared/app/manifest.js';
import { hasTokenForms, type Template } from '#shared/render/index.js';
import type { CompiledPage, CompiledSite } from '../build/index.js';
import { ASSETS_MANIFEST, clientSourceDir, ROUTES_MANIFEST } from '../build/index.js';
import type { HandlerBinding } from '../bind/types.js';
import { isAppConfigPath } from '../model/app-config.js';
import { actionConstraints } from '../model/form-fields.js';
import { loadFunctionName } from '../model/names.js';
import type { FileSummary } from '../model/summary.js';
import { walkElements } from '../model/markup-memo.js';
import type { Workspace } from '../workspace/workspace.js';
import { buildReportModel, type EndpointInfo, type PageInfo } from '../report/model.js';

export class AppBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AppBuildError';
  }
}

/** Content types the app serves by extension; files of other kinds in the output are not served. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = Object.freeze({
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  wasm: 'application/wasm',
  webmanifest: 'application/manifest+json',
});

/** Build metadata that is never served. */
const PRIVATE_FILES = new Set([ROUTES_MANIFEST, ASSETS_MANIFEST]);

export interface RouteTable {
  manifest: AppManifest;
  /** Handler and config modules the app imports: workspace path → key used in the route table. */
  modules: Map<string, string>;
  /** Absolute directory the module keys are relative to (not written into the app). */
  sourceRoot: string;
  /** The app config module (`kit.config.ts`), if the sources have one. */
  configModule?: string;
  /** Static files to copy: output-relative file path (as on disk). */
  staticFiles: string[];
  /** Notes for the build's stderr (files not served, say). */
  notes: string[];
}

/** The output's files and their cache policies: `kit-assets.json` of a build, or planned in memory (`kit dev`). */
export interface OutputFiles {
  files: string[];
  cache?: Record<string, string>;
}

function decodeKey(file: string): string {
  if (!file.includes('%')) return file;
  return file
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    })
    .join('/');
}

function extension(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The directory all module paths are made relative to for their route-table keys. */
export function commonDir(paths: readonly string[], cwd: string): string {
  if (paths.length === 0) return resolve(cwd);
  // Each directory once: a site's thousand pages sit in a few directories.
  const dirs = [...new Set(paths.map((p) => p.slice(0, Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1)))];
  let parts = resolve(cwd, dirs[0], 'x').split(/[\\/]/).slice(0, -1);
  for (const d of dirs.slice(1)) {
    const q = resolve(cwd, d, 'x').split(/[\\/]/).slice(0, -1);
    let n = 0;
    while (n < parts.length && n < q.length && parts[n] === q[n]) n++;
    parts = parts.slice(0, n);
  }
  return parts.join('/') || '/';
}

function handlerRef(
  b: HandlerBinding | undefined,
  exportName: string,
  modules: Map<string, string>,
  where: { cwd: string; root: string },
): HandlerRef {
  if (!b) return { status: 'missing', export: exportName };
  const ref: HandlerRef = { status: b.status, export: b.functionName };
  if (b.status === 'bound' && b.module) {
    ref.module = modules.get(b.module);
    ref.signature = b.signature;
    if (b.inputType) ref.inputType = b.inputType;
    if (b.inputFields) ref.inputFields = b.inputFields.map((f) => ({ ...f }));
    if (b.functionRange) ref.source = sourceRef(b.module, b.functionRange, where.cwd, where.root);
  }
  if (b.message) ref.message = b.message;
  return ref;
}

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : undefined;
}

function corsPolicy(s: FileSummary | undefined, symbol: string): CorsPolicy | undefined {
  const decl = s?.apis.find((a) => a.symbol.text === symbol);
  const c = decl?.cors;
  if (!c) return undefined;
  const origins = (list(c.origins?.value) ?? []).map((o) => {
    if (o === '*') return '*';
    try {
      const u = new URL(o);
      return `${u.protocol}//${u.host}`;
    } catch {
      return o;
    }
  });
  const policy: CorsPolicy = { origins };
  const methods = list(c.methods?.value)?.map((m) => m.toUpperCase());
  if (methods) policy.methods = methods;
  const headers = list(c.headers?.value)?.map((h) => h.toLowerCase());
  if (headers) policy.headers = headers;
  const expose = list(c.expose?.value);
  if (expose) policy.expose = expose;
  if (c.credentials) policy.credentials = c.credentials.text === 'true';
  if (c.maxAge && /^[0-9]+$/.test(c.maxAge.text)) policy.maxAge = Number(c.maxAge.text);
  return policy;
}

function literalAttr(el: Element, name: string): string | undefined {
  const a = el.attrs.find((x) => x.name === name);
  if (!a?.value) return undefined;
  if (a.value.type === 'expr') return a.value.expr.type === 'path' ? a.value.expr.path.join('.') : undefined;
  return a.value.parts.every((p) => p.type === 'text')
    ? a.value.parts.map((p) => (p.type === 'text' ? p.value : '')).join('')
    : undefined;
}

/** `g:target` ids of the forms that post to `symbol` (the only targets its partial submissions may name). */
function partialTargets(s: FileSummary, symbol: string): string[] {
  const out = new Set<string>();
  if (!s.view) return [];
  walkElements(s.view.body, (el) => {
    if (el.name !== 'form' || literalAttr(el, 'g:post') !== symbol) return;
    const t = literalAttr(el, 'g:target');
    if (t) out.add(t);
  });
  return [...out].sort();
}

/** Workspace paths relative to the source root, for the last (cwd, root) asked about. */
let rootPaths: { cwd: string; root: string; paths: Map<string, string> } | undefined;

/** A workspace path relative to the source root, `/`-separated (remembered: `kit dev` asks again per change). */
function rootRelative(file: string, cwd: string, root: string): string {
  if (rootPaths?.cwd !== cwd || rootPaths.root !== root) rootPaths = { cwd, root, paths: new Map() };
  let rel = rootPaths.paths.get(file);
  if (rel === undefined) {
    const abs = resolve(cwd, file);
    // A file below the root (all of them, the root being their common directory) is its tail.
    const under = root.endsWith(sep) ? root : root + sep;
    rel = (abs.startsWith(under) ? abs.slice(under.length) : relative(root, abs)).split('\\').join('/');
    rootPaths.paths.set(file, rel);
  }
  return rel;
}

function sourceRef(
  file: string,
  range: Range,
  cwd: string,
  root: string,
): { file: string; line: number; column: number } {
  return {
    file: rootRelative(file, cwd, root),
    line: range.start.line + 1,
    column: range.start.column + 1,
  };
}

export interface RouteTableOptions {
  cwd: string;
  /** The static build output (`--out`), whose `kit-assets.json` lists the files to serve. */
  outDir: string;
  /** The files to serve, when they were not written (`kit dev` renders them on request). */
  files?: OutputFiles;
  appName: string;
  trace: boolean;
  /** The app directory being written (absolute): a traced build names the sources relative to it. */
  appDir?: string;
  /**
   * The directory module keys and span sources are relative to (absolute; default: the sources'
   * common directory). `kit dev` pins it to the project root, which its trace viewer is told once.
   */
  root?: string;
}

/** How the app serves an output file (`cache`: its planned Cache-Control); undefined for types it does not serve. */
export function servedFile(file: string, cache: string | undefined): StaticFile | undefined {
  const type = CONTENT_TYPES[extension(file)];
  return type === undefined ? undefined : { file, type, cache: cache ?? 'no-cache' };
}

/** The output's files the app serves, by decoded request path (build metadata and unknown types left out). */
function servedFiles(
  assets: OutputFiles,
  notes: string[],
): { staticTable: Record<string, StaticFile>; staticFiles: string[] } {
  const staticTable: Record<string, StaticFile> = {};
  const staticFiles: string[] = [];
  for (const file of [...assets.files].sort()) {
    if (PRIVATE_FILES.has(file)) continue;
    const served = servedFile(file, assets.cache?.[file]);
    if (served === undefined) {
      notes.push(`info: app_file_not_served: ${file} has a file type the app does not serve`);
      continue;
    }
    staticTable[decodeKey(file)] = served;
    staticFiles.push(file);
  }
  return { staticTable, staticFiles };
}

/** The built files of a page that the app serves, by the decoded request path they answer. */
function pageFiles(cp: CompiledPage, staticTable: Record<string, StaticFile>): Record<string, string> {
  const files: Record<string, string> = {};
  if (cp.render === 'ssr') return files;
  for (const pre of cp.prerender) {
    const key = decodeKey(pre.file);
    if (staticTable[key] !== undefined) files[decodeKey(pre.path)] = key;
  }
  return files;
}

/** The `paths` record of each built file of a page, by file key (none for a static route). */
function fileParams(
  cp: CompiledPage,
  staticTable: Record<string, StaticFile>,
): Record<string, Record<string, string>> | undefined {
  let out: Record<string, Record<string, string>> | undefined;
  for (const pre of cp.prerender) {
    const key = decodeKey(pre.file);
    if (staticTable[key] !== undefined && Object.keys(pre.params).length > 0) (out ??= {})[key] = { ...pre.params };
  }
  return out;
}

export function buildRouteTable(ws: Workspace, site: CompiledSite, opts: RouteTableOptions): RouteTable {
  const notes: string[] = [];
  const model = buildReportModel(ws);
  // ---- modules: every module a binding resolved to, plus the config module.
  const configs = ws.modulePaths().filter(isAppConfigPath);
  if (configs.length > 1)
    throw new AppBuildError(`several app config modules (${configs.join(', ')}); keep one kit.config file`);
  const used = new Set<string>();
  for (const p of model.pages) if (p.load?.status === 'bound' && p.load.module) used.add(p.load.module);
  for (const e of model.endpoints) if (e.binding?.status === 'bound' && e.binding.module) used.add(e.binding.module);
  const moduleList = [...used, ...configs].sort();
  const root = opts.root ?? commonDir([...moduleList, ...ws.kitPaths()], opts.cwd);
  const modules = new Map<string, string>();
  for (const m of moduleList) modules.set(m, relative(root, resolve(opts.cwd, m)).split('\\').join('/'));
  const where = { cwd: opts.cwd, root };

  // ---- static files from the build's asset manifest.
  let assets: OutputFiles;
  try {
    assets = opts.files ?? (JSON.parse(readFileSync(join(opts.outDir, ASSETS_MANIFEST), 'utf8')) as OutputFiles);
  } catch (e) {
    throw new AppBuildError(`cannot read ${ASSETS_MANIFEST} of the static build: ${(e as Error).message}`);
  }
  const { staticTable, staticFiles } = servedFiles(assets, notes);

  // ---- pages.
  const templates: Record<string, Template> = {};
  const byPage = new Map<string, PageInfo>(model.pages.map((p) => [p.pageId, p]));
  const pages: PageEntry[] = [];
  for (const cp of site.pages) {
    const info = byPage.get(cp.pageId);
    const files = pageFiles(cp, staticTable);
    const entry: PageEntry = {
      pageId: cp.pageId,
      package: cp.packageName,
      route: cp.route,
      render: cp.render,
      guards: [...cp.guards],
      layouts: [...cp.layouts],
      files,
      serverFields: [...cp.serverFields],
    };
    if (cp.cache !== undefined) entry.cache = cp.cache;
    // A page with actions is also kept for re-rendering when a submission fails (`fail`, 422), and
    // one whose built files hold a form posting here for writing their CSRF fields per request (a
    // lazy compile's page does not know yet: its template compiles when the app first renders it).
    const forms = Object.keys(files).length > 0 && (site.lazy !== undefined || hasTokenForms(cp.ir));
    if (cp.render !== 'spa' || (info?.summary.actions.length ?? 0) > 0 || forms) {
      entry.template = `page:${cp.pageId}`;
      if (site.lazy === undefined) templates[entry.template] = cp.ir;
      else Object.defineProperty(templates, entry.template, { get: () => cp.ir, enumerable: true, configurable: true });
    }
    if (forms) {
      const params = fileParams(cp, staticTable);
      if (params !== undefined) entry.fileParams = params;
    }
    if (cp.errorPage !== undefined) {
      entry.errorPage = cp.errorPage;
      templates[cp.errorPage] = site.errorPages[cp.errorPage];
    }
    if (info?.summary.server) entry.load = handlerRef(info.load, loadFunctionName(cp.pageId), modules, where);
    if (info) entry.source = sourceRef(info.file, info.range, opts.cwd, root);
    const guard = info?.summary.guardDecl;
    if (info && guard) entry.guardSource = sourceRef(info.file, guard.range, opts.cwd, root);
    pages.push(entry);
  }

  // ---- endpoints.
  const fragments = new Map(site.fragments.map((f) => [`${f.pageId}\u0000${f.name}`, f]));
  const endpoints: EndpointEntry[] = model.endpoints.map((e: EndpointInfo) => {
    const entry: EndpointEntry = {
      kind: e.kind,
      endpointSource: e.endpointSource,
      method: e.method,
      route: e.route,
      ...(e.paths ? { paths: e.paths.map(decodeKey) } : {}),
      pageId: e.pageId,
      package: e.package,
      symbol: e.symbol,
      guards: [...e.guards],
      csrf: e.csrf,
      handler: handlerRef(e.binding, e.binding?.functionName ?? e.symbol, modules, where),
      source: sourceRef(e.file, e.range, opts.cwd, root),
    };
    const guard = e.page?.summary.guardDecl;
    if (e.page && guard) entry.guardSource = sourceRef(e.page.file, guard.range, opts.cwd, root);
    if (e.kind === 'api') {
      const cors = corsPolicy(e.page?.summary, e.symbol);
      if (cors) entry.cors = cors;
    }
    if (e.kind === 'fragment') {
      const f = fragments.get(`${e.pageId}\u0000${e.symbol}`);
      const key = `fragment:${e.pageId}.${e.symbol}`;
      if (f) templates[key] = f.ir;
      entry.fragment = { target: f?.target ?? '', swap: 'innerHTML', ...(f ? { template: key } : {}) };
    }
    if (e.kind === 'action' && e.page) entry.partialTargets = partialTargets(e.page.summary, e.symbol);
    const constraints =
      e.kind === 'action' && e.page?.summary.view && actionConstraints(e.page.summary.view.body, e.symbol);
    if (constraints) entry.constraints = constraints;
    return entry;
  });

  const manifest: AppManifest = {
    version: MANIFEST_VERSION,
    app: opts.appName,
    pages,
    endpoints,
    static: staticTable,
    templates,
  };
  if (staticTable['404.html'] !== undefined) manifest.notFound = '404.html';
  if (opts.trace) {
    manifest.trace = true;
    // Relative to the app, so the table holds no machine path; the server resolves it against its own directory.
    if (opts.appDir !== undefined) manifest.sourceRoot = relative(opts.appDir, root).split('\\').join('/') || '.';
    manifest.traceBridge = readFileSync(join(clientSourceDir(), 'trace-bridge.js'), 'utf8');
  }
  const configModule = configs[0];
  return { manifest, modules, sourceRoot: root, configModule, staticFiles, notes };
}
