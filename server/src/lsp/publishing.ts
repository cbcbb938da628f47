// Diagnostics publishing: what was last sent per document, and the diff that decides whether to
// send again. Documents just edited are sent as they are: comparing a long file's thousands of
// diagnostics with the last ones would cost as much as sending them. Files whose diagnostics the
// client pulls (`features/pull-diagnostics.ts`) are only marked for it: push sends them nothing.
import type { Connection, Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import { diag } from '#core/diagnostics/registry.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import { toLspDiagnostic } from './convert.js';
import type { OpenDocument, OpenDocuments } from './documents.js';
import type { PullDiagnostics } from './features/pull-diagnostics.js';
import type { KitProject, ProjectSet } from './projects.js';

export class Publisher {
  /**
   * The last non-empty diagnostics published per URI (empty lists are not kept), as JSON once they
   * have been compared: they are turned into JSON only when the next publication needs comparing.
   */
  private readonly published = new Map<string, string | LspDiagnostic[]>();
  /** Files whose diagnostics are published even when unchanged (the documents just edited). */
  private readonly mustPublish = new Set<string>();
  /** What the client pulls, once the server has it. */
  pull: PullDiagnostics | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly docs: OpenDocuments,
    private readonly uriOf: (fsPath: string) => string,
  ) {}

  /** The document's diagnostics go out at the next `publishChanges`, changed or not. */
  force(fsPath: string): void {
    this.mustPublish.add(fsPath);
  }

  /** A file left every model: its diagnostics are withdrawn. */
  clear(uri: string): void {
    this.pull?.touch(uri, false);
    this.withdraw(uri);
  }

  /** What push sent for `uri` is withdrawn (the file left, or the client pulls it now). */
  withdraw(uri: string): void {
    if (this.published.delete(uri)) this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  withdrawAll(): void {
    for (const uri of [...this.published.keys()]) this.withdraw(uri);
  }

  /** Publishes what changed in each project's model, and the forced documents. */
  publishChanges(projects: ProjectSet): void {
    const sent = new Set<string>();
    for (const p of projects.all()) {
      if (p.indexing) continue; // indexing publishes the whole folder when it is done
      for (const key of p.ws.takeAffected()) {
        const fsPath = p.fsPathOf(key);
        const force = this.mustPublish.has(fsPath) && projects.projectFor(fsPath) === p;
        this.publish(p, key, force);
        if (force) sent.add(fsPath);
      }
    }
    for (const fsPath of this.mustPublish) {
      if (sent.has(fsPath)) continue;
      const p = projects.projectFor(fsPath);
      this.publish(p, p.keyOf(fsPath), true);
    }
    this.mustPublish.clear();
  }

  /** A file's diagnostics as the client gets them, pushed or pulled. */
  diagnosticsOf(p: KitProject, key: string): LspDiagnostic[] {
    const d = this.docs.get(p.fsPathOf(key));
    const uriOfKey = (k: string) => this.uriOf(p.fsPathOf(k));
    const core = d?.problem ? [problemDiagnostic(d, key)] : p.ws.has(key) ? p.ws.diagnosticsFor(key) : [];
    return core.map((x) => toLspDiagnostic(x, uriOfKey));
  }

  publish(p: KitProject, key: string, force = false): void {
    const fsPath = p.fsPathOf(key);
    const uri = this.uriOf(fsPath);
    if (this.pull) {
      this.pull.touch(uri, force);
      if (this.pull.pulls(uri)) return;
    }
    const d = this.docs.get(fsPath);
    const diagnostics = this.diagnosticsOf(p, key);
    let kept: string | LspDiagnostic[] = diagnostics;
    if (!force) {
      const last = this.published.get(uri);
      if (last === undefined) {
        // Nothing published before (a folder's first index): only an empty list is the same.
        if (diagnostics.length === 0) return;
      } else {
        const json = diagnostics.length ? JSON.stringify(diagnostics) : '';
        const same = json === (typeof last === 'string' ? last : JSON.stringify(last));
        kept = json;
        if (same) {
          if (json) this.published.set(uri, json);
          return;
        }
      }
    }
    if (diagnostics.length) this.published.set(uri, kept);
    else this.published.delete(uri);
    this.connection.sendDiagnostics({ uri, version: d?.doc.version, diagnostics });
  }
}

/** Why an open document is not analysed, as its only diagnostic. */
function problemDiagnostic(d: OpenDocument, key: string): Diagnostic {
  const zero = { start: { offset: 0, line: 0, column: 0 }, end: { offset: 0, line: 0, column: 0 } };
  return d.problem === 'document_too_large'
    ? diag(
        'document_too_large',
        key,
        zero,
        'the document is larger than 8 MiB; kit does not analyse it (the last smaller version stays in effect)',
      )
    : diag('binary_document', key, zero, 'the document contains NUL characters (binary data); kit does not analyse it');
}
