// The binder: binds one directory at a time (the workspace's `bind:<dir>` bucket) against the
// exported functions of that directory's modules, through one shared BindingProgram. It owns the
// module texts it was given, so a changed module re-parses alone and only its directory re-binds.
import { posix } from 'node:path';
import type { Diagnostic, RelatedLocation } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/registry.js';
import { didYouMean } from '../diagnostics/suggest.js';
import { baseName, dirName } from '../model/names.js';
import type { CommentEndpoint } from '../model/handler-modules.js';
import { moduleExports, nodeRange, type ModuleExport, type ModuleExports } from './exports.js';
import { BindingProgram } from './program.js';
import { missingResultFields } from './result-fields.js';
import { ACCEPTED_SHAPES, classifyExport } from './signature.js';
import { commentTargets, type BindTarget } from './targets.js';
import type { FileBinding, HandlerBinding } from './types.js';
import type { TS } from './ts.js';

export interface BindOptions {
  /** `kit build --strict-bindings`: a missing or unusable handler is an error. */
  strictBindings?: boolean;
}

/**
 * A handler module as the binder sees it: its path and its `//kit:` comment endpoints (a workspace's
 * `ModuleEntry` is one); its text is `setModule`'s.
 */
export interface BindModule {
  path: string;
  summary: { endpoints: readonly CommentEndpoint[] };
}

/**
 * One directory to bind (`bind-scope.ts` makes it from the workspace's entries, a binding worker
 * from a message). `K` is what a `.kit` file is to the scope's owner: the workspace lends its
 * entries as they are, so re-binding a large directory allocates nothing per file.
 */
export interface BindScope<K extends { path: string } = { path: string }> {
  dir: string;
  /** The directory's package: a `.kit` file's `package` declaration, else the directory's name. */
  packageName: string;
  kits: readonly K[];
  /** What a `.kit` file needs bound (asked for only when its bindings are not kept). */
  targetsOf(kit: K): readonly BindTarget[];
  /** Whether each kit's bindings are kept for that object while no module changes (a worker's copies: no). */
  keep: boolean;
  modules: readonly BindModule[];
  /** Directories whose `.kit` files declare `package <name>`, with their modules (for `alias.Name` contracts). */
  packageModules(name: string): { dirs: string[]; modules: readonly BindModule[] };
}

export interface DirectoryBinding {
  dir: string;
  /** Per file (`.kit` files and modules with comment endpoints), sorted by path. */
  files: FileBinding[];
  diagnostics: Diagnostic[];
}

const LABEL: Record<HandlerBinding['target'], string> = {
  action: 'action handler',
  api: 'API handler',
  fragment: 'fragment hook',
  load: 'load function',
  command: 'command contract',
  query: 'query contract',
};

/** Endpoints that answer 501 without a bound function (a fragment without a hook serves its static body). */
function required(t: BindTarget): boolean {
  return t.target !== 'fragment';
}

/** `./handlers.js` for `dir/handlers.ts` seen from `dir`: the specifier an ES module would import. */
export function importPathFrom(fromDir: string, modulePath: string): string {
  let rel = posix.relative(fromDir.split('\\').join('/'), modulePath.split('\\').join('/'));
  if (!rel.startsWith('.')) rel = './' + rel;
  return rel.replace(/\.ts$/, '.js').replace(/\.mts$/, '.mjs');
}

const STUB_PREFERENCE = ['handlers.ts', 'handlers.mts', 'handlers.js', 'handlers.mjs'];

function stubFile(dir: string, modules: readonly BindModule[]): string {
  const names = modules.map((m) => baseName(m.path));
  const pick = STUB_PREFERENCE.find((n) => names.includes(n)) ?? names[0] ?? 'handlers.ts';
  return dir === '.' ? pick : `${dir}/${pick}`;
}

interface Found {
  module: BindModule;
  exp: ModuleExport;
  sf: TS.SourceFile;
}

