// The requests the server answers. Their params were checked before they got here (`params.ts`,
// through the reader in `transport.ts`). Each is wrapped the same way: a cancelled request is
// answered with RequestCancelled, the model is brought up to date first (answers never lag behind
// the edits the client has sent), and a failure becomes an error for this request only.
import {
  type CallHierarchyIncomingCallsParams,
  type CallHierarchyPrepareParams,
  type CancellationToken,
  type ClientCapabilities,
  CodeLensRefreshRequest,
  type CodeActionParams,
  type Connection,
  type DocumentDiagnosticParams,
  ErrorCodes,
  LSPErrorCodes,
  type ReferenceParams,
  type RenameParams,
  ResponseError,
  type SelectionRangeParams,
  type TextDocumentPositionParams,
  type WorkspaceDiagnosticParams,
  type WorkspaceSymbolParams,
} from 'vscode-languageserver/node';
import { fsPathOf } from './convert.js';
import {
  callData,
  type CallData,
  incomingCalls,
  outgoingCalls,
  prepareCallHierarchy,
  prepareCallHierarchyInModule,
} from './features/call-hierarchy.js';
import type { FeatureContext } from './features/context.js';
import { documentHighlights } from './features/highlights.js';
import { linkedEditingRanges } from './features/linked-editing.js';
import type { PullDiagnostics } from './features/pull-diagnostics.js';
import { selectionRanges } from './features/selection-ranges.js';
import { signatureHelp } from './features/signature-help.js';
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
import { annotationSupport } from './client-capabilities.js';
import { registerUrlRequests, warn, type UrlHost } from './url-requests.js';
import { KIT_REQUESTS, type KitRequest, type NoParams } from '#shared/protocol/protocol.js';

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
  /** Diagnostics the client pulls (`textDocument/diagnostic`, `workspace/diagnostic`). */
  pull: PullDiagnostics;
  capabilities(): ClientCapabilities;
  /** What the URL-aware features need (`url-requests.ts`). */
  urls: UrlHost;
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
   * A request of kit's own (`shared/protocol`), which takes no params: whatever a client sends as
   * params (none, an array, a value), the library passes the cancellation token last. The answer
   * is checked against the row's result type.
   */
  const kitRequest = <R>(row: KitRequest<NoParams, R>, fn: () => NoInfer<R>): void => {
    const answer = (token: CancellationToken) => request(row.method, fn)(undefined, token);
    c.onRequest(row.method, (...args: unknown[]): unknown => answer(args[args.length - 1] as CancellationToken));
  };
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
  c.onRenameRequest(
    onKit('rename', (p, key, q: RenameParams) =>
      rename(p.ctx, key, q.position, q.newName, {
        annotations: annotationSupport(host.urls.capabilities()),
        report: (m) => {
          host.log(m);
          warn(c, m);
        },
      }),
    )(),
  );
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
  // Highlights, linked tag names, selection ranges, component props, call hierarchy, pulled diagnostics.
  c.onDocumentHighlight(
    onKit('documentHighlight', (p, key, q: TextDocumentPositionParams) => documentHighlights(p.ctx, key, q.position))(),
  );
  c.languages.onLinkedEditingRange(
    onKit('linkedEditingRange', (p, key, q: TextDocumentPositionParams) =>
      linkedEditingRanges(p.ctx, key, q.position),
    )(),
  );
  c.onSelectionRanges(
    onKit('selectionRange', (p, key, q: SelectionRangeParams) => selectionRanges(p.ctx, key, q.positions))(),
  );
  c.onSignatureHelp(
    onKit('signatureHelp', (p, key, q: TextDocumentPositionParams) =>
      signatureHelp(p.ctx, key, q.position, {
        noActiveParameter:
          host.capabilities().textDocument?.signatureHelp?.signatureInformation?.noActiveParameterSupport === true,
      }),
    )(),
  );
  c.languages.callHierarchy.onPrepare(
    request('prepareCallHierarchy', (q: CallHierarchyPrepareParams) => {
      const doc = host.kitDocument(q.textDocument.uri);
      if (doc) return prepareCallHierarchy(doc.project.ctx, doc.key, q.position);
      const fsPath = fsPathOf(q.textDocument.uri);
      const p = host.projects.projectFor(fsPath);
      return prepareCallHierarchyInModule(p.ctx, p.keyOf(fsPath), q.position);
    }),
  );
  /** Calls of an item made by `prepareCallHierarchy`; null for one that is not (its `data` is not kit's). */
  const calls =
    <R>(name: string, fn: (ctx: FeatureContext, data: CallData) => R[]) =>
    (q: CallHierarchyIncomingCallsParams, token: CancellationToken) =>
      request(name, () => {
        const data = callData(q.item.data);
        return data ? fn(host.projects.projectFor(fsPathOf(q.item.uri)).ctx, data) : null;
      })(q, token);
  c.languages.callHierarchy.onIncomingCalls(calls('incomingCalls', incomingCalls));
  c.languages.callHierarchy.onOutgoingCalls(calls('outgoingCalls', outgoingCalls));
  /** A diagnostic pull: a cancelled one tells the client to ask again (LSP 3.17 `retriggerRequest`). */
  const pulled =
    <P, R>(name: string, fn: (params: P) => R) =>
    (params: P, token: CancellationToken): R | ResponseError<{ retriggerRequest: boolean }> => {
      const r = request(name, fn)(params, token);
      if (!(r instanceof ResponseError)) return r;
      return new ResponseError(r.code, r.message, { retriggerRequest: r.code === LSPErrorCodes.RequestCancelled });
    };
  c.languages.diagnostics.on(
    pulled('diagnostic', (q: DocumentDiagnosticParams) => host.pull.document(q.textDocument.uri, q.previousResultId)),
  );
  c.languages.diagnostics.onWorkspace(
    pulled('workspaceDiagnostic', (q: WorkspaceDiagnosticParams) => host.pull.workspaceReport(q.previousResultIds)),
  );
  kitRequest(KIT_REQUESTS.routes, () => routesReport(named()));
  kitRequest(KIT_REQUESTS.tree, () => treeReport(named()));
  registerUrlRequests(c, host, request, onKit);
  kitRequest(KIT_REQUESTS.stats, () => {
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
  });
}
