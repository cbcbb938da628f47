// What pulled diagnostics (`features/pull-diagnostics.ts`) read from the server: the files of the
// indexed models, named and computed the way push names and computes them (`publishing.ts`), and
// the client's `workspace/diagnostic/refresh` where it has one.
import { type ClientCapabilities, type Connection, DiagnosticRefreshRequest } from 'vscode-languageserver/node';
import { fsPathOf } from './convert.js';
import type { OpenDocuments } from './documents.js';
import { PullDiagnostics } from './features/pull-diagnostics.js';
import type { ProjectSet } from './projects.js';
import type { Publisher } from './publishing.js';

export interface PullHost {
  connection: Connection;
  projects: ProjectSet;
  docs: OpenDocuments;
  publisher: Publisher;
  uriOf(fsPath: string): string;
  capabilities(): ClientCapabilities;
}

/** The value of `key` in `map`, made once (the map is emptied when it grows past any workspace's size). */
function cached(map: Map<string, string>, key: string, make: () => string): string {
  let v = map.get(key);
  if (v === undefined) {
    if (map.size >= 200_000) map.clear();
    map.set(key, (v = make()));
  }
  return v;
}

/** Pulled diagnostics over the server's models; the publisher leaves the files the client pulls to them. */
export function startPullDiagnostics(host: PullHost): PullDiagnostics {
  const { projects, docs, publisher } = host;
  // URIs as push spells them, by path and by what the client sent: a workspace report names
  // thousands of files, and building a URI costs more than the rest of an unchanged answer.
  const uris = new Map<string, string>();
  const canonical = new Map<string, string>();
  const uriOf = (fsPath: string) => docs.get(fsPath)?.uri ?? cached(uris, fsPath, () => host.uriOf(fsPath));
  const pull = new PullDiagnostics({
    canonical: (uri) => {
      const fsPath = fsPathOf(uri);
      return docs.get(fsPath)?.uri ?? cached(canonical, uri, () => uriOf(fsPath));
    },
    diagnosticsOf: (uri) => {
      const p = projects.projectFor(fsPathOf(uri));
      return publisher.diagnosticsOf(p, p.keyOf(fsPathOf(uri)));
    },
    *files() {
      for (const p of projects.all()) {
        if (p.indexing) continue; // its files are reported once it is indexed
        for (const key of [...p.ws.kitPaths(), ...p.ws.modulePaths()]) yield { uri: uriOf(p.fsPathOf(key)) };
      }
      for (const d of docs.all()) yield { uri: d.uri };
    },
    exists: (uri) => {
      const fsPath = fsPathOf(uri);
      const p = projects.projectFor(fsPath);
      return docs.has(fsPath) || p.ws.has(p.keyOf(fsPath));
    },
    openVersions: () => new Map(docs.all().map((d) => [d.uri, d.doc.version])),
    withdraw: (uri) => publisher.withdraw(uri),
    withdrawAll: () => publisher.withdrawAll(),
    refresh: () => {
      if (host.capabilities().workspace?.diagnostics?.refreshSupport)
        void host.connection.sendRequest(DiagnosticRefreshRequest.type).catch(() => undefined);
    },
  });
  publisher.pull = pull;
  return pull;
}