/**
 * A `.kit` file's bindings as last computed, and under what: they hold while no module changed
 * (`Binder.moduleVersion`), with the same options and package. A directory re-binds whenever one of
 * its files changes shape; the other files' targets then bind exactly as before.
 */
interface FileBound {
  moduleVersion: number;
  condition: string;
  bindings: HandlerBinding[];
  diagnostics: Diagnostic[];
}

export class Binder {
  readonly program: BindingProgram;
  private readonly exportCache = new WeakMap<TS.SourceFile, ModuleExports>();
  /** Directories each directory read while binding (`alias.Name` contracts of other packages). */
  private readonly dependsOn = new Map<string, Set<string>>();
  private readonly importPaths = new Map<string, string>();
  /** Bumped by every module change: what a file bound to may have changed. */
  private moduleVersion = 0;
  private readonly bound = new WeakMap<object, FileBound>();

  constructor(cwd: string) {
    this.program = new BindingProgram(cwd);
  }

  /** `importPathFrom`, memoised: a directory's targets mostly import the same module. */
  private importPath(fromDir: string, modulePath: string): string {
    const key = `${fromDir}\u0000${modulePath}`;
    let p = this.importPaths.get(key);
    if (p === undefined) this.importPaths.set(key, (p = importPathFrom(fromDir, modulePath)));
    return p;
  }

  setModule(path: string, text: string): void {
    this.program.set(path, text);
    this.moduleVersion++;
  }

  removeModule(path: string): void {
    this.program.delete(path);
    this.moduleVersion++;
  }

  /** Parses `paths` and builds the type checker now, before binding asks (a worker warming up). */
  warm(paths: readonly string[]): void {
    for (const p of paths) this.program.sourceFile(p);
    this.program.typeChecker();
  }

  /** Forgets what the compiler built (`BindingProgram.release`); results already returned stay valid. */
  release(): void {
    this.program.release();
  }

  /** Directories whose bindings read modules of `dir` (to re-bind them when those modules change). */
  dependents(dir: string): string[] {
    const out: string[] = [];
    for (const [d, deps] of this.dependsOn) if (d !== dir && deps.has(dir)) out.push(d);
    return out;
  }

  private exportsOf(m: BindModule): { sf: TS.SourceFile; exports: ModuleExports } | undefined {
    const sf = this.program.sourceFile(m.path);
    if (!sf) return undefined;
    let ex = this.exportCache.get(sf);
    if (!ex) this.exportCache.set(sf, (ex = moduleExports(sf)));
    return { sf, exports: ex };
  }

  bindDirectory<K extends { path: string }>(scope: BindScope<K>, options: BindOptions = {}): DirectoryBinding {
    const packageName = scope.packageName;
    const out: DirectoryBinding = { dir: scope.dir, files: [], diagnostics: [] };
    this.dependsOn.delete(scope.dir);
    const byFile = new Map<string, HandlerBinding[]>();
    const deps = new Set<string>();
    const bind = (t: BindTarget, diagnostics: Diagnostic[]): HandlerBinding => {
      const b = this.bindTarget(t, scope, packageName, options, diagnostics, deps);
      let list = byFile.get(t.file);
      if (!list) byFile.set(t.file, (list = []));
      list.push(b);
      return b;
    };
    const condition = `${packageName}\u0000${options.strictBindings === true}`;
    for (const k of scope.kits) {
      const was = scope.keep ? this.bound.get(k) : undefined;
      if (was && was.moduleVersion === this.moduleVersion && was.condition === condition) {
        if (was.bindings.length) byFile.set(k.path, [...was.bindings]);
        for (const d of was.diagnostics) out.diagnostics.push(d);
        continue;
      }
      const targets = scope.targetsOf(k);
      const diagnostics: Diagnostic[] = [];
      const bindings = targets.map((t) => bind(t, diagnostics));
      for (const d of diagnostics) out.diagnostics.push(d);
      // A contract of another package reads which directories declare that package: not kept.
      if (scope.keep && !targets.some((t) => t.otherPackage !== undefined))
        this.bound.set(k, { moduleVersion: this.moduleVersion, condition, bindings, diagnostics });
    }
    for (const m of scope.modules) for (const t of commentTargets(m, packageName)) bind(t, out.diagnostics);
    if (deps.size) this.dependsOn.set(scope.dir, deps);
    out.files = [...byFile.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([file, handlers]) => ({ file, handlers }));
    return out;
  }

