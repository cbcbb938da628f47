// Starts the language server on a transport. The process lives until the client sends `exit` (or
// the connection closes); a failure inside one request or notification never ends it.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { KitServer } from './server.js';
import { checkingParams, EditArrivals, ipcTransport, stdioTransport, type Transport } from './transport.js';

export interface LanguageServerOptions {
  transport: 'stdio' | 'node-ipc';
  ssr: boolean;
  version: string;
  /** Stdio: how long an incomplete frame waits for the rest (default `DEFAULT_PARTIAL_TIMEOUT_MS`). */
  frameTimeoutMs?: number;
}

export function runLanguageServer(options: LanguageServerOptions): KitServer {
  const transport: Transport =
    options.transport === 'node-ipc' ? ipcTransport() : stdioTransport(options.frameTimeoutMs);
  const arrivals = new EditArrivals();
  const reader = arrivals.watch(checkingParams(transport.reader));
  const connection = createConnection(ProposedFeatures.all, reader, transport.writer);
  if (transport.stdio) {
    // stdout carries the protocol: route console output to the client's log instead.
    console.log = (...args: unknown[]) => connection.console.log(args.map(String).join(' '));
    console.info = console.log;
    console.warn = (...args: unknown[]) => connection.console.warn(args.map(String).join(' '));
    console.error = (...args: unknown[]) => connection.console.error(args.map(String).join(' '));
  }
  process.on('uncaughtException', (e) => {
    process.stderr.write(`kit lsp: unexpected error (the server keeps running): ${e?.stack ?? String(e)}\n`);
  });
  process.on('unhandledRejection', (e) => {
    process.stderr.write(
      `kit lsp: unhandled rejection (the server keeps running): ${(e as Error)?.stack ?? String(e)}\n`,
    );
  });
  const server = new KitServer(connection, transport.writer, { ssr: options.ssr, version: options.version }, arrivals);
  // With no client left (stdin closed), there is nothing to serve: exit like `exit` would (status 1
  // without a shutdown request, so a client that is still there restarts the server).
  transport.reader.onClose(() => {
    const cut = transport.unfinished?.() ?? 0;
    if (cut > 0) process.stderr.write(`kit lsp: the input ended inside a frame (${cut} bytes of it received)\n`);
    process.exit(server.isShuttingDown ? 0 : 1);
  });
  server.listen();
  return server;
}
