// What an owner (a page, layout or component) brings into a build besides its markup: its
// stylesheets (a scoped `style {}`, a `css "./x.css"` file, a page's `css <name>` selection), its
// module scripts (`js`, TypeScript stripped), and its declared `asset`/`wasm`/`error` files, each
// read once per owner and registered under a content-hashed name. Every file read is remembered
// per owner (`readsOf`): a page's `dependsOn` lists them. A file that cannot be read is a
// diagnostic at its declaration, and the build writes nothing.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CssDecl, JsDecl, Range } from '#grammar/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/registry.js';
import { typescript } from '../bind/ts.js';
import { assetSpellings, declaredFiles } from '../model/asset-files.js';
import { dirName } from '../model/names.js';
import type { FileSummary } from '../model/summary.js';
import { displayPath, SourceError } from '../project/discover.js';
import { readSourceFile } from '../project/read-source.js';
import type { AssetRegistry } from './assets.js';
import { scopeClassFor, scopeCss } from './css-scope.js';

export class OwnerAssets {
  /** Per owner summary: its stylesheets and its scripts (computed once each). */
  private readonly ownerCss = new WeakMap<FileSummary, string[]>();
  private readonly ownerJs = new WeakMap<FileSummary, string[]>();
  /** Per owner summary: the css/js/asset files it read (display paths). */
  private readonly ownerReads = new WeakMap<FileSummary, string[]>();
  private readonly ownerFiles = new WeakMap<FileSummary, ReadonlyMap<string, string>>();

  constructor(
    private readonly cwd: string,
    private readonly assets: AssetRegistry,
    private readonly diagnostics: Diagnostic[],
  ) {}

  /** The files `s`'s output was made from so far, besides its own (display paths). */
  readsOf(s: FileSummary): readonly string[] {
    return this.ownerReads.get(s) ?? [];
  }

  /** Remembers that `s`'s output was made from the file at `abs` (a page's `dependsOn`). */
  private noteRead(s: FileSummary, abs: string): void {
    let read = this.ownerReads.get(s);
    if (read === undefined) this.ownerReads.set(s, (read = []));
    read.push(displayPath(abs, this.cwd));
  }

  /** A css or js file: read by the sources' rules (a regular file within 8 MiB), else a diagnostic. */
  readSource(s: FileSummary, file: string, decl: CssDecl | JsDecl, what: string): string | undefined {
    const abs = resolve(this.cwd, dirName(s.path), file);
    this.noteRead(s, abs);
    try {
      return readSourceFile(abs, file).text;
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      const why = e.reason ?? 'error';
      this.diagnostics.push(
        diag(
          'missing_asset_file',
          s.path,
          decl.range,
          `${s.ownerId}: ${what} "${file}" cannot be read (${why === 'ENOENT' ? 'no such file' : why})`,
        ),
      );
      return undefined;
    }
  }

  private jsModule(s: FileSummary, decl: JsDecl): string | undefined {
    const file = decl.file.value;
    const src = this.readSource(s, file, decl, 'js module');
    if (src === undefined) return undefined;
    const base = file.replace(/^.*[\\/]/, '').replace(/\.(m?[jt]s)$/, '');
    let code = src;
    if (/\.m?ts$/.test(file)) {
      // Types are stripped with the TypeScript compiler kit already depends on, loaded only when needed.
      const ts = typescript();
      code = ts.transpileModule(src, {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
        fileName: file,
      }).outputText;
    }
    return this.assets.hashed('js', base, 'js', code);
  }

