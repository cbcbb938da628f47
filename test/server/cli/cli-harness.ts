// Drives `kit` two ways: in-process through runCli with captured streams (fast, and lets a test
// pretend to be a TTY), and as a real child process (exit status, piped output, other users).
import { spawn, type SpawnOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '#cli/run.js';
import type { CliIO } from '#cli/io.js';
import { outDir } from '../../helpers/repo.js';

export const CLI_MAIN = join(outDir, 'server', 'src', 'cli', 'main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface FakeIOOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  tty?: boolean;
}

export async function runInProcess(argv: string[], opts: FakeIOOptions): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: { write: (s: string) => (stdout += s), isTTY: opts.tty ?? false },
    stderr: { write: (s: string) => (stderr += s), isTTY: opts.tty ?? false },
    env: opts.env ?? {},
    cwd: opts.cwd,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

export function runProcess(argv: string[], cwd: string, extra: SpawnOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.NO_COLOR;
    delete env.FORCE_COLOR;
    const child = spawn(process.execPath, [CLI_MAIN, ...argv], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...extra,
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * Runs `kit <argv>` in a child that cannot read what root could: as root (which reads any file
 * whatever its mode) the child loads the CLI first, then drops to an unprivileged user before the
 * command runs, so the repository itself never has to be readable by that user.
 */
export function runUnprivileged(argv: string[], cwd: string): Promise<CliResult> {
  const cliDir = dirname(CLI_MAIN);
  const script = `
    const { pathToFileURL } = await import('node:url');
    const { join } = await import('node:path');
    const dir = ${JSON.stringify(cliDir)};
    const { runCli } = await import(pathToFileURL(join(dir, 'run.js')).href);
    // Load the command before the privilege drop: modules are read from the repository.
    const { COMMANDS } = await import(pathToFileURL(join(dir, 'commands', 'index.js')).href);
    await COMMANDS.find((c) => c.name === ${JSON.stringify(argv[0])})?.load();
    if (process.getuid && process.getuid() === 0) { process.setgid(65534); process.setuid(65534); }
    const io = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
    process.exitCode = await runCli(${JSON.stringify(argv)}, io);
  `;
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.NO_COLOR;
    delete env.FORCE_COLOR;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A temporary source tree, written from a map of relative path → text, removed by `dispose`. */
export class TempTree {
  readonly root: string;
  constructor(files: Record<string, string> = {}) {
    this.root = mkdtempSync(join(tmpdir(), 'kit-cli-'));
    for (const [rel, text] of Object.entries(files)) this.write(rel, text);
  }
  write(rel: string, text: string): string {
    const p = join(this.root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    return p;
  }
  path(rel: string): string {
    return join(this.root, rel);
  }
  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** A small valid page; `route` must differ between pages of one tree. */
export function page(route: string, extra = 'guard public'): string {
  return `route "${route}"\n${extra}\n\nview {\n  <main>Page</main>\n}\n`;
}
