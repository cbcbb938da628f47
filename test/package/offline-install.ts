// Running npm, npx and a project's scripts the way a user does, against the local registry
// (local-registry.ts: kit's dependencies from npm's cache, kit itself only from its tarball), and
// starting what they start: `npm run dev`, the built app. Commands run asynchronously: the
// registry answers from this process's event loop, which a synchronous spawn would block.
import { spawn } from 'node:child_process';
import { attach, type RunningApp } from '../server/core/app/built-app.js';

export interface RunResult {
  stdout: string;
  stderr: string;
  status: number | null;
}

export function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (status) => resolve({ stdout, stderr, status }));
  });
}

/**
 * What npm printed about install scripts: none in a starter project (kit ships no such script, and
 * the starter's `allowScripts` declines esbuild's, which kit does not need). npm 10 prints none of
 * these lines at all; npm 11 names each package whose script it did not run.
 */
export function installScriptWarnings(npmStderr: string): string[] {
  return npmStderr.split('\n').filter((l) => /install.scripts?/i.test(l));
}

export interface RunningScript {
  /** The first `http://127.0.0.1:<port>` the script printed. */
  url: string;
  out(): string;
  stop(): Promise<void>;
}

/**
 * `npm run <script> -- <args>` in `project`, until it prints a loopback URL and then `ready`. It runs
 * in a process group of its own, which `stop` ends (npm, its shell and what they started).
 */
export function startNpmScript(
  project: string,
  env: NodeJS.ProcessEnv,
  script: string,
  args: string[],
  ready: RegExp,
): Promise<RunningScript> {
  const proc = spawn('npm', ['run', script, '--', ...args], { cwd: project, env, detached: true });
  let out = '';
  const exited = new Promise<void>((ok) => proc.once('exit', () => ok()));
  const stop = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    process.kill(-proc.pid!, 'SIGTERM');
    const killer = setTimeout(() => process.kill(-proc.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop().then(() => reject(new Error(`npm run ${script} did not print ${ready} in time:\n${out}`)));
    }, 60_000);
    const onData = (d: Buffer) => {
      out += d;
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (!url || !ready.test(out)) return;
      clearTimeout(timer);
      resolve({ url, out: () => out, stop });
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run ${script} exited (${code}):\n${out}`));
    });
  });
}

/** Starts the app a project built into `dist/app` (the starter's `start` script), on a free loopback port. */
export function startBuiltApp(project: string): Promise<RunningApp> {
  return attach(
    spawn(process.execPath, ['dist/app/server.js', '--addr', '127.0.0.1:0'], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: 'x'.repeat(32) },
    }),
  );
}
