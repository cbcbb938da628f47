// The language server: connection wiring, document and workspace state, and the scheduling of work.
// Edits are applied to the text at once and parsed once per burst (a `setImmediate` after the last
// queued message), so a storm of edits costs one incremental re-parse; any request first brings the
// model up to date, so answers never lag behind the edits the client has sent.
import { basename, dirname } from 'node:path';
import {
  CodeActionKind,
  DidChangeConfigurationNotification,
  type Diagnostic as LspDiagnostic,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  FileChangeType,
  LSPErrorCodes,
  ResponseError,
  TextDocumentSyncKind,
  WatchKind,
  type CancellationToken,
  type ClientCapabilities,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type MessageWriter,
  type WorkspaceFolder,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { isReparseable, parseKit, reparseKit } from '../../../grammar/src/index.js';
import { ReadAhead } from '../core/project/read-ahead.js';
import { diag } from '../core/diagnostics/registry.js';
import { isHandlerModulePath } from '../core/model/handler-modules.js';
import { discoverSources } from '../core/project/discover.js';
import { toLspDiagnostic } from './convert.js';
import { OpenDocuments, type OpenDocument } from './documents.js';
import { codeActions } from './features/code-actions.js';
import { completion } from './features/completion.js';
import { formatDocument } from './features/formatting.js';
import { hover } from './features/hover.js';
import { definition, prepareRename, references, rename, RenameError } from './features/navigation.js';
import { routesReport, treeReport, type NamedContext } from './features/reports.js';
import { SEMANTIC_LEGEND, semanticTokens } from './features/semantic-tokens.js';
import { documentSymbols, foldingRanges, workspaceSymbols } from './features/symbols.js';
import { handlerModulesIn, type KitProject, ProjectSet, readText } from './projects.js';
import { EditArrivals, MALFORMED_MESSAGE, type MalformedMessage } from './transport.js';

export interface KitServerOptions {
  /** `--ssr` until the client's `kit.ssr` setting says otherwise. */
  ssr: boolean;
  /** Re-parse changed files incrementally (the default); false re-parses them whole (benchmark baseline). */
  incremental: boolean;
  version: string;
}

/** Files read from disk per event-loop turn while indexing, so requests are answered meanwhile. */
const INDEX_BATCH = 250;

function isKitPath(p: string): boolean {
  return p.endsWith('.kit');
}

/** Keys of documents that are not files are their URIs (`untitled:Untitled-1`), never a drive path. */
function isUriKey(key: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]+:/.test(key) && !/^[A-Za-z]:[\\/]/.test(key);
}

function fsPathOf(uri: string): string {
  const u = URI.parse(uri);
  // Documents that are not files (untitled buffers) are named by their URI.
  return u.scheme === 'file' ? u.fsPath : uri;
}

export class KitServer {
  private readonly docs = new OpenDocuments();
  private readonly projects: ProjectSet;
  private readonly pendingDocs = new Set<string>();
  private readonly touched = new Set<KitProject>();
  /** Files whose diagnostics are published even when unchanged (the documents just edited). */
  private readonly mustPublish = new Set<string>();
  /**
   * The last non-empty diagnostics published per URI (empty lists are not kept), as JSON once they
   * have been compared: they are turned into JSON only when the next publication needs comparing.
   */
  private readonly published = new Map<string, string | LspDiagnostic[]>();
  private scheduled = false;
  private capabilities: ClientCapabilities = {};
  private options: KitServerOptions;
  private shuttingDown = false;
  private readonly indexing = new Set<Promise<void>>();

  constructor(
    private readonly connection: Connection,
    private readonly writer: MessageWriter | undefined,
    options: KitServerOptions,
    private readonly arrivals: EditArrivals = new EditArrivals(),
  ) {
    this.options = { ...options };
    this.projects = new ProjectSet({ ssr: options.ssr }, (fsPath) => this.uriOf(fsPath));
  }

  private uriOf(fsPath: string): string {
    return this.docs.get(fsPath)?.uri ?? (isUriKey(fsPath) ? fsPath : URI.file(fsPath).toString());
  }

