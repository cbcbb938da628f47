// The shape of the params of every message the server handles, checked once before any handler
// (and before the protocol library, which reads `params.workDoneToken` itself) sees them: a
// request whose params do not fit is answered with InvalidParams naming the field
// (`params.position.line must be an integer from 0`), a notification that does not fit is ignored
// with a line in the log, so that no handler meets `null` where the protocol promises an object,
// and no document is edited by a change that is not one. Only the fields the protocol requires and
// the server reads are checked; others pass as they are.
import { KIT_REQUESTS } from '#shared/protocol/protocol.js';

/** Why `value` (at `path`) does not fit, or undefined. */
type Check = (value: unknown, path: string) => string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const string: Check = (v, path) => (typeof v === 'string' ? undefined : `${path} must be a string`);
const boolean: Check = (v, path) => (typeof v === 'boolean' ? undefined : `${path} must be true or false`);
const integer: Check = (v, path) => (Number.isSafeInteger(v) ? undefined : `${path} must be an integer`);
/** The protocol's `uinteger`: 0 to 2^31 - 1. */
const uinteger: Check = (v, path) =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0x7fffffff
    ? undefined
    : `${path} must be an integer from 0`;
const any: Check = () => undefined;

function optional(check: Check): Check & { optional: true } {
  return Object.assign((v: unknown, path: string) => (v === undefined ? undefined : check(v, path)), {
    optional: true as const,
  });
}

function nullable(check: Check): Check {
  return (v, path) => (v === null ? undefined : check(v, path));
}

function object(fields: Record<string, Check & { optional?: true }>): Check {
  return (v, path) => {
    if (!isObject(v)) return `${path} must be an object`;
    for (const [name, check] of Object.entries(fields)) {
      const has = Object.hasOwn(v, name);
      if (!has && !check.optional) return `${path}.${name} is missing`;
      const problem = check(has ? v[name] : undefined, `${path}.${name}`);
      if (problem) return problem;
    }
    return undefined;
  };
}

function array(item: Check): Check {
  return (v, path) => {
    if (!Array.isArray(v)) return `${path} must be an array`;
    for (let i = 0; i < v.length; i++) {
      const problem = item(v[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };
}

function oneOf(values: readonly unknown[]): Check {
  return (v, path) => (values.includes(v) ? undefined : `${path} must be one of ${values.join(', ')}`);
}

const position = object({ line: uinteger, character: uinteger });
const range = object({ start: position, end: position });
const textDocument = object({ uri: string });
const atPosition = { textDocument, position };
const workspaceFolder = object({ uri: string, name: string });
/** An item of `textDocument/prepareCallHierarchy`, as the client hands it back (its `data` is the server's). */
const callHierarchyItem = object({ name: string, kind: uinteger, uri: string, range, selectionRange: range });
const diagnostic = object({
  range,
  message: string,
  code: optional((v, path) =>
    typeof v === 'string' || Number.isSafeInteger(v) ? undefined : `${path} must be a string or an integer`,
  ),
});

/** Requests the server answers, by method. `kit/*` requests without an entry take no params: anything passes. */
const REQUESTS = new Map<string, Check>(
  Object.entries({
    initialize: object({
      capabilities: object({}),
      processId: optional(nullable(integer)),
      rootUri: optional(nullable(string)),
      workspaceFolders: optional(nullable(array(workspaceFolder))),
      initializationOptions: optional(any),
    }),
    'textDocument/hover': object(atPosition),
    'textDocument/definition': object(atPosition),
    'textDocument/prepareRename': object(atPosition),
    'textDocument/completion': object(atPosition),
    'textDocument/references': object({ ...atPosition, context: object({ includeDeclaration: boolean }) }),
    'textDocument/rename': object({ ...atPosition, newName: string }),
    'textDocument/codeLens': object({ textDocument }),
    'textDocument/documentSymbol': object({ textDocument }),
    'textDocument/foldingRange': object({ textDocument }),
    'textDocument/semanticTokens/full': object({ textDocument }),
    'textDocument/formatting': object({ textDocument, options: object({ tabSize: uinteger, insertSpaces: boolean }) }),
    'textDocument/codeAction': object({ textDocument, range, context: object({ diagnostics: array(diagnostic) }) }),
    'workspace/symbol': object({ query: string }),
    // Highlights, linked tag names, selection ranges, component props, call hierarchy, pulled diagnostics.
    'textDocument/documentHighlight': object(atPosition),
    'textDocument/linkedEditingRange': object(atPosition),
    'textDocument/selectionRange': object({ textDocument, positions: array(position) }),
    'textDocument/signatureHelp': object(atPosition),
    'textDocument/prepareCallHierarchy': object(atPosition),
    'callHierarchy/incomingCalls': object({ item: callHierarchyItem }),
    'callHierarchy/outgoingCalls': object({ item: callHierarchyItem }),
    'textDocument/diagnostic': object({ textDocument, previousResultId: optional(string) }),
    'workspace/diagnostic': object({ previousResultIds: array(object({ uri: string, value: string })) }),
    // The URL-aware features (`url-requests.ts`).
    'textDocument/documentLink': object({ textDocument }),
    'textDocument/inlayHint': object({ textDocument, range }),
    'workspace/willRenameFiles': object({ files: array(object({ oldUri: string, newUri: string })) }),
    [KIT_REQUESTS.resolveUrl.method]: object({ url: string, method: optional(string) }),
  }),
);

const contentChange: Check = (v, path) =>
  isObject(v) && Object.hasOwn(v, 'range')
    ? object({ range, text: string })(v, path)
    : object({ text: string })(v, path);

/** Notifications the server acts on, by method. */
const NOTIFICATIONS = new Map<string, Check>(
  Object.entries({
    'textDocument/didOpen': object({
      textDocument: object({ uri: string, languageId: string, version: integer, text: string }),
    }),
    'textDocument/didChange': object({
      textDocument: object({ uri: string, version: integer }),
      contentChanges: array(contentChange),
    }),
    'textDocument/didClose': object({ textDocument }),
    'workspace/didChangeWatchedFiles': object({ changes: array(object({ uri: string, type: oneOf([1, 2, 3]) })) }),
    'workspace/didChangeConfiguration': object({ settings: optional(any) }),
    'workspace/didChangeWorkspaceFolders': object({
      event: object({ added: array(workspaceFolder), removed: array(workspaceFolder) }),
    }),
  }),
);

/** The methods whose params are checked: every request and notification the server handles with params. */
export const CHECKED_REQUESTS: readonly string[] = [...REQUESTS.keys()];
export const CHECKED_NOTIFICATIONS: readonly string[] = [...NOTIFICATIONS.keys()];

/**
 * Why the params of a `method` message do not fit what the server reads, or undefined (also for
 * methods it does not check). `request`: the message has an id.
 */
export function paramsProblem(method: string, params: unknown, request: boolean): string | undefined {
  const check = (request ? REQUESTS : NOTIFICATIONS).get(method);
  return check?.(params, 'params');
}
