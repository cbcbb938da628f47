// Open documents: the editor's text wins over the disk while a document is open. Changes arrive
// incrementally and are applied here; parsing happens later, once per burst of edits. Documents that
// are too large or binary are kept out of the model (the last good text stays in effect).
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';

import { MAX_SOURCE_BYTES } from '#core/project/read-source.js';

/** Documents above this size (UTF-8 bytes) are not analysed: the cap of files read from disk. */
export const MAX_DOCUMENT_BYTES = MAX_SOURCE_BYTES;

export type DocumentProblem = 'document_too_large' | 'binary_document';

export interface OpenDocument {
  uri: string;
  fsPath: string;
  doc: TextDocument;
  /** Why the current text is not analysed, if it is not. */
  problem?: DocumentProblem;
}

/** `mayHoldNul` false: the caller knows the text has no NUL character. */
export function documentProblem(text: string, mayHoldNul = true): DocumentProblem | undefined {
  // Three UTF-8 bytes per UTF-16 unit at most: only long texts need the exact byte count.
  if (text.length * 3 > MAX_DOCUMENT_BYTES && Buffer.byteLength(text, 'utf8') > MAX_DOCUMENT_BYTES)
    return 'document_too_large';
  if (mayHoldNul && text.includes('\u0000')) return 'binary_document';
  return undefined;
}

export class OpenDocuments {
  private readonly byPath = new Map<string, OpenDocument>();

  open(uri: string, fsPath: string, languageId: string, version: number, text: string): OpenDocument {
    const d: OpenDocument = {
      uri,
      fsPath,
      doc: TextDocument.create(uri, languageId, version, text),
      problem: documentProblem(text),
    };
    this.byPath.set(fsPath, d);
    return d;
  }

  /** Applies incremental (or full) changes; answers undefined for a document that is not open. */
  change(fsPath: string, version: number, changes: TextDocumentContentChangeEvent[]): OpenDocument | undefined {
    const d = this.byPath.get(fsPath);
    if (!d) return undefined;
    d.doc = TextDocument.update(d.doc, changes, version);
    const text = d.doc.getText();
    // A text without NUL characters stays so when none is inserted: no need to scan a long
    // document on every keystroke.
    const clean = d.problem === undefined && !changes.some((c) => c.text.includes('\u0000'));
    d.problem = clean ? documentProblem(text, false) : documentProblem(text);
    return d;
  }

  close(fsPath: string): OpenDocument | undefined {
    const d = this.byPath.get(fsPath);
    this.byPath.delete(fsPath);
    return d;
  }

  get(fsPath: string): OpenDocument | undefined {
    return this.byPath.get(fsPath);
  }

  has(fsPath: string): boolean {
    return this.byPath.has(fsPath);
  }

  all(): OpenDocument[] {
    return [...this.byPath.values()];
  }
}
