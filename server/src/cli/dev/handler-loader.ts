// Handler modules (and the app config) for `kit dev`: compiled by esbuild as `kit build --app`
// compiles them (bundled, split into shared chunks, inline source maps), written to a fresh version
// directory and imported from there. Node never forgets a module it imported, so every change is
// a new directory (a new URL) and the previous version keeps serving until the new one loaded.
// A module that fails to compile leaves the previous version in place and reports the errors as
// diagnostics with their source text, so that they print as `kit check` prints its own (code
// frames and all).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildContext, Message, OutputFile, Plugin } from 'esbuild';
import * as appRuntime from '#shared/app/index.js';
import * as routeRuntime from '#shared/route/index.js';
import * as traceRuntime from '#shared/trace/index.js';
import { loadEsbuild } from '#core/app/write-app.js';
import type { Diagnostic, RelatedLocation } from '#core/diagnostics/diagnostic.js';
import type { Pos } from '#grammar/index.js';

/** What handler code imports from kit (`@kit-lang/kit/<name>`): the very runtime `kit dev` serves with. */
const RUNTIME: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  app: appRuntime,
  route: routeRuntime,
  trace: traceRuntime,
};
const RUNTIME_GLOBAL = 'kit.dev.runtime';

/** A module re-exporting what the running runtime's `name` entry exports, read from a global. */
function runtimeModule(name: string): string {
  const lines = [`const m = globalThis[Symbol.for(${JSON.stringify(RUNTIME_GLOBAL)})][${JSON.stringify(name)}];`];
  for (const key of Object.keys(RUNTIME[name])) lines.push(`export const ${key} = m.${key};`);
  return lines.join('\n') + '\n';
}

/**
 * Imports of the kit runtime become the runtime this process runs, so that handlers and the dev
 * server share one instance of it (a `SafeHtml` a handler returns is the class the server checks
 * for, a `Tracer` the config exports the one it runs), wherever kit is installed and whether kit
 * runs bundled (its runtime inside the bundle, never loaded from `out/shared` as ES modules: that
 * cost the start about 50 ms) or not.
 */
function runtimePlugin(): Plugin {
  (globalThis as Record<symbol, unknown>)[Symbol.for(RUNTIME_GLOBAL)] = RUNTIME;
  return {
    name: 'kit-runtime',
    setup(build) {
      build.onResolve({ filter: /^@kit-lang\/kit\/(app|trace|route)$/ }, (args) => ({
        path: args.path.slice(args.path.lastIndexOf('/') + 1),
        namespace: 'kit-runtime',
      }));
      build.onLoad({ filter: /.*/, namespace: 'kit-runtime' }, (args) => ({
        contents: runtimeModule(args.path),
        loader: 'js',
      }));
    },
  };
}

export interface LoadedModules {
  /** Modules by workspace path. */
  byPath: Map<string, Record<string, unknown>>;
  version: number;
}

export interface CompileProblem {
  /** `file:line:col: error: text` lines, as `kit build --app` prints them (or why loading failed). */
  message: string;
  /** The compile errors with a place, as diagnostics (`handler_compile_error`). */
  diagnostics: Diagnostic[];
  /** The text of the files they are in (by the diagnostics' `file`), for their code frames. */
  sources: Map<string, string>;
}

export const COMPILE_ERROR = 'handler_compile_error';

function formatMessages(errors: Message[], cwd: string): string {
  return errors
    .map((e) =>
      e.location
        ? `${e.location.file}:${e.location.line}:${e.location.column + 1}: error: ${e.text}`
        : `error: ${e.text}`,
    )
    .map((line) => line.replace(cwd + '/', ''))
    .join('\n');
}

/** The position of esbuild's (1-based line, 0-based column in UTF-8 bytes) in `text`. */
function posIn(text: string, line: number, byteColumn: number, lineText: string): Pos {
  let offset = 0;
  for (let n = 1; n < line; n++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) break;
    offset = nl + 1;
  }
  const column = Buffer.from(lineText, 'utf8').subarray(0, byteColumn).toString('utf8').length;
  return { offset: offset + column, line: line - 1, column };
}