  private log(message: string): void {
    this.connection.console.log(message);
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  listen(): void {
    const c = this.connection;
    c.onInitialize((p) => this.initialize(p));
    c.onInitialized(() => this.initialized());
    c.onShutdown(() => {
      this.shuttingDown = true;
    });
    c.onNotification(MALFORMED_MESSAGE, (m: MalformedMessage) => {
      void this.writer?.write({ jsonrpc: '2.0', id: m.id, error: { code: m.code, message: m.message } } as never);
    });

    c.onDidOpenTextDocument((p) => {
      this.arrivals.handled();
      const fsPath = fsPathOf(p.textDocument.uri);
      this.docs.open(
        p.textDocument.uri,
        fsPath,
        p.textDocument.languageId,
        p.textDocument.version,
        p.textDocument.text,
      );
      this.queueDocument(fsPath);
    });
    c.onDidChangeTextDocument((p) => {
      this.arrivals.handled();
      const fsPath = fsPathOf(p.textDocument.uri);
      if (!this.docs.change(fsPath, p.textDocument.version, p.contentChanges)) {
        this.log(`kit: ignored a change to ${p.textDocument.uri}, which is not open`);
        return;
      }
      this.queueDocument(fsPath);
    });
    c.onDidCloseTextDocument((p) => {
      this.arrivals.handled();
      this.closeDocument(fsPathOf(p.textDocument.uri), p.textDocument.uri);
    });
    c.onDidChangeWatchedFiles((p) => {
      for (const ch of p.changes) this.fileChanged(fsPathOf(ch.uri), ch.type);
      this.schedule();
    });
    c.onDidChangeConfiguration((p) => {
      if (this.capabilities.workspace?.configuration) void this.loadConfiguration();
      else this.applySettings((p.settings as { kit?: unknown } | null)?.kit);
    });

    c.onHover(
      this.request('hover', (p) => this.withKit(p.textDocument.uri, (proj, key) => hover(proj.ctx, key, p.position))),
    );
    c.onDefinition(
      this.request('definition', (p) =>
        this.withKit(p.textDocument.uri, (proj, key) => definition(proj.ctx, key, p.position)),
      ),
    );
    c.onReferences(
      this.request('references', (p) =>
        this.withKit(p.textDocument.uri, (proj, key) =>
          references(proj.ctx, key, p.position, p.context.includeDeclaration),
        ),
      ),
    );
    c.onPrepareRename(
      this.request('prepareRename', (p) =>
        this.withKit(p.textDocument.uri, (proj, key) => prepareRename(proj.ctx, key, p.position)),
      ),
    );
    c.onRenameRequest(
      this.request('rename', (p) =>
        this.withKit(p.textDocument.uri, (proj, key) => rename(proj.ctx, key, p.position, p.newName)),
      ),
    );
    c.onCompletion(
      this.request(
        'completion',
        (p) => this.withKit(p.textDocument.uri, (proj, key) => completion(proj.ctx, key, p.position)) ?? [],
      ),
    );
    c.onDocumentSymbol(
      this.request('documentSymbol', (p) =>
        this.withKit(p.textDocument.uri, (proj, key) => documentSymbols(proj.ctx, key)),
      ),
    );
    c.onWorkspaceSymbol(
      this.request('workspaceSymbol', (p) =>
        workspaceSymbols(
          this.projects.all().map((x) => x.ctx),
          p.query,
        ),
      ),
    );
    c.onFoldingRanges(
      this.request('foldingRange', (p) =>
        this.withKit(p.textDocument.uri, (proj, key) => foldingRanges(proj.ctx, key)),
      ),
    );
    c.languages.semanticTokens.on(
      this.request(
        'semanticTokens',
        (p) => this.withKit(p.textDocument.uri, (proj, key) => semanticTokens(proj.ctx, key)) ?? { data: [] },
      ),
    );
    c.onDocumentFormatting(
      this.request(
        'formatting',
        (p) => this.withKit(p.textDocument.uri, (proj, key) => formatDocument(proj.ctx, key)) ?? [],
      ),
    );
    c.onCodeAction(
      this.request(
        'codeAction',
        (p) =>
          this.withKit(p.textDocument.uri, (proj, key) =>
            codeActions(proj.ctx, key, p.range, p.context.diagnostics, { canCreateFiles: this.canCreateFiles() }),
          ) ?? [],
      ),
    );
    c.onRequest(
      'kit/routes',
      this.request('kit/routes', () => routesReport(this.namedContexts())),
    );
    c.onRequest(
      'kit/tree',
      this.request('kit/tree', () => treeReport(this.namedContexts())),
    );
    c.onRequest(
      'kit/stats',
      this.request('kit/stats', () => {
        const mem = process.memoryUsage();
        const files = this.projects.all().reduce((n, p) => n + p.ws.kitPaths().length, 0);
        const modules = this.projects.all().reduce((n, p) => n + p.ws.modulePaths().length, 0);
        return { rss: mem.rss, heapUsed: mem.heapUsed, files, modules, openDocuments: this.docs.all().length };
      }),
    );
    c.listen();
  }

  private initialize(p: InitializeParams): InitializeResult {
    this.capabilities = p.capabilities;
    const init = (p.initializationOptions ?? {}) as { ssr?: unknown; incremental?: unknown };
    if (typeof init.ssr === 'boolean') this.applySsr(init.ssr);
    if (typeof init.incremental === 'boolean') this.options.incremental = init.incremental;
    const folders: WorkspaceFolder[] =
      p.workspaceFolders ?? (p.rootUri ? [{ uri: p.rootUri, name: basename(fsPathOf(p.rootUri)) }] : []);
    for (const f of folders) this.projects.addFolder(fsPathOf(f.uri), f.uri, f.name);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        completionProvider: { triggerCharacters: ['<', ':', '{', ' ', '.', '"', ','] },
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        foldingRangeProvider: true,
        semanticTokensProvider: { legend: SEMANTIC_LEGEND, full: true },
        documentFormattingProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'kit', version: this.options.version },
    };
  }

  private initialized(): void {
    const ws = this.capabilities.workspace;
    if (ws?.workspaceFolders) {
      this.connection.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) this.removeFolder(f);
        for (const f of e.added) this.addFolder(f);
      });
    }
    if (ws?.didChangeWatchedFiles?.dynamicRegistration) {
      void this.connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [
          { globPattern: '**/*.kit' },
          { globPattern: '**/*.{ts,mts,js,mjs}' },
          // Deleted folders arrive as one event for the folder.
          { globPattern: '**/*', kind: WatchKind.Delete },
        ],
      });
    }
    if (ws?.didChangeConfiguration?.dynamicRegistration) {
      void this.connection.client.register(DidChangeConfigurationNotification.type, { section: 'kit' });
    }
    // Settings first, so that the first diagnostics already follow `kit.ssr`.
    void this.loadConfiguration().finally(() => {
      for (const p of this.projects.folderProjects()) this.index(p);
    });
  }

  private canCreateFiles(): boolean {
    return Boolean(
      this.capabilities.workspace?.workspaceEdit?.documentChanges &&
        this.capabilities.workspace.workspaceEdit.resourceOperations?.includes('create'),
    );
  }

  // ---- configuration -----------------------------------------------------------------------------

  private async loadConfiguration(): Promise<void> {
    if (!this.capabilities.workspace?.configuration) return;
    try {
      const [kit] = (await this.connection.workspace.getConfiguration([{ section: 'kit' }])) as [unknown];
      this.applySettings(kit);
    } catch (e) {
      this.log(`kit: could not read the kit settings: ${(e as Error).message}`);
    }
  }

  /** The `kit` settings section: `ssr` re-validates every file when it changes. */
  private applySettings(kit: unknown): void {
    const ssr = (kit as { ssr?: unknown } | null | undefined)?.ssr;
    if (typeof ssr === 'boolean' && ssr !== this.options.ssr) {
      this.applySsr(ssr);
      this.revalidateAll();
    }
  }

  private applySsr(ssr: boolean): void {
    this.options.ssr = ssr;
    this.projects.setOptions({ ssr });
  }

  /** Options changed: every file's own diagnostics are recomputed (cross-file ones stay valid). */
  private revalidateAll(): void {
    for (const p of this.projects.all()) {
      for (const e of p.ws.allKit()) p.ws.setKitFile(e.path, e.text, e.ast);
      p.generation++;
      this.touched.add(p);
    }
    this.schedule();
  }

  // ---- folders and indexing ------------------------------------------------------------------

  private addFolder(f: WorkspaceFolder): void {
    const p = this.projects.addFolder(fsPathOf(f.uri), f.uri, f.name);
    // Open documents under the new folder move into its model.
    for (const d of this.docs.all()) {
      if (!p.contains(d.fsPath)) continue;
      const loose = this.projects.loose;
      const key = loose.keyOf(d.fsPath);
      if (loose.ws.has(key)) {
        loose.ws.remove(key);
        loose.generation++;
        this.touched.add(loose);
      }
      this.pendingDocs.add(d.fsPath);
    }
    this.index(p);
  }

  private removeFolder(f: WorkspaceFolder): void {
    const p = this.projects.removeFolder(fsPathOf(f.uri));
    if (!p) return;
    for (const key of [...p.ws.kitPaths(), ...p.ws.modulePaths()]) {
      const uri = this.uriOf(p.fsPathOf(key));
      if (this.published.delete(uri)) this.connection.sendDiagnostics({ uri, diagnostics: [] });
    }
    for (const d of this.docs.all()) if (p.contains(d.fsPath)) this.pendingDocs.add(d.fsPath);
    this.schedule();
  }

  private index(p: KitProject): void {
    const job = this.indexProject(p).catch((e: unknown) =>
      this.log(`kit: indexing ${p.root} failed: ${(e as Error).message}`),
    );
    this.indexing.add(job);
    void job.finally(() => this.indexing.delete(job));
  }

  private async indexProject(p: KitProject): Promise<void> {
    const started = performance.now();
    const root = p.root!;
    let found: { kitFiles: string[]; modules: string[] };
    try {
      found = discoverSources([root], root);
    } catch (e) {
      this.log(`kit: cannot index ${root}: ${(e as Error).message}`);
      return;
    }
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    // `.kit` files first, so that module package names come from their `package` declarations.
    const keys = [...found.kitFiles, ...found.modules];
    const ahead = new ReadAhead(keys.map((k) => p.fsPathOf(k)));
    try {
      for (let i = 0; i < keys.length; i += INDEX_BATCH) {
        if (!this.projects.folderProjects().includes(p)) return; // the folder was removed meanwhile
        for (let j = i; j < Math.min(keys.length, i + INDEX_BATCH); j++) {
          const key = keys[j];
          const fsPath = p.fsPathOf(key);
          if (this.docs.has(fsPath)) continue; // the open buffer wins
          const early = ahead.take(j);
          const source = early !== undefined ? { text: early, diagnostics: [] } : readText(fsPath);
          if (source === undefined) continue;
          if (isKitPath(key)) p.ws.setKitFile(key, source.text, undefined, source.diagnostics);
          else p.ws.setModule(key, source.text, source.diagnostics);
        }
        await turn();
      }
    } finally {
      ahead.close();
    }
    p.generation++;
    this.settle();
    // Everything but handler binding (the TypeScript compiler's part) is published first.
    for (const key of p.ws.flush({ defer: (k) => k.startsWith('bind:') })) this.publish(p, key);
    const ms = Math.round(performance.now() - started);
    // Written out (with the diagnostics before it) before binding takes the thread.
    await this.connection.sendNotification('kit/status', {
      state: 'ready',
      root: p.uri,
      files: p.ws.kitPaths().length,
      modules: p.ws.modulePaths().length,
      ms,
    });
    await turn();
    p.generation++;
    this.touched.add(p);
    this.settle();
    const bound = Math.round(performance.now() - started);
    await this.connection.sendNotification('kit/status', {
      state: 'bound',
      root: p.uri,
      files: p.ws.kitPaths().length,
      modules: p.ws.modulePaths().length,
      ms: bound,
    });
    // Indexing leaves a lot of garbage; give it back once everything is published, when the host
    // allows (the extension starts the server with --expose-gc).
    (globalThis as { gc?: () => void }).gc?.();
  }

  /** Loads the handler modules of a directory that were not part of the model yet. */
  private loadModulesOf(p: KitProject, dir: string): void {
    for (const fsPath of handlerModulesIn(dir)) {
      const key = p.keyOf(fsPath);
      if (p.ws.has(key)) continue;
      const open = this.docs.get(fsPath)?.doc.getText();
      const source = open !== undefined ? { text: open, diagnostics: [] } : readText(fsPath);
      if (source !== undefined) p.ws.setModule(key, source.text, source.diagnostics);
    }
  }

  private namedContexts(): NamedContext[] {
    return this.projects
      .all()
      .filter((p) => p.root !== undefined || p.ws.kitPaths().length > 0)
      .map((p) => ({ root: p.uri, name: p.name, ctx: p.ctx }));
  }

  // ---- documents and files -------------------------------------------------------------------

  private queueDocument(fsPath: string): void {
    this.pendingDocs.add(fsPath);
    this.schedule();
  }

  private closeDocument(fsPath: string, uri: string): void {
    this.docs.close(fsPath);
    this.pendingDocs.delete(fsPath);
    const p = this.projects.projectFor(fsPath);
    const key = p.keyOf(fsPath);
    // The disk content takes over again; files outside every folder leave the model.
    const disk = p === this.projects.loose ? undefined : readText(fsPath);
    if (disk === undefined) {
      if (p.ws.has(key)) p.ws.remove(key);
      if (this.published.delete(uri)) this.connection.sendDiagnostics({ uri, diagnostics: [] });
    } else if (isKitPath(fsPath) && p.ws.kit(key)?.text !== disk.text) {
      p.ws.setKitFile(key, disk.text, undefined, disk.diagnostics);
    } else if (p.ws.module(key) && p.ws.module(key)!.text !== disk.text) {
      p.ws.setModule(key, disk.text, disk.diagnostics);
    }
    p.generation++;
    this.touched.add(p);
    this.schedule();
  }

  private fileChanged(fsPath: string, type: FileChangeType): void {
    if (this.docs.has(fsPath)) return; // the open buffer wins over the disk
    const p = this.projects.projectFor(fsPath);
    const key = p.keyOf(fsPath);
    if (type === FileChangeType.Deleted) {
      if (p.ws.has(key)) p.ws.remove(key);
      else {
        // A deleted directory: everything under it goes.
        const prefix = key.endsWith('/') ? key : `${key}/`;
        for (const k of [...p.ws.kitPaths(), ...p.ws.modulePaths()]) if (k.startsWith(prefix)) p.ws.remove(k);
      }
    } else if (isKitPath(fsPath)) {
      const source = readText(fsPath);
      if (source === undefined) {
        if (p.ws.has(key)) p.ws.remove(key);
      } else {
        const isNew = !p.ws.has(key);
        if (p.ws.kit(key)?.text !== source.text) p.ws.setKitFile(key, source.text, undefined, source.diagnostics);
        if (isNew) this.loadModulesOf(p, dirname(fsPath));
      }
    } else if (isHandlerModulePath(basename(fsPath))) {
      const source = readText(fsPath);
      const dirHasKit = p.ws.kitPaths().some((k) => dirname(p.fsPathOf(k)) === dirname(fsPath));
      if (source !== undefined && (dirHasKit || p.ws.has(key)) && p.ws.module(key)?.text !== source.text)
        p.ws.setModule(key, source.text, source.diagnostics);
    } else if (type === FileChangeType.Created && p.root !== undefined) {
      // A directory created or moved in: index what it holds.
      try {
        const found = discoverSources([fsPath], p.root);
        for (const k of found.kitFiles) {
          if (this.docs.has(p.fsPathOf(k))) continue;
          const source = readText(p.fsPathOf(k));
          if (source) p.ws.setKitFile(k, source.text, undefined, source.diagnostics);
        }
        for (const k of found.modules) {
          const source = p.ws.has(k) ? undefined : readText(p.fsPathOf(k));
          if (source) p.ws.setModule(k, source.text, source.diagnostics);
        }
      } catch {
        return; // not a directory, or already gone
      }
    } else return;
    p.generation++;
    this.touched.add(p);
  }

  // ---- the work loop -------------------------------------------------------------------------

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      // Newer edits are queued: the handler of the last one schedules the work again.
      if (this.arrivals.pending) return;
      try {
        this.settle();
      } catch (e) {
        this.log(`kit: validation failed: ${(e as Error).stack ?? (e as Error).message}`);
      }
    });
  }

  /** Parses the edited documents, re-validates the touched buckets and publishes what changed. */
  settle(): void {
    for (const fsPath of this.pendingDocs) this.syncDocument(fsPath);
    this.pendingDocs.clear();
    const touched = [...this.touched];
    this.touched.clear();
    // A document just edited is published once, as it is: comparing its diagnostics with the last
    // ones would cost as much as sending them (a long file can hold thousands).
    const sent = new Set<string>();
    for (const p of touched) {
      const affected = p.ws.flush();
      for (const key of affected) {
        const fsPath = p.fsPathOf(key);
        const force = this.mustPublish.has(fsPath) && this.projects.projectFor(fsPath) === p;
        this.publish(p, key, force);
        if (force) sent.add(fsPath);
      }
    }
    for (const fsPath of this.mustPublish) {
      if (sent.has(fsPath)) continue;
      const p = this.projects.projectFor(fsPath);
      this.publish(p, p.keyOf(fsPath), true);
    }
    this.mustPublish.clear();
  }

  private syncDocument(fsPath: string): void {
    const d = this.docs.get(fsPath);
    if (!d) return;
    const p = this.projects.projectFor(fsPath);
    const key = p.keyOf(fsPath);
    this.mustPublish.add(fsPath);
    if (d.problem) return; // the last good text stays in the model
    const text = d.doc.getText();
    if (isKitPath(fsPath) || d.doc.languageId === 'kit') {
      const prev = p.ws.kit(key);
      // A file indexed from disk has a one-shot tree: opening it parses it for editing.
      if (prev && prev.text === text && (!this.options.incremental || isReparseable(prev.ast))) return;
      const ast = prev && this.options.incremental ? reparseKit(prev.ast, prev.text, text) : parseKit(text, key);
      p.ws.setKitFile(key, text, ast);
      if (!prev && d.uri.startsWith('file:')) this.loadModulesOf(p, dirname(fsPath));
    } else if (
      isHandlerModulePath(basename(fsPath)) &&
      (p.ws.has(key) || p.ws.kitPaths().some((k) => dirname(p.fsPathOf(k)) === dirname(fsPath)))
    ) {
      if (p.ws.module(key)?.text === text) return;
      p.ws.setModule(key, text);
    } else return;
    p.generation++;
    this.touched.add(p);
  }

  private problemDiagnostic(d: OpenDocument, key: string) {
    const zero = { start: { offset: 0, line: 0, column: 0 }, end: { offset: 0, line: 0, column: 0 } };
    return d.problem === 'document_too_large'
      ? diag(
          'document_too_large',
          key,
          zero,
          'the document is larger than 8 MiB; kit does not analyse it (the last smaller version stays in effect)',
        )
      : diag(
          'binary_document',
          key,
          zero,
          'the document contains NUL characters (binary data); kit does not analyse it',
        );
  }

  private publish(p: KitProject, key: string, force = false): void {
    const fsPath = p.fsPathOf(key);
    const uri = this.uriOf(fsPath);
    const d = this.docs.get(fsPath);
    const uriOfKey = (k: string) => this.uriOf(p.fsPathOf(k));
    const core = d?.problem ? [this.problemDiagnostic(d, key)] : p.ws.has(key) ? p.ws.diagnosticsFor(key) : [];
    const diagnostics = core.map((x) => toLspDiagnostic(x, uriOfKey));
    let kept: string | LspDiagnostic[] = diagnostics;
    if (!force) {
      const json = diagnostics.length ? JSON.stringify(diagnostics) : '';
      const last = this.published.get(uri);
      const same = json === (typeof last === 'string' ? last : last ? JSON.stringify(last) : '');
      kept = json;
      if (same) {
        if (json) this.published.set(uri, json);
        return;
      }
    }
    if (diagnostics.length) this.published.set(uri, kept);
    else this.published.delete(uri);
    this.connection.sendDiagnostics({ uri, version: d?.doc.version, diagnostics });
  }

  // ---- requests ------------------------------------------------------------------------------

  /**
   * Wraps a request handler: brings the model up to date first, answers a cancelled request with
   * RequestCancelled, and turns a failure into an error for this request only.
   */
  private request<P, R>(
    name: string,
    fn: (params: P) => R,
  ): (params: P, token: CancellationToken) => R | ResponseError<void> {
    return (params, token) => {
      if (token.isCancellationRequested)
        return new ResponseError(LSPErrorCodes.RequestCancelled, `${name} was cancelled`);
      try {
        this.settle();
        // Answers may need binding results that indexing published without.
        for (const p of this.projects.all()) {
          if (p.ws.deferredCount === 0) continue;
          p.generation++;
          this.touched.add(p);
        }
        this.settle();
        return fn(params);
      } catch (e) {
        if (e instanceof RenameError) return new ResponseError(LSPErrorCodes.RequestFailed, e.message);
        this.log(`kit: ${name} failed: ${(e as Error).stack ?? String(e)}`);
        return new ResponseError(ErrorCodes.InternalError, `kit: ${name} failed: ${(e as Error).message ?? String(e)}`);
      }
    };
  }

  /** Runs a feature on a `.kit` document of the model; null for documents kit does not know. */
  private withKit<R>(uri: string, fn: (p: KitProject, key: string) => R): R | null {
    const fsPath = fsPathOf(uri);
    const p = this.projects.projectFor(fsPath);
    const key = p.keyOf(fsPath);
    if (!p.ws.kit(key) || this.docs.get(fsPath)?.problem) return null;
    return fn(p, key);
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }
}
