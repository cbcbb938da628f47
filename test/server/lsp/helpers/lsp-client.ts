// A real LSP client for protocol tests and benchmarks: spawns `kit lsp --stdio` from the compiled
// output and talks JSON-RPC with vscode-languageserver-protocol, recording what the server pushes.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type ClientCapabilities,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import { outDir } from '#test/helpers/repo.js';

export interface ReceivedDiagnostics extends PublishDiagnosticsParams {
  /** performance.now() when the notification arrived. */
  at: number;
}

export interface StartOptions {
  args?: string[];
  cwd?: string;
  /** The server program; the compiled CLI (`kit lsp --stdio`) by default. */
  script?: string;
  /** Options for the server's Node.js (the extension starts it with `--expose-gc`). */
  nodeArgs?: string[];
  /** Variables added to the server's environment. */
  env?: Record<string, string>;
}

export const FULL_CAPABILITIES: ClientCapabilities = {
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeWatchedFiles: { dynamicRegistration: true },
    didChangeConfiguration: { dynamicRegistration: true },
    workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] },
  },
  textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true } },
};

export interface KitStatus {
  state: 'ready' | 'bound';
  root: string;
  files: number;
  modules: number;
  ms: number;
}

type Waiter = { pred: (d: ReceivedDiagnostics) => boolean; resolve: (d: ReceivedDiagnostics) => void };

export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}

export class LspClient {
  readonly conn: ProtocolConnection;
  /** Latest diagnostics per URI. */
  readonly diagnostics = new Map<string, ReceivedDiagnostics>();
  /** How many times diagnostics were published per URI. */
  readonly publishCount = new Map<string, number>();
  readonly log: string[] = [];
  stderr = '';
  settings: Record<string, unknown> = { ssr: false };
  readonly registrations: { method: string; registerOptions?: unknown }[] = [];
  private waiters: Waiter[] = [];
  private statusWaiters: ((s: KitStatus) => void)[] = [];
  readonly statuses: KitStatus[] = [];
  readonly exited: Promise<number | null>;

  private constructor(readonly child: ChildProcess) {
    this.conn = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    child.stderr!.on('data', (b: Buffer) => {
      this.stderr += b.toString();
    });
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    this.conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      const d: ReceivedDiagnostics = { ...p, at: performance.now() };
      this.diagnostics.set(p.uri, d);
      this.publishCount.set(p.uri, (this.publishCount.get(p.uri) ?? 0) + 1);
      const ready = this.waiters.filter((w) => w.pred(d));
      this.waiters = this.waiters.filter((w) => !ready.includes(w));
      for (const w of ready) w.resolve(d);
    });
    this.conn.onNotification('window/logMessage', (raw: unknown) => {
      this.log.push((raw as { message: string }).message);
    });
    this.conn.onNotification('kit/status', (raw: unknown) => {
      const p = raw as KitStatus;
      this.statuses.push(p);
      const ws = this.statusWaiters;
      this.statusWaiters = [];
      for (const w of ws) w(p);
    });
    this.conn.onRequest(
      'client/registerCapability',
      (p: { registrations: { method: string; registerOptions?: unknown }[] }) => {
        this.registrations.push(...p.registrations);
        return null;
      },
    );
    this.conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
      p.items.map(() => this.settings),
    );
    this.conn.listen();
  }

  static start(opts: StartOptions = {}): LspClient {
    const child = spawn(
      process.execPath,
      [
        ...(opts.nodeArgs ?? []),
        opts.script ?? join(outDir, 'server', 'src', 'cli', 'main.js'),
        'lsp',
        '--stdio',
        ...(opts.args ?? []),
      ],
      {
        cwd: opts.cwd,
        env: opts.env ? { ...process.env, ...opts.env } : undefined,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    return new LspClient(child);
  }

  async initialize(
    folders: string[],
    opts: {
      capabilities?: ClientCapabilities;
      initializationOptions?: unknown;
      waitForIndex?: boolean;
      /** False: the caller sends `initialized` itself (to time indexing from it); implies waitForIndex false. */
      sendInitialized?: boolean;
    } = {},
  ): Promise<InitializeResult> {
    const result = (await this.conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: opts.capabilities ?? FULL_CAPABILITIES,
      workspaceFolders: folders.map((f) => ({ uri: fileUri(f), name: f.split('/').pop() ?? f })),
      initializationOptions: opts.initializationOptions,
    })) as InitializeResult;
    if (opts.sendInitialized === false) return result;
    const indexed = opts.waitForIndex === false ? Promise.resolve() : this.waitForStatuses(folders.length);
    await this.conn.sendNotification('initialized', {});
    await indexed;
    return result;
  }

  /** Resolves once `n` more folders reported `kit/status` in `state` (`ready`: indexed; `bound`: handlers bound too). */
  waitForStatuses(n: number, timeoutMs = 30000, state: KitStatus['state'] = 'ready'): Promise<void> {
    if (n <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      let left = n;
      const timer = setTimeout(
        () => reject(new Error(`kit/status ${state} not received (${left} left); stderr: ${this.stderr}`)),
        timeoutMs,
      );
      const on = (s: KitStatus) => {
        if (s.state !== state) {
          this.statusWaiters.push(on);
          return;
        }
        left--;
        if (left === 0) {
          clearTimeout(timer);
          resolve();
        } else this.statusWaiters.push(on);
      };
      this.statusWaiters.push(on);
    });
  }

  /** Waits for diagnostics of `uri` matching `pred` (already received ones count when `fresh` is false). */
  waitForDiagnostics(
    uri: string,
    pred: (d: ReceivedDiagnostics) => boolean = () => true,
    opts: { fresh?: boolean; timeoutMs?: number } = {},
  ): Promise<ReceivedDiagnostics> {
    const have = this.diagnostics.get(uri);
    if (!opts.fresh && have && pred(have)) return Promise.resolve(have);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(
          new Error(
            `no matching diagnostics for ${uri} (last: ${JSON.stringify(this.diagnostics.get(uri)?.diagnostics.map((d) => d.code))})`,
          ),
        );
      }, opts.timeoutMs ?? 10000);
      const waiter: Waiter = {
        pred: (d) => d.uri === uri && pred(d),
        resolve: (d) => {
          clearTimeout(timer);
          resolve(d);
        },
      };
      this.waiters.push(waiter);
    });
  }

  open(uri: string, text: string, version = 1, languageId = 'kit'): Promise<void> {
    return this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): Promise<void> {
    return this.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: changes,
    });
  }

  close(uri: string): Promise<void> {
    return this.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.conn.sendRequest(method, params) as Promise<R>;
  }

  /** `shutdown` then `exit`; resolves with the exit code. */
  async shutdown(): Promise<number | null> {
    await this.conn.sendRequest('shutdown');
    await this.conn.sendNotification('exit');
    const code = await this.exited;
    this.conn.dispose();
    return code;
  }

  kill(): void {
    this.conn.dispose();
    this.child.kill();
  }
}
