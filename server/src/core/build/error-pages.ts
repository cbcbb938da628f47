// A site's error pages: the `error` document a page's errors are answered with (its own, else the
// innermost layout's that declares one), compiled once per document and layout chain.
import { resolve } from 'node:path';
import type { Template } from '#shared/render/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from '../diagnostics/registry.js';
import { declaredFiles } from '../model/asset-files.js';
import type { FileSummary } from '../model/summary.js';
import { SourceError } from '../project/discover.js';
import { readSourceFile } from '../project/read-source.js';
import { documentStart, errorDocOf, layoutMeta, wholeDocument } from './document.js';
import { finishTemplate } from './forms.js';
import type { OwnerAssets } from './owner-assets.js';
import type { PartCompiler } from './parts.js';
import { push, substitute, type PNode } from './proto.js';

export class ErrorPages {
  /** The compiled error documents, by key (`CompiledPage.errorPage`). */
  readonly templates = new Map<string, Template>();
  /** The stylesheet and script URLs of each error page (a page reusing it keeps them). */
  private readonly assets = new Map<string, string[]>();

  constructor(
    private readonly cwd: string,
    private readonly parts: PartCompiler,
    private readonly owned: OwnerAssets,
    private readonly diagnostics: Diagnostic[],
  ) {}

  /** A page's error page: its own `error` document, else the innermost layout's that has one. */
  of(s: FileSummary): string | undefined {
    const chain = this.parts.layoutChain(s);
    if (errorDocOf(s)) return this.compile(s, chain, `error:page:${s.packageName}.${s.ownerId}`);
    for (let i = chain.length - 1; i >= 0; i--) {
      const l = this.parts.layout(chain[i])?.summary;
      if (l && errorDocOf(l)) return this.compile(l, chain.slice(0, i + 1), `error:layout:${chain[i]}`);
    }
    return undefined;
  }

  /** The stylesheet and script URLs of the error page `key`. */
  assetsOf(key: string): readonly string[] | undefined {
    return this.assets.get(key);
  }

  /**
   * Compiles an `error` document once: a fragment goes into the layouts' slot (outermost first),
   * a whole document (`<!doctype` or `<html` first) stands alone; `{status}` and `{message}` are
   * the values it renders with, escaped like any interpolation.
   */
  private compile(owner: FileSummary, chain: readonly string[], key: string): string | undefined {
    if (this.templates.has(key)) return key;
    const f = declaredFiles(owner).find((d) => d.kind === 'error');
    if (!f?.path) return undefined;
    let text: string;
    try {
      text = readSourceFile(resolve(this.cwd, f.path), f.path).text;
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      this.diagnostics.push(diag('missing_asset', owner.path, f.range, `${owner.ownerId}: ${e.message}`));
      return undefined;
    }
    let body: PNode[] = [];
    for (const part of text.split(/(\{(?:status|message)\})/)) {
      if (part === '{status}' || part === '{message}')
        body.push({ t: 'text', e: { k: 'data', p: [part.slice(1, -1)] } });
      else push(body, part);
    }
    if (/^\s*<(!doctype|html)/i.test(text)) {
      this.templates.set(key, finishTemplate(body, 0, key, false));
      return key;
    }
    let locals = 0;
    let kitJs = false;
    for (let i = chain.length - 1; i >= 0; i--) {
      const part = this.parts.layoutPart(chain[i]);
      if (!part) continue;
      body = substitute(part.nodes, { props: new Map(), slots: new Map([['', { nodes: body }]]), base: locals });
      locals += part.locals;
      kitJs ||= part.kitJs;
    }
    const layouts = chain.map((k) => this.parts.layout(k)?.summary).filter((l) => l !== undefined);
    const stylesheets = [...new Set(layouts.flatMap((l) => this.owned.stylesheetsOf(l)))];
    const scripts = [...new Set(layouts.flatMap((l) => this.owned.scriptsOf(l)))];
    const doc = wholeDocument(
      documentStart({ title: layoutMeta(layouts, 'title') ?? 'Error' }, stylesheets, kitJs, scripts),
      body,
    );
    this.templates.set(key, finishTemplate(doc, locals, key, false));
    this.assets.set(key, [...stylesheets, ...scripts]);
    return key;
  }
}
