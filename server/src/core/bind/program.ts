// One `ts.Program` over every handler module of the workspace. It is built lazily, on the first
// question that needs the type checker, and rebuilt from the previous Program when modules change,
// so unchanged files keep their parsed and bound SourceFiles (only edited modules are re-parsed).
// Time spent inside the compiler API is accumulated for the benchmark and `KIT_BIND_STATS=1 kit routes`
// (with the global `performance`, which Node sets up on first use: importing node:perf_hooks cost
// every `kit check` ~1 ms at start-up).
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { MINI_LIB_NAME, MINI_LIB_TEXT } from './mini-lib.js';
import { typescript, type TS } from './ts.js';

interface ModuleFile {
  text: string;
  source?: TS.SourceFile;
}

export interface CompilerStats {
  /** Milliseconds spent in TypeScript calls: loading the module, parsing, creating Programs, checker queries. */
  compilerMs: number;
  /** Programs created (one per batch run; one more after each edit that needs the checker). */
  programs: number;
  /** Source files parsed. */
  parsed: number;
}

function toPosix(p: string): string {
  return p.split('\\').join('/');
}

/** How TypeScript reads a module: `.js`/`.mjs` as JavaScript, the rest as TypeScript. */
export function scriptKind(ts: typeof TS, file: string): TS.ScriptKind {
  if (/\.m?js$/.test(file)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

export class BindingProgram {
  /** Keyed by absolute, `/`-separated file name (the Program's file names). */
  private readonly files = new Map<string, ModuleFile>();
  /** Files outside the workspace reached through relative imports, read from disk once. */
  private readonly disk = new Map<string, ModuleFile | null>();
  private program: TS.Program | undefined;
  private checker: TS.TypeChecker | undefined;
  private stale = true;
  private lib: TS.SourceFile | undefined;
  /** Nesting of `timed` calls: only the outermost one counts. */
  private depth = 0;
  readonly stats: CompilerStats = { compilerMs: 0, programs: 0, parsed: 0 };

  constructor(private readonly cwd: string) {}

  /** Workspace path → Program file name (asked once per target bound, so remembered). */
  private readonly names = new Map<string, string>();

  /** Program file name of a workspace path. */
  fileName(path: string): string {
    let name = this.names.get(path);
    if (name === undefined) this.names.set(path, (name = toPosix(isAbsolute(path) ? path : resolve(this.cwd, path))));
    return name;
  }

  set(path: string, text: string): void {
    const name = this.fileName(path);
    const old = this.files.get(name);
    if (old && old.text === text) return;
    this.files.set(name, { text });
    this.stale = true;
  }

  delete(path: string): void {
    if (this.files.delete(this.fileName(path))) this.stale = true;
  }

  get size(): number {
    return this.files.size;
  }

  /** Modules whose parsed form is held (none after `release()` until binding reads them again). */
  get parsedHeld(): number {
    let n = 0;
    for (const f of this.files.values()) if (f.source) n++;
    return n;
  }

  /** Runs `fn` and adds its duration to the compiler time. */
  timed<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.depth++;
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      this.depth--;
      this.stats.compilerMs += performance.now() - t0;
    }
  }

  /** The parsed module (parsed once per text version; the Program reuses the same object). */
  sourceFile(path: string): TS.SourceFile | undefined {
    const name = this.fileName(path);
    const f = this.files.get(name);
    if (!f) return undefined;
    return this.parse(name, f);
  }

  /**
   * Forgets everything parsed and checked (the module texts stay): the next question parses the
   * modules it reads again, and a type checker is built anew when one is needed. (The compiler
   * module itself stays loaded: optimised code of ours that inlined its functions keeps it alive.)
   */
  release(): void {
    for (const f of this.files.values()) f.source = undefined;
    this.disk.clear();
    this.program = undefined;
    this.checker = undefined;
    this.lib = undefined;
    this.stale = true;
  }

  private parse(name: string, f: ModuleFile): TS.SourceFile {
    if (!f.source) {
      f.source = this.timed(() => {
        const ts = typescript();
        const kind = scriptKind(ts, name);
        // Parent pointers cost a walk; the checker's binder sets them anyway. JavaScript needs them
        // up front, for reading JSDoc parameter types before any Program exists.
        const js = kind === ts.ScriptKind.JS;
        // TypeScript modules carry their types in syntax: their JSDoc is not parsed at all.
        const options = {
          languageVersion: ts.ScriptTarget.ES2022,
          jsDocParsingMode: js ? ts.JSDocParsingMode.ParseAll : ts.JSDocParsingMode.ParseNone,
        };
        return ts.createSourceFile(name, f.text, options, js, kind);
      });
      this.stats.parsed++;
    }
    return f.source;
  }

  /** The type checker of the current Program, rebuilding the Program when modules changed. */
  typeChecker(): TS.TypeChecker {
    if (this.stale || !this.checker) {
      this.timed(() => this.rebuild());
    }
    return this.checker!;
  }

  private rebuild(): void {
    const ts = typescript();
    const options: TS.CompilerOptions = {
      noLib: true,
      types: [],
      allowJs: true,
      checkJs: false,
      noEmit: true,
      strict: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      resolveJsonModule: false,
    };
    this.lib ??= ts.createSourceFile(MINI_LIB_NAME, MINI_LIB_TEXT, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    const host = this.host(ts, options);
    const roots = [MINI_LIB_NAME, ...[...this.files.keys()].sort()];
    this.program = ts.createProgram({ rootNames: roots, options, host, oldProgram: this.program });
    this.checker = this.program.getTypeChecker();
    this.stale = false;
    this.stats.programs++;
  }

  private readDisk(name: string): ModuleFile | null {
    let f = this.disk.get(name);
    if (f === undefined) {
      // Only sources reached by relative imports; packages under node_modules are never loaded.
      f = !name.includes('/node_modules/') && existsSync(name) ? { text: readFileSync(name, 'utf8') } : null;
      this.disk.set(name, f);
    }
    return f;
  }

  private host(ts: typeof TS, options: TS.CompilerOptions): TS.CompilerHost {
    const lookup = (name: string): ModuleFile | null => this.files.get(name) ?? this.readDisk(name);
    const host: TS.CompilerHost = {
      getSourceFile: (fileName) => {
        if (fileName === MINI_LIB_NAME) return this.lib;
        const f = lookup(fileName);
        return f ? this.parse(fileName, f) : undefined;
      },
      getDefaultLibFileName: () => MINI_LIB_NAME,
      writeFile: () => undefined,
      getCurrentDirectory: () => toPosix(this.cwd),
      getCanonicalFileName: (f) => f,
      useCaseSensitiveFileNames: () => true,
      getNewLine: () => '\n',
      fileExists: (fileName) => fileName === MINI_LIB_NAME || lookup(fileName) !== null,
      readFile: (fileName) => (fileName === MINI_LIB_NAME ? MINI_LIB_TEXT : lookup(fileName)?.text),
      directoryExists: () => true,
      getDirectories: () => [],
      resolveModuleNameLiterals: (literals, containingFile) =>
        literals.map((lit) => {
          // Relative imports only: handler input types live beside the handlers; loading package
          // typings would make binding cost depend on node_modules.
          if (!lit.text.startsWith('./') && !lit.text.startsWith('../')) return { resolvedModule: undefined };
          return ts.resolveModuleName(lit.text, containingFile, options, host);
        }),
    };
    return host;
  }
}
