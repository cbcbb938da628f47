// Pull diagnostics (LSP 3.17: `textDocument/diagnostic`, `workspace/diagnostic`) beside the pushed
// ones. Both channels read one list per file, made by one function (the publisher's), so a file's
// pulled diagnostics are the ones push would send, ranges and all.
//
// Result IDs: a file's ID is a hash of its diagnostics as sent, so it changes exactly when they
// change (a cross-file one, a related place that moved) and not otherwise, and it survives a
// restart of the server. An answer is remembered per file; the publisher marks it stale whenever
// the model says the file may be affected (the same files push re-checks), so an unchanged file
// is answered `unchanged` from memory, and a stale one is recomputed and compared by its hash.
//
// One channel per file: a client that pulls a document (while it is open) or pulls the workspace
// owns those files' diagnostics from then on, and push withdraws what it had sent for them, so no
// editor shows a diagnostic twice. Push keeps every other file (a client that pulls only its open
// documents still gets the rest pushed), and takes a pulled document back when it is closed.
import { createHash } from 'node:crypto';
import {
  DocumentDiagnosticReportKind,
  type Diagnostic as LspDiagnostic,
  type DocumentDiagnosticReport,
  type PreviousResultId,
  type WorkspaceDiagnosticReport,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver';

export interface PullSource {
  /** The URI push names a file by, for a URI the client sent (its spelling may differ). */
  canonical(uri: string): string;
  /** A file's diagnostics as push sends them. */
  diagnosticsOf(uri: string): LspDiagnostic[];
  /** Every file of the models that are complete (not being indexed). */
  files(): Iterable<{ uri: string }>;
  /** Is `uri` a file of a model, or an open document? */
  exists(uri: string): boolean;
  /** The open documents' versions, by URI. */
  openVersions(): Map<string, number>;
  /** Push withdraws what it sent for `uri` (and sends nothing more while the client pulls it). */
  withdraw(uri: string): void;
  /** The same for every file. */
  withdrawAll(): void;
  /** Asks the client to pull again (`workspace/diagnostic/refresh`), where it supports that. */
  refresh(): void;
}

interface Result {
  id: string;
  items: LspDiagnostic[];
}

function resultOf(items: LspDiagnostic[]): Result {
  const id = createHash('sha1').update(JSON.stringify(items)).digest('base64url');
  return { id, items };
}

export class PullDiagnostics {
  /** The last answer per file, for files the client pulled. */
  private readonly results = new Map<string, Result>();
  /** Files whose remembered answer may no longer hold (any touched file, once the workspace is pulled). */
  private readonly stale = new Set<string>();
  /** Files whose remembered answer has diagnostics. */
  private readonly nonEmpty = new Set<string>();
  /** Open documents whose diagnostics the client pulls. */
  private readonly documents = new Set<string>();
  /** The client pulls the workspace: it owns every file's diagnostics. */
  private workspace = false;
  private refreshScheduled = false;

  constructor(private readonly source: PullSource) {}

  /** Does the client pull `uri`'s diagnostics (so push leaves it alone)? */
  pulls(uri: string): boolean {
    return this.workspace || this.documents.has(uri);
  }

  /**
   * `uri`'s diagnostics may have changed. `edited`: by the client's own edit of it, which makes
   * the client pull it again anyway; any other cause asks the client to pull again.
   */
  touch(uri: string, edited: boolean): void {
    // Once the client pulls the workspace, every touched file is one its next report looks at.
    if (this.workspace || this.results.has(uri)) this.stale.add(uri);
    if (!edited && this.pulls(uri)) this.scheduleRefresh();
  }

  /** A document was closed: push takes it back unless the client pulls the workspace. Answers whether it did. */
  closed(uri: string): boolean {
    return this.documents.delete(uri) && !this.workspace;
  }

  private current(uri: string): Result {
    const kept = this.results.get(uri);
    if (kept && !this.stale.has(uri)) return kept;
    this.stale.delete(uri);
    const fresh = resultOf(this.source.diagnosticsOf(uri));
    // The same diagnostics keep their object, so that `kept === fresh` tells "unchanged" cheaply.
    const result = kept && kept.id === fresh.id ? kept : fresh;
    this.results.set(uri, result);
    if (result.items.length) this.nonEmpty.add(uri);
    else this.nonEmpty.delete(uri);
    return result;
  }

  /** `textDocument/diagnostic`. */
  document(sent: string, previousResultId: string | undefined): DocumentDiagnosticReport {
    const uri = this.results.has(sent) ? sent : this.source.canonical(sent);
    if (this.source.openVersions().has(uri) && !this.documents.has(uri)) {
      this.documents.add(uri);
      if (!this.workspace) this.source.withdraw(uri);
    }
    const r = this.current(uri);
    return r.id === previousResultId
      ? { kind: DocumentDiagnosticReportKind.Unchanged, resultId: r.id }
      : { kind: DocumentDiagnosticReportKind.Full, resultId: r.id, items: r.items };
  }

  /**
   * `workspace/diagnostic`: every file the client knows (its previous IDs) and every file with
   * diagnostics; files without diagnostics the client never saw are left out. The first report
   * reads every file; the next ones only the files touched since, those with diagnostics and
   * those the client names.
   */
  workspaceReport(previous: readonly PreviousResultId[]): WorkspaceDiagnosticReport {
    // The URIs this server sent come back as they were; others are spelled as push spells them.
    const known = new Map(
      previous.map((p) => [this.results.has(p.uri) ? p.uri : this.source.canonical(p.uri), p.value]),
    );
    const open = this.source.openVersions();
    const stale = [...this.stale];
    const strangers = [...known.keys()].filter((uri) => !this.results.has(uri));
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    const seen = new Set<string>();
    const report = (uri: string) => {
      if (seen.has(uri)) return;
      seen.add(uri);
      const r = this.current(uri);
      const before = known.get(uri);
      const version = open.get(uri) ?? null;
      if (r.id === before) items.push({ kind: DocumentDiagnosticReportKind.Unchanged, uri, version, resultId: r.id });
      else if (before !== undefined || r.items.length > 0)
        items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version, resultId: r.id, items: r.items });
    };
    if (this.workspace) {
      for (const uri of [...stale, ...this.nonEmpty]) report(uri);
    } else {
      for (const f of this.source.files()) report(f.uri);
      this.workspace = true;
      this.source.withdrawAll();
    }
    for (const uri of known.keys()) report(uri);
    // A file that left every model has nothing more to report: it is forgotten.
    for (const uri of [...stale, ...strangers])
      if (!this.nonEmpty.has(uri) && !open.has(uri) && !this.source.exists(uri)) this.results.delete(uri);
    return { items };
  }

  private scheduleRefresh(): void {
    if (this.refreshScheduled) return;
    this.refreshScheduled = true;
    setImmediate(() => {
      this.refreshScheduled = false;
      this.source.refresh();
    });
  }
}
