// A language server over stdio on a copy of a fixture folder, for feature tests that go through
// the protocol: positions are found by the text before them (the way the in-process helpers place
// their `<|>` marker), answers are read back as the text they cover.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientCapabilities, Position, Range } from 'vscode-languageserver-protocol';
import { fixture } from '#test/helpers/repo.js';
import { fileUri, FULL_CAPABILITIES, LspClient } from './lsp-client.js';

export class StdioSession {
  private readonly texts = new Map<string, string>();

  private constructor(
    readonly client: LspClient,
    readonly dir: string,
  ) {}

  /** A server on a copy of `test/fixtures/<parts>`, indexed and bound. */
  static async start(
    parts: string[],
    opts: { capabilities?: ClientCapabilities; settings?: Record<string, unknown> } = {},
  ): Promise<StdioSession> {
    const dir = mkdtempSync(join(tmpdir(), 'kit-lsp-features-'));
    cpSync(fixture(...parts), dir, { recursive: true });
    const client = LspClient.start();
    if (opts.settings) client.settings = opts.settings;
    await client.initialize([dir], { capabilities: opts.capabilities ?? FULL_CAPABILITIES, sendInitialized: false });
    const bound = client.waitForStatuses(1, 30000, 'bound');
    await client.conn.sendNotification('initialized', {});
    await bound;
    return new StdioSession(client, dir);
  }

  uri(file: string): string {
    return fileUri(join(this.dir, file));
  }

  /** The file a URI names, relative to the folder. */
  file(uri: string): string {
    return relative(this.dir, fileURLToPath(uri)).split('\\').join('/');
  }

  text(file: string): string {
    return this.texts.get(file) ?? readFileSync(join(this.dir, file), 'utf8');
  }

  /** Opens `file` in the editor with its text on disk (or `text`). */
  async open(file: string, text = this.text(file)): Promise<string> {
    this.texts.set(file, text);
    await this.client.open(this.uri(file), text, 1, file.endsWith('.kit') ? 'kit' : 'typescript');
    return this.uri(file);
  }

  /** Replaces an open document's whole text. */
  async replace(file: string, text: string, version: number): Promise<void> {
    this.texts.set(file, text);
    await this.client.change(this.uri(file), version, [{ text }]);
  }

  /** The position `shift` characters after the first `before` in `file` (after `from`, when given). */
  at(file: string, before: string, shift = 0, from?: string): Position {
    const text = this.text(file);
    const start = from === undefined ? 0 : text.indexOf(from);
    const at = text.indexOf(before, start < 0 ? 0 : start);
    if (start < 0 || at < 0) throw new Error(`${before} not in ${file}`);
    return this.position(file, at + shift);
  }

  position(file: string, offset: number): Position {
    const before = this.text(file).slice(0, offset);
    const line = before.split('\n').length - 1;
    return { line, character: offset - (before.lastIndexOf('\n') + 1) };
  }

  /** The text a range covers in `file`. */
  textOf(file: string, r: Range): string {
    const lines = this.text(file).split('\n');
    if (r.start.line === r.end.line) return lines[r.start.line].slice(r.start.character, r.end.character);
    return [
      lines[r.start.line].slice(r.start.character),
      ...lines.slice(r.start.line + 1, r.end.line),
      lines[r.end.line].slice(0, r.end.character),
    ].join('\n');
  }

  /** `file:line:col` of a range's start (1-based), for compact assertions. */
  place(file: string, r: Range): string {
    return `${file}:${r.start.line + 1}:${r.start.character + 1}`;
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.client.request<R>(method, params);
  }

  async stop(): Promise<void> {
    if (this.client.child.exitCode === null) await this.client.shutdown().catch(() => this.client.kill());
    rmSync(this.dir, { recursive: true, force: true });
  }
}
