// What the client says it can do, asked in one place: the features shape their answers by it (a
// quick fix that creates a file, a rename whose links come as a group to confirm).
import type { ClientCapabilities } from 'vscode-languageserver/node';

/** The client applies workspace edits that create files. */
export function canCreateFiles(caps: ClientCapabilities): boolean {
  const edit = caps.workspace?.workspaceEdit;
  return Boolean(edit?.documentChanges && edit.resourceOperations?.includes('create'));
}

/** The client applies change annotations in `documentChanges` (route renames confirm their links). */
export function annotationSupport(caps: ClientCapabilities): boolean {
  const edit = caps.workspace?.workspaceEdit;
  return Boolean(edit?.documentChanges && edit.changeAnnotationSupport);
}
