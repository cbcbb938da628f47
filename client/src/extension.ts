// The VS Code extension: starts the kit language server bundled beside it (over Node IPC) and adds
// its commands. Everything clever lives in the server; this file only wires VS Code to it.
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { KIT_REQUESTS, sendKitRequest } from '../../shared/protocol/protocol.js';
import { noAnswerMessage, urlPickItems } from './go-to-url.js';
import { renderRouteTable } from './route-table.js';

let client: LanguageClient | undefined;

function createClient(context: vscode.ExtensionContext): LanguageClient {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    // --expose-gc lets the server return the garbage of its initial indexing at once.
    run: { module, transport: TransportKind.ipc, args: ['lsp'], options: { execArgv: ['--expose-gc'] } },
    debug: {
      module,
      transport: TransportKind.ipc,
      args: ['lsp'],
      options: { execArgv: ['--expose-gc', '--nolazy', '--inspect=6019'] },
    },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'kit' },
      { scheme: 'untitled', language: 'kit' },
    ],
    // The server registers its own file watchers (`workspace/didChangeWatchedFiles`, dynamic registration).
    synchronize: { configurationSection: 'kit' },
    // `kit.ssr` is an override: unset (null), each folder's kit.config decides.
    initializationOptions: { ssr: vscode.workspace.getConfiguration('kit').get<boolean | null>('ssr', null) },
    outputChannelName: 'kit',
  };
  // The id `kit` makes vscode-languageclient honour the `kit.trace.server` setting.
  return new LanguageClient('kit', 'kit language server', serverOptions, clientOptions);
}

async function showRouteTable(context: vscode.ExtensionContext): Promise<void> {
  if (!client) {
    void vscode.window.showWarningMessage('kit: the language server is not running.');
    return;
  }
  const c = client;
  const answer = await sendKitRequest((method, params) => c.sendRequest(method, params), KIT_REQUESTS.routes, {});
  const panel = vscode.window.createWebviewPanel('kit.routeTable', 'kit routes', vscode.ViewColumn.Active, {
    enableScripts: false,
  });
  panel.webview.html = renderRouteTable(answer.workspaces, randomBytes(16).toString('base64'));
  context.subscriptions.push(panel);
}

let lastUrl = '';

/** Asks for a request path and opens the page or endpoint the server would answer it with. */
async function goToUrl(): Promise<void> {
  const c = client;
  if (!c) {
    void vscode.window.showWarningMessage('kit: the language server is not running.');
    return;
  }
  const url = await vscode.window.showInputBox({
    title: 'kit: Go to URL',
    prompt: 'A request path of the site: the page or endpoint that answers it opens',
    placeHolder: '/blog/hello-kit',
    value: lastUrl,
    validateInput: (v) =>
      /^\/|^https?:\/\//i.test(v.trim()) ? undefined : 'Start with / (or paste an http:// or https:// URL)',
  });
  if (url === undefined || url.trim() === '') return;
  lastUrl = url.trim();
  const result = await sendKitRequest((m, params) => c.sendRequest(m, params), KIT_REQUESTS.resolveUrl, {
    url: lastUrl,
  });
  const items = urlPickItems(result);
  if (items.length === 0) {
    void vscode.window.showInformationMessage(noAnswerMessage(result));
    return;
  }
  const pick =
    items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { title: `kit: ${lastUrl} answers` });
  const location = pick?.answer.location;
  if (!location) return;
  const start = new vscode.Position(location.range.start.line, location.range.start.character);
  await vscode.window.showTextDocument(vscode.Uri.parse(location.uri), { selection: new vscode.Range(start, start) });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  client = createClient(context);
  context.subscriptions.push(
    vscode.commands.registerCommand('kit.showRouteTable', () => showRouteTable(context)),
    vscode.commands.registerCommand('kit.goToUrl', () => goToUrl()),
    vscode.commands.registerCommand('kit.restartServer', async () => {
      if (client) await client.restart();
      else {
        client = createClient(context);
        await client.start();
      }
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop();
}
