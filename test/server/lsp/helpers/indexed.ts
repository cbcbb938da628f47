// A language server on a folder, timed from `initialized`, and everything it has published: what
// tests comparing two servers' answers (thread settings, edits against a fresh start) read.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LspClient } from './lsp-client.js';

/**
 * A server on `dir` (its environment plus `env`), once its folder is indexed and bound; `before`
 * runs before indexing starts (documents opened then are what the editor has).
 */
export async function boundServer(
  dir: string,
  env?: Record<string, string>,
  before?: (client: LspClient) => Promise<void>,
): Promise<LspClient> {
  const client = LspClient.start(env ? { env } : {});
  await client.initialize([dir], { sendInitialized: false });
  await before?.(client);
  const bound = client.waitForStatuses(1, 30000, 'bound');
  await client.conn.sendNotification('initialized', {});
  await bound;
  return client;
}

/** Every file's published diagnostics and the routes report (bindings included), as the client has them. */
export async function published(client: LspClient): Promise<string> {
  // A request settles first: everything the server had to publish has arrived when it answers.
  const routes = await client.request<unknown>('kit/routes', {});
  const files = [...client.diagnostics.entries()]
    .map(([uri, d]) => [uri, d.diagnostics] as const)
    .filter(([, ds]) => ds.length > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify({ files, routes }, null, 1);
}

/**
 * What a test file's servers and folders leave behind: `dir` makes a temporary folder (a copy of
 * `from` when given), `keep` registers a server, `done` kills the servers and removes the folders.
 */
export class Scratch {
  private readonly dirs: string[] = [];
  private readonly clients: LspClient[] = [];

  constructor(private readonly prefix: string) {}

  dir(from?: string): string {
    const dir = mkdtempSync(join(tmpdir(), this.prefix));
    if (from !== undefined) cpSync(from, dir, { recursive: true });
    this.dirs.push(dir);
    return dir;
  }

  keep(...clients: LspClient[]): void {
    this.clients.push(...clients);
  }

  done(): void {
    for (const c of this.clients.splice(0)) if (c.child.exitCode === null) c.kill();
    for (const d of this.dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}
