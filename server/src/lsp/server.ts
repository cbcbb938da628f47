// The language server's wiring: the connection's notifications, configuration, folders, and the
// scheduling of work. Edits are applied to the text at once and parsed once per burst (a
// `setImmediate` after the last queued message), so a storm of edits costs one incremental
// re-parse; any request first brings the models up to date (`requests.ts`). The models track what
// each change affects (`Workspace.takeAffected`); `publishing.ts` sends what changed.
import { basename } from 'node:path';
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  WatchKind,
  type ClientCapabilities,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type MessageWriter,
  type WorkspaceFolder,
} from 'vscode-languageserver/node';
import { URI } from 'vscode-uri';
import { canCreateFiles } from './client-capabilities.js';
import { fsPathOf, isUriKey } from './convert.js';
import { OpenDocuments } from './documents.js';
import { serverCapabilities } from './capabilities.js';
import { LiveFigures } from './features/route-figures.js';
import { InlayHintSettings } from './features/inlay-hints.js';
import type { PullDiagnostics } from './features/pull-diagnostics.js';
import { Indexer } from './indexing.js';
import { ProjectSet } from './projects.js';
import { Publisher } from './publishing.js';
import { startPullDiagnostics } from './pull-source.js';
import { registerRequests } from './requests.js';
import { applyFileChange, restoreFromDisk, syncDocument } from './sync.js';
import { EditArrivals, MALFORMED_MESSAGE, type MalformedMessage } from './transport.js';
import { refreshInlayHints } from './url-requests.js';

export interface KitServerOptions {
  /** `kit lsp --ssr`: ssr on in every folder (kit.config aside) until the client's `kit.ssr` says otherwise. */
  ssr: boolean;
  version: string;
}

export class KitServer {
  private readonly docs = new OpenDocuments();
  private readonly figures = new LiveFigures();
  private readonly hints = new InlayHintSettings();
  private readonly projects: ProjectSet;
  private readonly publisher: Publisher;
  private readonly pull: PullDiagnostics;
  private readonly indexer: Indexer;
  /** Documents edited since the last settle: parsed then, once per burst. */
  private readonly pendingDocs = new Set<string>();
  private scheduled = false;
  private capabilities: ClientCapabilities = {};
  private readonly options: KitServerOptions;
  private shuttingDown = false;
  private started = false;

  constructor(
    private readonly connection: Connection,
    private readonly writer: MessageWriter | undefined,
    options: KitServerOptions,
    private readonly arrivals: EditArrivals = new EditArrivals(),
  ) {
    this.options = { ...options };
    const uriOf = (fsPath: string) => this.uriOf(fsPath);
    this.projects = new ProjectSet({ ssr: options.ssr }, uriOf, (m) => this.log(m));
    this.publisher = new Publisher(connection, this.docs, uriOf);
    const parts = { connection, projects: this.projects, docs: this.docs, publisher: this.publisher };
    this.pull = startPullDiagnostics({ ...parts, uriOf, capabilities: () => this.capabilities });
    this.indexer = new Indexer({ ...parts, settle: () => this.settle(), log: (m) => this.log(m) });
  }

  private uriOf(fsPath: string): string {
    return this.docs.get(fsPath)?.uri ?? (isUriKey(fsPath) ? fsPath : URI.file(fsPath).toString());
  }

