// What the server advertises in its `initialize` answer: a provider for every request it answers
// (`requests.ts`), with the options each takes. Kept apart from the wiring (`server.ts`), which
// only hands it over.
import { CodeActionKind, TextDocumentSyncKind, type ServerCapabilities } from 'vscode-languageserver/node';
import { SEMANTIC_LEGEND } from './features/semantic-tokens.js';
import { URL_CAPABILITIES, URL_WORKSPACE_CAPABILITIES } from './url-requests.js';

export function serverCapabilities(): ServerCapabilities {
  return {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
    hoverProvider: true,
    codeLensProvider: {},
    definitionProvider: true,
    referencesProvider: true,
    renameProvider: { prepareProvider: true },
    completionProvider: { triggerCharacters: ['<', ':', '{', ' ', '.', '"', ','] },
    documentSymbolProvider: true,
    workspaceSymbolProvider: true,
    foldingRangeProvider: true,
    semanticTokensProvider: { legend: SEMANTIC_LEGEND, full: true },
    documentFormattingProvider: true,
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    // Highlights, linked tag names, selection ranges, component props, call hierarchy, pulled diagnostics.
    documentHighlightProvider: true,
    linkedEditingRangeProvider: true,
    selectionRangeProvider: true,
    // A space after a component's name or one of its props; `=` while a prop's value is typed.
    signatureHelpProvider: { triggerCharacters: [' '], retriggerCharacters: ['='] },
    callHierarchyProvider: true,
    diagnosticProvider: { identifier: 'kit', interFileDependencies: true, workspaceDiagnostics: true },
    // Document links, inlay hints and file renames (`url-requests.ts`).
    ...URL_CAPABILITIES,
    workspace: { workspaceFolders: { supported: true, changeNotifications: true }, ...URL_WORKSPACE_CAPABILITIES },
  };
}