  /**
   * An owner's `asset`, `wasm` and `error` files, copied under content-hashed names (`assets/files/`,
   * `assets/wasm/`), by the path as written and its `./`-less spelling (an error document is also
   * compiled into the error page the app renders). Read as bytes: images and
   * modules are binary. A file that cannot be read is `missing_asset` (kit check reports it first).
   */
  filesOf(s: FileSummary): ReadonlyMap<string, string> {
    let urls = this.ownerFiles.get(s);
    if (urls) return urls;
    const out = new Map<string, string>();
    for (const f of declaredFiles(s)) {
      if (f.path === undefined) continue;
      const bytes = this.readFileBytes(s, f.path, f.range, f.kind);
      if (bytes === undefined) continue;
      const base = f.path.slice(f.path.lastIndexOf('/') + 1);
      const dot = base.lastIndexOf('.');
      const url = this.assets.hashed(
        f.kind === 'wasm' ? 'wasm' : 'files',
        dot > 0 ? base.slice(0, dot) : base,
        dot > 0 ? base.slice(dot + 1).toLowerCase() : 'bin',
        bytes,
      );
      for (const spelling of assetSpellings(f.written)) out.set(spelling, url);
    }
    this.ownerFiles.set(s, (urls = out));
    return urls;
  }

  private readFileBytes(s: FileSummary, path: string, range: Range, what: string): Uint8Array | undefined {
    const abs = resolve(this.cwd, path);
    this.noteRead(s, abs);
    try {
      if (!statSync(abs).isFile()) throw Object.assign(new Error('not a regular file'), { code: 'not a regular file' });
      return readFileSync(abs);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as NodeJS.ErrnoException).code;
      this.diagnostics.push(
        diag('missing_asset', s.path, range, `${s.ownerId}: ${what} ${path} cannot be read (${why})`),
      );
      return undefined;
    }
  }

  /** Stylesheets an owner brings, in declaration order: its scoped `style {}` and its `css "./x.css"` file. */
  stylesheetsOf(s: FileSummary): string[] {
    return this.cachedAssets(this.ownerCss, s, () => {
      const out: string[] = [];
      for (const d of s.declarations) {
        if (d.kind === 'style') {
          const css = scopeCss(d.css, scopeClassFor(s.kind, s.packageName, s.ownerId));
          if (css.trim() !== '')
            out.push(this.assets.hashed('css', `${s.kind}-${s.packageName}-${s.ownerId}`, 'css', css));
        } else if (d.kind === 'css' && d.file) {
          const src = this.readSource(s, d.file.value, d, 'css file');
          if (src !== undefined)
            out.push(this.assets.hashed('css', d.file.value.replace(/^.*[\\/]/, '').replace(/\.css$/, ''), 'css', src));
        }
      }
      return out;
    });
  }

  /** Module scripts an owner brings (`js "./x.js"`). */
  scriptsOf(s: FileSummary): string[] {
    return this.cachedAssets(this.ownerJs, s, () => {
      const out: string[] = [];
      for (const d of s.declarations) {
        if (d.kind !== 'js') continue;
        const href = this.jsModule(s, d);
        if (href) out.push(href);
      }
      return out;
    });
  }

  private cachedAssets(cache: WeakMap<FileSummary, string[]>, s: FileSummary, make: () => string[]): string[] {
    let v = cache.get(s);
    if (!v) cache.set(s, (v = make()));
    return v;
  }

  /** `css` names of a page: `default` (no `css` line), `page`, `none`, or `<name>` = `<name>.css` beside the page. */
  pageStylesheets(page: FileSummary, owners: FileSummary[]): string[] {
    const decls = page.declarations.filter((d): d is CssDecl => d.kind === 'css' && !d.file);
    const names = decls.length ? decls.flatMap((d) => d.names.map((w) => w.text)) : ['default'];
    const out: string[] = [];
    const add = (href: string) => {
      if (!out.includes(href)) out.push(href);
    };
    if (names.includes('none')) return out;
    if (names.includes('default')) for (const o of owners) for (const h of this.stylesheetsOf(o)) add(h);
    else if (names.includes('page')) for (const h of this.stylesheetsOf(page)) add(h);
    for (const d of decls) {
      for (const w of d.names) {
        if (w.text === 'default' || w.text === 'page' || w.text === 'none') continue;
        const file = `${w.text}.css`;
        const src = this.readSource(page, file, d, 'css selection');
        if (src !== undefined) add(this.assets.hashed('css', w.text, 'css', src));
      }
    }
    return out;
  }
}
