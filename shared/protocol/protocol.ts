// kit's own LSP methods, named once: the requests the language server (server/src/lsp) answers and
// the notifications it sends beyond the Language Server Protocol, which the VS Code extension
// (client/src) and any other client use, each with the types of its params and result as they cross
// the connection (JSON). The server registers each method through its row here, so its answer is
// checked against the type (a report with more fields than a type names still fits it), and the
// client asks through the same row. Adding a method is a row in `KIT_REQUESTS` or
// `KIT_NOTIFICATIONS`, and its types. The bottom layer: it imports nothing, and both sides may
// import it (they may not import each other).

/** A request of kit's own: its method, and (as types only) its params `P` and result `R`. */
export interface KitRequest<P, R> {
  readonly method: string;
  /** Never set: it carries the types for `sendRequest` and `onRequest`. */
  readonly types?: { params: P; result: R };
}

/** A notification of kit's own: its method, and (as a type only) its params `P`. */
export interface KitNotification<P> {
  readonly method: string;
  /** Never set: it carries the type for `sendNotification` and `onNotification`. */
  readonly types?: { params: P };
}

function request<P, R>(method: string): KitRequest<P, R> {
  return { method };
}

function notification<P>(method: string): KitNotification<P> {
  return { method };
}

/** What kit's requests without params are sent: any params pass (the server reads none). */
export type NoParams = Record<string, never>;

/**
 * A row of the routes report (schemas/routes.schema.json) as a client reads it: the fields page and
 * endpoint rows share. `kit routes --format json` has the whole row.
 */
export interface RouteRow {
  kind: string;
  method: string;
  route: string;
  pageId: string;
  render?: string;
  guards?: string[];
  cache?: string;
  csrf?: boolean;
  bindingStatus?: string;
  handler?: string;
  source: string;
}

/** A note of the routes report (a page whose request-time rendering is off, say). */
export interface RouteInfo {
  code: string;
  pageId: string;
  route: string;
  message: string;
}

/** One workspace folder's part of an answer. */
export interface FolderAnswer {
  /** The folder's URI; `""` for files outside every workspace folder. */
  root: string;
  name: string;
}

/** `kit/routes`: each folder's routes report. */
export interface RoutesAnswer {
  version: 1;
  workspaces: (FolderAnswer & { routes: RouteRow[]; info: RouteInfo[] })[];
}

/** A node of the source tree report (schemas/tree.schema.json). */
export interface SourceTreeNode {
  id: string;
  kind: string;
  name?: string;
  source?: string;
  children?: SourceTreeNode[];
}

/** `kit/tree`: each folder's source tree, as `kit inspect tree` prints it. */
export interface TreeAnswer {
  version: 1;
  workspaces: (FolderAnswer & { report: { version: 1; root: SourceTreeNode } })[];
}

/** `kit/stats`: the server's memory and what it holds. */
export interface StatsAnswer {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** `.kit` files and handler modules of every folder. */
  files: number;
  modules: number;
  /** Handler modules whose TypeScript syntax tree is held (binding forgets them once a folder is bound). */
  parsedModules: number;
  /** Directories whose bindings a binding worker made. */
  prebound: number;
  /** `.kit` files a first index took from loading threads. */
  pooled: number;
  openDocuments: number;
}

/** `kit/status`: a folder's index is published: `ready` (everything but binding), then `bound`. */
export interface StatusParams {
  state: 'ready' | 'bound';
  /** The folder's URI. */
  root: string | undefined;
  files: number;
  modules: number;
  /** Since the index of the folder started. */
  ms: number;
}

/** `kit/resolveUrl` params: a request path (with its query), and the method (else GET and every other). */
export interface ResolveUrlParams {
  url: string;
  method?: string;
}

/** One method's answer at a URL, as the generated app would give it. */
export interface ResolvedUrl {
  method: string;
  /** `route`, `redirect`, `kit` (kit's own endpoint) or `none`. */
  outcome: 'route' | 'redirect' | 'kit' | 'none';
  status: number;
  /** `page`, `action`, `api`, `fragment`, `command`, `query`. */
  kind?: string;
  /** `page blog.post`, `action blog.post.Subscribe`. */
  owner?: string;
  /** The route pattern that matched. */
  route?: string;
  params: Record<string, string>;
  /** The declaration that answers (for a page built from `paths {}`, the record). */
  location?: {
    uri: string;
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
  };
  /** A trailing-slash redirect's target. */
  redirect?: string;
  note?: string;
  /** The workspace folder's name (several folders are several sites). */
  folder: string;
}

/** `kit/resolveUrl`: what each workspace folder's app answers at the URL. */
export interface ResolveUrlAnswer {
  url: string;
  answers: ResolvedUrl[];
}

/** The requests kit's language server answers beyond the protocol. */
export const KIT_REQUESTS = {
  routes: request<NoParams, RoutesAnswer>('kit/routes'),
  tree: request<NoParams, TreeAnswer>('kit/tree'),
  stats: request<NoParams, StatsAnswer>('kit/stats'),
  resolveUrl: request<ResolveUrlParams, ResolveUrlAnswer>('kit/resolveUrl'),
} as const;

/** The notifications kit's language server sends beyond the protocol. */
export const KIT_NOTIFICATIONS = {
  status: notification<StatusParams>('kit/status'),
} as const;

/**
 * Sends a request of kit's own through any JSON-RPC sender (vscode-languageclient's
 * `sendRequest`, vscode-jsonrpc's): its params and result typed as its row says.
 */
export function sendKitRequest<P, R>(
  send: (method: string, params: P) => Promise<unknown>,
  row: KitRequest<P, R>,
  params: NoInfer<P>,
): Promise<R> {
  return send(row.method, params) as Promise<R>;
}
