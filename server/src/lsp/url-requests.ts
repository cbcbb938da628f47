// The requests of the URL-aware features, wired the way `requests.ts` wires the others (its
// `request` and `onKit` wrappers: cancellation, models brought up to date, failures answered per
// request): document links, inlay hints, file renames and `kit/resolveUrl`. Definition, references,
// rename and workspace symbols reach the URL features through their own handlers. The capabilities
// the server advertises for them are here too, so that `server.ts` names them in one place.
import {
  type CancellationToken,
  type ClientCapabilities,
  type Connection,
  type DocumentLinkParams,
  type FileOperationRegistrationOptions,
  type InlayHintParams,
  InlayHintRefreshRequest,
  MessageType,
  ShowMessageNotification,
  type RenameFilesParams,
  type ResponseError,
  type ServerCapabilities,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver/node';
import { KIT_REQUESTS, type ResolveUrlAnswer, type ResolveUrlParams } from '#shared/protocol/protocol.js';
import { fsPathOf } from './convert.js';
import { fileRenameEdits, type FileRename } from './features/file-rename.js';
import { resolveUrl } from './features/go-to-url.js';
import { inlayHints, type InlayHintSettings } from './features/inlay-hints.js';
import { documentLinks } from './features/url-links.js';
import type { KitProject, ProjectSet } from './projects.js';

/** Renames of `.kit` files and of folders (which may hold them) are announced before they happen. */
const WILL_RENAME: FileOperationRegistrationOptions = {
  filters: [
    { scheme: 'file', pattern: { glob: '**/*.kit', matches: 'file' } },
    { scheme: 'file', pattern: { glob: '**/*', matches: 'folder' } },
  ],
};

/** What the URL features add to the server's capabilities. */
export const URL_CAPABILITIES = {
  documentLinkProvider: { resolveProvider: false },
  inlayHintProvider: true,
} satisfies ServerCapabilities;
export const URL_WORKSPACE_CAPABILITIES = {
  fileOperations: { willRename: WILL_RENAME },
} satisfies ServerCapabilities['workspace'];

export interface UrlHost {
  capabilities(): ClientCapabilities;
  hints: InlayHintSettings;
}

type Wrap = <P, R>(
  name: string,
  fn: (params: P) => R,
) => (params: P, token: CancellationToken) => R | ResponseError<void>;
type OnKit = <P extends { textDocument: { uri: string } }, R>(
  name: string,
  fn: (p: KitProject, key: string, params: P) => R,
) => (fallback?: R | null) => (params: P, token: CancellationToken) => R | null | ResponseError<void>;

/** The renames of one project, as workspace paths; renames across projects are left to their projects' indexes. */
function renamesByProject(projects: ProjectSet, p: RenameFilesParams): Map<KitProject, FileRename[]> {
  const out = new Map<KitProject, FileRename[]>();
  for (const f of p.files) {
    const from = fsPathOf(f.oldUri);
    const to = fsPathOf(f.newUri);
    const project = projects.projectFor(from);
    if (projects.projectFor(to) !== project) continue;
    const list = out.get(project) ?? [];
    list.push({ oldPath: project.keyOf(from), newPath: project.keyOf(to) });
    out.set(project, list);
  }
  return out;
}

export function registerUrlRequests(
  c: Connection,
  host: { projects: ProjectSet; log(message: string): void; urls: UrlHost },
  request: Wrap,
  onKit: OnKit,
): void {
  c.onDocumentLinks(onKit('documentLink', (p, key, _q: DocumentLinkParams) => documentLinks(p.ctx, key))([]));
  c.languages.inlayHint.on(
    onKit('inlayHint', (p, key, q: InlayHintParams) => inlayHints(p.ctx, key, q.range, host.urls.hints))([]),
  );
  const willRename = request('willRenameFiles', (q: RenameFilesParams): WorkspaceEdit | null => {
    const changes: Record<string, TextEdit[]> = {};
    const left: string[] = [];
    for (const [project, renames] of renamesByProject(host.projects, q)) {
      const r = fileRenameEdits(project.ctx, renames);
      Object.assign(changes, r.changes);
      left.push(...r.left);
    }
    if (left.length > 0) {
      host.log(`kit: the rename leaves ${left.length} reference(s) to fix:\n  ${left.join('\n  ')}`);
      warn(c, `kit: the rename leaves ${left.length} reference(s) to fix: ${left.join('; ')}`);
    }
    return Object.keys(changes).length > 0 ? { changes } : null;
  });
  // The library types this handler's errors as `never`; the wrapper's ResponseError is sent all the same.
  c.workspace.onWillRenameFiles(willRename as (p: RenameFilesParams, t: CancellationToken) => WorkspaceEdit | null);
  const { method } = KIT_REQUESTS.resolveUrl;
  c.onRequest(
    method,
    request(
      method,
      (q: ResolveUrlParams): ResolveUrlAnswer =>
        resolveUrl(
          host.projects
            .all()
            .filter((p) => p.root !== undefined || p.ws.kitPaths().length > 0)
            .map((p) => ({ ctx: p.ctx, name: p.name })),
          q.url,
          q.method,
        ),
    ),
  );
}

/** Shows a warning in the editor (a notification: nothing to answer). */
export function warn(c: Connection, message: string): void {
  void c.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
}

/** Asks the client to ask for inlay hints again (after a setting turned a kind on or off), if it can. */
export function refreshInlayHints(c: Connection, caps: ClientCapabilities): void {
  if (caps.workspace?.inlayHint?.refreshSupport)
    void c.sendRequest(InlayHintRefreshRequest.type).catch(() => undefined);
}
