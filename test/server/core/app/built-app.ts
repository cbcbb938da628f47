// Shared by the app-server tests: builds the fixture site ONCE per test run with
// `kit build --app --bin` (the single executable is slow to package), starts the binary or the
// plain `node server.js` app on 127.0.0.1:0, and talks raw HTTP where fetch would normalise paths.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture, outDir, repoRoot } from '#test/helpers/repo.js';

export const SECRET = 'test-secret-0123456789-abcdefghijklmnop';
export const FIXTURE = fixture('app', 'site');
export const CLI = join(outDir, 'server', 'src', 'cli', 'main.js');

export interface BuiltApp {
  root: string;
  outDir: string;
  appDir: string;
  binFile: string;
  /** An empty directory to run the binary from. */
  emptyDir: string;
  buildStdout: string;
  buildStderr: string;
}

let built: Promise<BuiltApp> | undefined;
const cleanup: string[] = [];
process.once('exit', () => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(dir);
  return dir;
}

/** Runs the kit CLI; returns status and output. */
export function runKit(
  args: string[],
  cwd: string = repoRoot,
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function builtApp(): Promise<BuiltApp> {
  built ??= new Promise<BuiltApp>((resolve, reject) => {
    const root = tempDir('kit-app-test-');
    const emptyDir = join(root, 'empty');
    mkdirSync(emptyDir);
    const outDir = join(root, 'dist');
    const appDir = join(root, 'app');
    const binFile = join(root, 'site-bin');
    const p = spawn(
      process.execPath,
      [CLI, 'build', '--ssr', '--out', outDir, '--app', appDir, '--bin', binFile, FIXTURE],
      { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' } },
    );
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d));
    p.stderr.on('data', (d: Buffer) => (stderr += d));
    p.on('close', (code) => {
      if (code !== 0) reject(new Error(`kit build --app --bin failed (${code}):\n${stderr}\n${stdout}`));
      else resolve({ root, outDir, appDir, binFile, emptyDir, buildStdout: stdout, buildStderr: stderr });
    });
  });
  return built;
}

export interface RunningApp {
  url: string;
  port: number;
  proc: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** SIGTERM and wait for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface StartOptions {
  env?: Record<string, string>;
  args?: string[];
  cwd?: string;
}

/** Starts the binary (from an empty directory, with an empty PATH) or `node <app>/server.js`. */
export async function startApp(kind: 'bin' | 'node', opts: StartOptions = {}): Promise<RunningApp> {
  const app = await builtApp();
  const env: Record<string, string> =
    kind === 'bin'
      ? { PATH: '', KIT_CSRF_SECRET: SECRET, ...opts.env }
      : { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: SECRET, ...opts.env };
  const args = opts.args ?? ['--addr', '127.0.0.1:0'];
  const proc =
    kind === 'bin'
      ? spawn(app.binFile, args, { cwd: opts.cwd ?? app.emptyDir, env })
      : spawn(process.execPath, [join(app.appDir, 'server.js'), ...args], { cwd: opts.cwd ?? app.emptyDir, env });
  return attach(proc);
}

export function attach(proc: ChildProcess): Promise<RunningApp> {
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return new Promise<RunningApp>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`app did not print "listening on" in time:\n${err}`)), 15000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m && timer) {
        clearTimeout(timer);
        const url = m[1];
        resolve({
          url,
          port: Number(new URL(url).port),
          proc,
          stdout: () => out,
          stderr: () => err,
          stop: () => {
            if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    proc.stderr!.on('data', (d: Buffer) => (err += d));
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`app exited (${code}) before listening:\n${err}`));
    });
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  raw: string;
}

/** Sends `request` byte for byte (latin1) and reads the whole answer (the request asks to close). */
export function rawRequest(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10000, () => socket.destroy(new Error('raw request timed out')));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('end', () => {
      const buf = Buffer.concat(chunks);
      const raw = buf.toString('latin1');
      const headEnd = raw.indexOf('\r\n\r\n');
      const head = raw.slice(0, headEnd < 0 ? raw.length : headEnd).split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head[0] ?? '')?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const c = line.indexOf(':');
        if (c > 0) headers[line.slice(0, c).trim().toLowerCase()] = line.slice(c + 1).trim();
      }
      let body = headEnd < 0 ? '' : buf.subarray(headEnd + 4).toString('utf8');
      if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
      resolve({ status, headers, body, raw });
    });
    socket.write(request, 'latin1');
  });
}

function dechunk(s: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const eol = s.indexOf('\r\n', i);
    if (eol < 0) return out;
    const size = parseInt(s.slice(i, eol), 16);
    if (!size) return out;
    out += s.slice(eol + 2, eol + 2 + size);
    i = eol + 2 + size + 2;
  }
}

/** `GET <target>` over a raw socket, exactly as written. */
export function rawGet(
  port: number,
  target: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return rawRequest(
    port,
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}Connection: close\r\n\r\n`,
  );
}
