// The requests the server answers. Their params were checked before they got here (`params.ts`,
// through the reader in `transport.ts`). Each is wrapped the same way: a cancelled request is
// answered with RequestCancelled, the model is brought up to date first (answers never lag behind
// the edits the client has sent), and a failure becomes an error for this request only.
import {
  type CancellationToken,
  CodeLensRefreshRequest,
  type CodeActionParams,
  type Connection,
  ErrorCodes,
  LSPErrorCodes,
  type ReferenceParams,
  type RenameParams,
  ResponseError,
  type TextDocumentPositionParams,
  type WorkspaceSymbolParams,
} from 'vscode-languageserver/node';
import { codeActions } from './features/code-actions.js';
import { codeLenses } from './features/code-lens.js';
import { completion } from './features/completion.js';
import { formatDocument } from './features/formatting.js';
import { hover } from './features/hover.js';
import type { LiveFigures } from './features/route-figures.js';
import { definition, prepareRename, references, rename, RenameError } from './features/navigation.js';
import { routesReport, treeReport, type NamedContext } from './features/reports.js';
import { semanticTokens } from './features/semantic-tokens.js';
import { documentSymbols, foldingRanges, workspaceSymbols } from './features/symbols.js';
import type { KitProject, ProjectSet } from './projects.js';

export interface RequestHost {
  projects: ProjectSet;
  /** Brings every model up to date and publishes what changed. */
  settle(): void;
  /** The project and workspace key of a `.kit` document kit analyses, or undefined. */
  kitDocument(uri: string): { project: KitProject; key: string } | undefined;
  canCreateFiles(): boolean;
  openDocumentCount(): number;
  log(message: string): void;
  /** Live route figures of a running server (hover, CodeLens). */
  figures: LiveFigures;
}

export function registerRequests(c: Connection, host: RequestHost): void {
  const request =
    <P, R>(name: string, fn: (params: P) => R) =>
    (params: P, token: CancellationToken): R | ResponseError<void> => {
      if (token.isCancellationRequested)
        return new ResponseError(LSPErrorCodes.RequestCancelled, `${name} was cancelled`);
      try {
        host.settle();
        return fn(params);
      } catch (e) {
        if (e instanceof RenameError) return new ResponseError(LSPErrorCodes.RequestFailed, e.message);
        // The answer says what failed, not how: the stack and the message go to the log.
        host.log(`kit: ${name} failed: ${(e as Error).stack ?? String(e)}`);
        return new ResponseError(ErrorCodes.InternalError, `kit: ${name} failed; the kit log has the details`);
      }
    };
  /**
   * A request of kit's own, which takes no params: whatever a client sends as params (none, an
   * array, a value), the library passes the cancellation token last.
   */
  const withoutParams =
    <R>(name: string, fn: () => R) =>
    (...args: unknown[]): R | ResponseError<void> =>
      request(name, fn)(undefined, args[args.length - 1] as CancellationToken);
  /** A feature over a `.kit` document of the model; null for documents kit does not know. */
  const onKit =
    <P extends { textDocument: { uri: string } }, R>(name: string, fn: (p: KitProject, key: string, params: P) => R) =>
    (fallback: R | null = null) =>
      request(name, (params: P) => {
        const doc = host.kitDocument(params.textDocument.uri);
        return doc ? fn(doc.project, doc.key, params) : fallback;
      });
  const named = (): NamedContext[] =>
    host.projects
      .all()
      .filter((p) => p.root !== undefined || p.ws.kitPaths().length > 0)
      .map((p) => ({ root: p.uri, name: p.name, ctx: p.ctx }));

  const live = (p: KitProject, key: string) => host.figures.forFile(p.fsPathOf(key), p.root);
  host.figures.onChange = () => {
    if (host.figures.lensRefresh) void c.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
  };
  c.onHover(onKit('hover', (p, key, q: TextDocumentPositionParams) => hover(p.ctx, key, q.position, live(p, key)))());
  c.onCodeLens(onKit('codeLens', (p, key) => codeLenses(p.ctx, key, live(p, key)))([]));
  c.onDefinition(onKit('definition', (p, key, q: TextDocumentPositionParams) => definition(p.ctx, key, q.position))());
  c.onReferences(
    onKit('references', (p, key, q: ReferenceParams) =>
      references(p.ctx, key, q.position, q.context.includeDeclaration),
    )(),
  );
  c.onPrepareRename(
    onKit('prepareRename', (p, key, q: TextDocumentPositionParams) => prepareRename(p.ctx, key, q.position))(),
  );
  c.onRenameRequest(onKit('rename', (p, key, q: RenameParams) => rename(p.ctx, key, q.position, q.newName))());
  c.onCompletion(
    onKit('completion', (p, key, q: TextDocumentPositionParams) => completion(p.ctx, key, q.position))([]),
  );
  c.onDocumentSymbol(onKit('documentSymbol', (p, key) => documentSymbols(p.ctx, key))());
  c.onWorkspaceSymbol(
    request('workspaceSymbol', (q: WorkspaceSymbolParams) =>
      workspaceSymbols(
        host.projects.all().map((x) => x.ctx),
        q.query,
      ),
    ),
  );
  c.onFoldingRanges(onKit('foldingRange', (p, key) => foldingRanges(p.ctx, key))());
  c.languages.semanticTokens.on(onKit('semanticTokens', (p, key) => semanticTokens(p.ctx, key))({ data: [] }));
  c.onDocumentFormatting(onKit('formatting', (p, key) => formatDocument(p.ctx, key))([]));
  c.onCodeAction(
    onKit('codeAction', (p, key, q: CodeActionParams) =>
      codeActions(p.ctx, key, q.range, q.context.diagnostics, { canCreateFiles: host.canCreateFiles() }),
    )([]),
  );
  c.onRequest(
    'kit/routes',
    withoutParams('kit/routes', () => routesReport(named())),
  );
  c.onRequest(
    'kit/tree',
    withoutParams('kit/tree', () => treeReport(named())),
  );
  c.onRequest(
    'kit/stats',
    withoutParams('kit/stats', () => {
      const mem = process.memoryUsage();
      const all = host.projects.all();
      const files = all.reduce((n, p) => n + p.ws.kitPaths().length, 0);
      const modules = all.reduce((n, p) => n + p.ws.modulePaths().length, 0);
      // Handler modules whose TypeScript syntax tree is held (binding forgets them once a folder is bound).
      const parsedModules = all.reduce((n, p) => n + p.ws.inspection.binding.held, 0);
      // Directories whose bindings a binding worker made (`bind-host.ts`).
      const prebound = all.reduce((n, p) => n + p.ws.inspection.prebound, 0);
      // `.kit` files a first index took from loading threads (`parse-pool.ts`).
      const pooled = all.reduce((n, p) => n + p.pooled, 0);
      return {
        rss: mem.rss,
        heapUsed: mem.heapUsed,
        heapTotal: mem.heapTotal,
        files,
        modules,
        parsedModules,
        prebound,
        pooled,
        openDocuments: host.openDocumentCount(),
      };
    }),
  );
}