  private bindTarget(
    t: BindTarget,
    scope: BindScope,
    ownPackage: string,
    options: BindOptions,
    diags: Diagnostic[],
    deps: Set<string>,
  ): HandlerBinding {
    let dirs = [scope.dir];
    let modules = scope.modules;
    let packageName = ownPackage;
    if (t.otherPackage !== undefined) {
      const p = scope.packageModules(t.otherPackage);
      for (const d of p.dirs) deps.add(d);
      dirs = p.dirs;
      modules = p.modules;
      packageName = t.otherPackage;
    } else if (t.commentModule) {
      modules = scope.modules.filter((m) => m.path === t.commentModule);
    }
    const b: HandlerBinding = {
      target: t.target,
      name: t.name,
      functionName: t.functionName,
      file: t.file,
      range: t.range,
      ownerId: t.ownerId,
      status: 'missing',
      packageName,
      dir: dirs[0] ?? scope.dir,
    };
    const prefix = `${t.ownerId}: `;
    const what = `${LABEL[t.target]} ${t.functionName}`;
    if (t.otherPackage !== undefined && dirs.length === 0) {
      // The other package is not part of this run: nothing to say about it.
      return { ...b, message: `package ${t.otherPackage} is not part of this run; ${what} cannot be checked` };
    }
    const declared: Found[] = [];
    const indirect: Found[] = [];
    const starFrom: string[] = [];
    const exported: string[] = [];
    for (const m of modules) {
      const ex = this.exportsOf(m);
      if (!ex) continue;
      exported.push(...ex.exports.named.keys());
      const named = ex.exports.named.get(t.functionName);
      if (named && named.form !== 'reexport') declared.push({ module: m, exp: named, sf: ex.sf });
      else if (named) indirect.push({ module: m, exp: named, sf: ex.sf });
      const def = ex.exports.defaults.get(t.functionName);
      if (def) indirect.push({ module: m, exp: def, sf: ex.sf });
      for (const s of ex.exports.starFrom) starFrom.push(`${baseName(m.path)}: export * from "${s}"`);
    }
    const strict = (reason: string) => {
      if (options.strictBindings && required(t)) {
        diags.push(
          diag(
            'backend_binding_required',
            t.file,
            t.range,
            `${prefix}${what} must be bound for a production build: ${reason}`,
          ),
        );
      }
    };

    if (declared.length > 1) {
      const names = declared.map((f) => baseName(f.module.path));
      const message =
        `${t.functionName} is exported by ${names.length} modules (${names.join(', ')}); kit binds ` +
        `one function per name in a directory — keep one`;
      const related: RelatedLocation[] = declared.map((f) => ({
        file: f.module.path,
        range: nodeRange(f.sf, f.exp.nameNode),
        message: `${t.functionName} exported here`,
      }));
      diags.push(diag('ambiguous_backend_handler', t.file, t.range, `${prefix}${message}`, { related }));
      strict(message);
      return { ...b, status: 'unsupported_signature', message };
    }

    if (declared.length === 1) {
      const f = declared[0];
      const located: HandlerBinding = {
        ...b,
        dir: dirName(f.module.path),
        module: f.module.path,
        importPath: this.importPath(dirName(t.file), f.module.path),
        functionRange: nodeRange(f.sf, f.exp.nameNode),
      };
      // Where the user looks to fix an unsupported signature: the function, beside the endpoint.
      const here = (): { related: RelatedLocation[] } => ({
        related: [{ file: f.module.path, range: located.functionRange!, message: `${t.functionName} declared here` }],
      });
      if (f.exp.form === 'not-function') {
        const message =
          `${t.functionName} in ${baseName(f.module.path)} is ${f.exp.detail}; kit binds exported ` +
          `functions (function declarations, or const arrow functions and function expressions) with the shape ` +
          `${ACCEPTED_SHAPES[t.target]}`;
        diags.push(diag('unsupported_backend_signature', t.file, t.range, `${prefix}${message}`, here()));
        strict(message);
        return { ...located, status: 'unsupported_signature', message };
      }
      const c = this.program.timed(() => classifyExport(this.program, f.sf, f.exp, t.target));
      const withSig: HandlerBinding = { ...located, signatureText: c.signatureText };
      if (c.resultType) withSig.resultType = c.resultType;
      if (!c.ok) {
        const message =
          `${what} has an unsupported signature ${c.signatureText}: ${c.problem}; accepted: ` +
          `${ACCEPTED_SHAPES[t.target]}`;
        diags.push(diag('unsupported_backend_signature', t.file, t.range, `${prefix}${message}`, here()));
        strict(message);
        return { ...withSig, status: 'unsupported_signature', message };
      }
      const bound: HandlerBinding = { ...withSig, status: 'bound', signature: c.signature };
      if (t.target === 'load' && t.fields?.length) {
        const fields = t.fields;
        for (const field of this.program.timed(() => missingResultFields(this.program, f.exp, fields))) {
          diags.push(
            diag(
              'load_missing_field',
              t.file,
              field.range,
              `${prefix}${t.functionName} returns no field "${field.text}", which server {} declares and the ` +
                'view reads; return it from the load, or remove it from server {}',
            ),
          );
        }
      }
      if (c.inputType) bound.inputType = c.inputType;
      if (c.inputFields) bound.inputFields = c.inputFields;
      return bound;
    }

    if (indirect.length > 0) {
      const f = indirect[0];
      const file = baseName(f.module.path);
      const message =
        f.exp.form === 'reexport'
          ? `${t.functionName} is only re-exported by ${file} (from "${f.exp.from}"); kit binds functions ` +
            `declared in the directory's own modules, so that each directory binds on its own and the generated ` +
            `app imports the declaring module — declare ${t.functionName} here or export a wrapper function`
          : `${t.functionName} is the default export of ${file}; kit binds named exports only (the declared ` +
            `symbol names the export, and a default export has no exported name) — write export function ` +
            `${t.functionName}`;
      diags.push(
        diag('unsupported_backend_signature', t.file, t.range, `${prefix}${message}`, {
          related: [
            {
              file: f.module.path,
              range: nodeRange(f.sf, f.exp.nameNode),
              message: `${t.functionName} ${f.exp.form === 'reexport' ? 're-exported' : 'default-exported'} here`,
            },
          ],
        }),
      );
      strict(message);
      return { ...b, status: 'unsupported_signature', module: f.module.path, message };
    }

    const stub = stubFile(dirs[0] ?? scope.dir, modules);
    const stubBase = baseName(stub);
    const where = t.commentModule
      ? `${baseName(t.commentModule)} does not export ${t.functionName}`
      : `no module in the directory exports ${t.functionName}`;
    const star = starFrom.length ? ` (re-exports are not followed: ${starFrom.join('; ')})` : '';
    // A near miss (`save` for `Save`, `LoadBlogPsot`): exports of the modules this target reads, so
    // the suggestion follows the directory's re-binding.
    const near = didYouMean(t.functionName, exported);
    const message = required(t)
      ? `${what} is not implemented: ${where}${star}; add it to ${stubBase} with the shape ` +
        `${ACCEPTED_SHAPES[t.target]}${near}`
      : `${what} is not declared; the fragment's static body is served (add ${t.functionName}(ctx) to ` +
        `${stubBase} to handle requests)`;
    if (required(t)) {
      if (options.strictBindings) strict(`${where}${star}; add it to ${stubBase}${near}`);
      else diags.push(diag('missing_backend_handler', t.file, t.range, `${prefix}${message}`));
    }
    return { ...b, message, stubFile: stub };
  }
}