  private log(message: string): void {
    this.connection.console.log(message);
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  listen(): void {
    const c = this.connection;
    c.onInitialize((p) => this.initialize(p));
    c.onInitialized(() => this.initialized());
    c.onShutdown(() => void (this.shuttingDown = true));
    c.onNotification(MALFORMED_MESSAGE, (m: MalformedMessage) => {
      if (m.notification) return this.log(`kit: ignored ${m.message}`);
      void this.writer?.write({ jsonrpc: '2.0', id: m.id, error: { code: m.code, message: m.message } } as never);
    });
    c.onDidOpenTextDocument(({ textDocument: d }) => {
      this.arrivals.handled();
      this.docs.open(d.uri, fsPathOf(d.uri), d.languageId, d.version, d.text);
      this.queueDocument(fsPathOf(d.uri));
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
      for (const ch of p.changes) {
        const fsPath = fsPathOf(ch.uri);
        // The open buffer wins over the disk.
        if (!this.docs.has(fsPath)) applyFileChange(this.projects.projectFor(fsPath), this.docs, fsPath, ch.type);
      }
      this.schedule();
    });
    c.onDidChangeConfiguration((p) => {
      if (this.capabilities.workspace?.configuration) void this.loadConfiguration();
      else this.applySettings((p.settings as { kit?: unknown } | null)?.kit);
    });
    registerRequests(c, {
      projects: this.projects,
      settle: () => this.settle(),
      kitDocument: (uri) => {
        const fsPath = fsPathOf(uri);
        const project = this.projects.projectFor(fsPath);
        const key = project.keyOf(fsPath);
        return project.ws.kit(key) && !this.docs.get(fsPath)?.problem ? { project, key } : undefined;
      },
      canCreateFiles: () => canCreateFiles(this.capabilities),
      openDocumentCount: () => this.docs.all().length,
      log: (m) => this.log(m),
      figures: this.figures,
      pull: this.pull,
      capabilities: () => this.capabilities,
      urls: { capabilities: () => this.capabilities, hints: this.hints },
    });
    c.listen();
  }

  private initialize(p: InitializeParams): InitializeResult {
    this.capabilities = p.capabilities;
    this.figures.lensRefresh = p.capabilities.workspace?.codeLens?.refreshSupport === true;
    const init = (p.initializationOptions ?? {}) as { ssr?: unknown } | null;
    if (typeof init?.ssr === 'boolean') this.applySsr(init.ssr);
    const folders: WorkspaceFolder[] =
      p.workspaceFolders ?? (p.rootUri ? [{ uri: p.rootUri, name: basename(fsPathOf(p.rootUri)) }] : []);
    for (const f of folders) this.projects.addFolder(fsPathOf(f.uri), f.uri, f.name);
    return {
      capabilities: serverCapabilities(),
      serverInfo: { name: 'kit', version: this.options.version },
    };
  }

  private initialized(): void {
    // Sent once by the protocol; a client that repeats it must not start a second indexing.
    if (this.started) return this.log('kit: ignored a repeated initialized notification');
    this.started = true;
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
    // Folders index once the settings are in, so that the first diagnostics already follow `kit.ssr`.
    for (const p of this.projects.folderProjects()) p.indexing = true;
    void this.loadConfiguration().finally(() => {
      for (const p of this.projects.folderProjects()) this.indexer.index(p);
    });
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

  /** The `kit` settings: `kit.ssr` true or false overrides each folder's kit.config, null leaves it to them. */
  private applySettings(kit: unknown): void {
    this.figures.configure(kit);
    if (this.hints.configure(kit)) refreshInlayHints(this.connection, this.capabilities);
    const ssr = (kit as { ssr?: unknown } | null | undefined)?.ssr;
    if (this.applySsr(typeof ssr === 'boolean' ? ssr : undefined)) this.schedule();
  }

  /** The client's `ssr` (undefined: none, each kit.config decides); true when a model's changed. */
  private applySsr(ssr: boolean | undefined): boolean {
    return this.projects.setSsrOverride(ssr ?? (this.options.ssr ? true : undefined));
  }

  // ---- folders ---------------------------------------------------------------------------------

  private addFolder(f: WorkspaceFolder): void {
    const p = this.projects.addFolder(fsPathOf(f.uri), f.uri, f.name);
    // Open documents under the new folder move into its model.
    for (const d of this.docs.all()) {
      if (!p.contains(d.fsPath)) continue;
      const loose = this.projects.loose;
      const key = loose.keyOf(d.fsPath);
      if (loose.ws.has(key)) loose.ws.remove(key);
      this.pendingDocs.add(d.fsPath);
    }
    this.indexer.index(p);
  }

  private removeFolder(f: WorkspaceFolder): void {
    const p = this.projects.removeFolder(fsPathOf(f.uri));
    if (!p) return;
    for (const key of [...p.ws.kitPaths(), ...p.ws.modulePaths()]) this.publisher.clear(this.uriOf(p.fsPathOf(key)));
    for (const d of this.docs.all()) if (p.contains(d.fsPath)) this.pendingDocs.add(d.fsPath);
    this.schedule();
  }

  // ---- documents and the work loop ----------------------------------------------------------

  private queueDocument(fsPath: string): void {
    this.pendingDocs.add(fsPath);
    this.schedule();
  }

  private closeDocument(fsPath: string, uri: string): void {
    this.docs.close(fsPath);
    this.pendingDocs.delete(fsPath);
    // A pulled document the client closed: push takes it back (unless the client pulls the workspace).
    if (this.pull.closed(uri)) this.publisher.force(fsPath);
    const p = this.projects.projectFor(fsPath);
    if (!restoreFromDisk(p, p === this.projects.loose, fsPath)) this.publisher.clear(uri);
    this.schedule();
  }

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

  /** Parses the edited documents, re-validates what they affect and publishes what changed. */
  settle(): void {
    for (const fsPath of this.pendingDocs) {
      this.publisher.force(fsPath);
      syncDocument(this.projects.projectFor(fsPath), this.docs, fsPath);
    }
    this.pendingDocs.clear();
    // A config module edited, saved, created or deleted: its folder takes its settings again.
    this.projects.refreshConfigs();
    this.publisher.publishChanges(this.projects);
  }
}