/** esbuild's errors with a place as diagnostics; `sources` gets the text of their files. */
function toDiagnostics(errors: Message[], cwd: string, sources: Map<string, string>): Diagnostic[] {
  const text = (file: string): string | undefined => {
    if (!sources.has(file)) {
      try {
        sources.set(file, readFileSync(resolve(cwd, file), 'utf8'));
      } catch {
        return undefined;
      }
    }
    return sources.get(file);
  };
  const range = (l: NonNullable<Message['location']>) => {
    const t = text(l.file);
    if (t === undefined) return undefined;
    const start = posIn(t, l.line, l.column, l.lineText);
    const end = posIn(t, l.line, l.column + Math.max(l.length, 0), l.lineText);
    return { start, end };
  };
  const out: Diagnostic[] = [];
  for (const e of errors) {
    const where = e.location ? range(e.location) : undefined;
    if (e.location === null || where === undefined) continue;
    const related: RelatedLocation[] = [];
    for (const n of e.notes) {
      const r = n.location ? range(n.location) : undefined;
      if (n.location && r) related.push({ file: n.location.file, range: r, message: n.text });
    }
    out.push({
      code: COMPILE_ERROR,
      severity: 'error',
      message: e.text,
      file: e.location.file,
      range: where,
      ...(related.length ? { related } : {}),
    });
  }
  return out;
}

export class HandlerLoader {
  private readonly scratch = mkdtempSync(join(tmpdir(), 'kit-dev-'));
  private context: BuildContext | undefined;
  private contextKey = '';
  private version = 0;
  private current: LoadedModules = { byPath: new Map(), version: 0 };

  constructor(private readonly cwd: string) {}

  /** The modules last loaded successfully. */
  get modules(): LoadedModules {
    return this.current;
  }

  /**
   * Compiles and imports `paths` (workspace paths of handler and config modules) as a new version.
   * On a compile or load error the previous version stays current and the problem is returned.
   */
  async load(paths: readonly string[]): Promise<CompileProblem | undefined> {
    return (await this.begin(paths))();
  }

  /**
   * `load` in two steps: resolves once esbuild (a process of its own) has the build request, with
   * the function that waits for its output and imports it. Synchronous work the caller does in
   * between (loading the workspace at start) runs beside the compile, on the other core.
   */
  async begin(paths: readonly string[]): Promise<() => Promise<CompileProblem | undefined>> {
    const version = ++this.version;
    if (paths.length === 0)
      return async () => {
        this.current = { byPath: new Map(), version };
        return undefined;
      };
    const esbuild = await loadEsbuild();
    const key = paths.join('\n');
    if (this.context === undefined || key !== this.contextKey) {
      await this.context?.dispose();
      this.contextKey = key;
      this.context = await esbuild.context({
        entryPoints: paths.map((p, i) => ({ in: resolve(this.cwd, p), out: `m${i}` })),
        outdir: join(this.scratch, 'out'),
        absWorkingDir: this.cwd,
        bundle: true,
        splitting: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        plugins: [runtimePlugin()],
        sourcemap: 'inline',
        sourcesContent: false,
        chunkNames: 'chunks/[name]-[hash]',
        logLevel: 'silent',
        charset: 'utf8',
        write: false,
      });
    }
    // Settled into a value at once: a failure must not count as unhandled while the caller is busy.
    const built = this.context.rebuild().then(
      (r) => ({ outputs: r.outputFiles ?? [] }),
      (e: unknown) => ({ error: e }),
    );
    return async () => {
      const r = await built;
      if ('error' in r) {
        const errors = (r.error as { errors?: Message[] }).errors;
        const sources = new Map<string, string>();
        return {
          message: errors ? formatMessages(errors, this.cwd) : String((r.error as Error)?.message ?? r.error),
          diagnostics: errors ? toDiagnostics(errors, this.cwd, sources) : [],
          sources,
        };
      }
      return this.install(paths, r.outputs, version);
    };
  }

  /** Writes a build's output to a version directory and imports it from there. */
  private async install(
    paths: readonly string[],
    outputs: readonly OutputFile[],
    version: number,
  ): Promise<CompileProblem | undefined> {
    // The version directory is a sibling of the (virtual) outdir at the same depth, so the source
    // maps' paths, relative to the outdir, lead back to the sources from there too.
    const dir = join(this.scratch, 'out');
    const versionDir = join(this.scratch, `v${version}`);
    for (const f of outputs) {
      const to = join(versionDir, f.path.slice(dir.length + 1));
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, f.contents);
    }
    const byPath = new Map<string, Record<string, unknown>>();
    try {
      for (let i = 0; i < paths.length; i++) {
        const url = pathToFileURL(join(versionDir, `m${i}.js`)).href;
        byPath.set(paths[i], (await import(url)) as Record<string, unknown>);
      }
    } catch (e) {
      return {
        message: `cannot load the handler modules: ${(e as Error)?.stack ?? String(e)}`,
        diagnostics: [],
        sources: new Map(),
      };
    } finally {
      // Loaded modules live in memory; the files are no longer needed (source maps are inline).
      rmSync(versionDir, { recursive: true, force: true });
    }
    this.current = { byPath, version };
    return undefined;
  }

  async close(): Promise<void> {
    await this.context?.dispose();
    this.context = undefined;
    rmSync(this.scratch, { recursive: true, force: true });
  }
}
