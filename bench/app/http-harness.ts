// Shared by the app benchmarks: builds small generated apps with the kit CLI, starts servers as
// child processes, and drives load with autocannon from its own process (never inside a server
// process), alternating servers round by round so drift hits all of them alike.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const OUT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(OUT_ROOT, 'server', 'src', 'cli', 'main.js');
export const LOADGEN = join(OUT_ROOT, 'bench', 'app', 'loadgen.js');
export const SERVERS = join(OUT_ROOT, 'bench', 'app', 'bench-servers.js');
export const SECRET = 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

export function workDir(prefix: string): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
}

/** `kit build --ssr [--trace] --out <dir>/dist --app <dir>/app [--bin <dir>/bin] <dir>/src`. */
export function buildApp(dir: string, bin: boolean, trace = false): void {
  const args = [
    CLI,
    'build',
    '--ssr',
    ...(trace ? ['--trace'] : []),
    '--out',
    join(dir, 'dist'),
    '--app',
    join(dir, 'app'),
    ...(bin ? ['--bin', join(dir, 'site-bin')] : []),
    join(dir, 'src'),
  ];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`kit build failed (${r.status}):\n${r.stderr}\n${r.stdout}`);
}

export interface Server {
  name: string;
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `cmd args` and waits for its `listening on <url>` line. */
export function startServer(
  name: string,
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Server> {
  const proc = spawn(cmd, args, {
    env: { ...process.env, KIT_CSRF_SECRET: SECRET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d));
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        resolve({
          name,
          url: m[1],
          proc,
          stop: () =>
            new Promise<void>((r) => {
              if (proc.exitCode !== null) return r();
              proc.once('exit', () => r());
              proc.kill('SIGTERM');
            }),
        });
      }
    });
    proc.once('exit', (code) => reject(new Error(`${name} exited (${code}) before listening:\n${err}`)));
  });
}

export interface Load {
  rps: number;
  total: number;
  p50: number;
  non2xx: number;
  errors: number;
}

/** One autocannon run in its own process. */
export function load(url: string, seconds: number, connections = 100): Load {
  const r = spawnSync(process.execPath, [LOADGEN, url, String(connections), String(seconds)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`load generator failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Load;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** CPU time (user + system) a process has used, in microseconds (Linux /proc). */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks (100/s).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

export interface Compared {
  rps: number;
  runs: number[];
  cpuUsPerReq: number;
}

/**
 * Warm-up, then `rounds` rounds; each round loads every server once, in rotating order. Returns
 * per server the median requests/s and the median server CPU time per request (robust when other
 * work shares the machine: it counts only the server process's own CPU).
 */
export function compare(
  servers: { name: string; url: string; pid: number }[],
  rounds: number,
  seconds: number,
): Map<string, Compared> {
  for (const s of servers) load(s.url, 1);
  const runs = new Map<string, number[]>(servers.map((s) => [s.name, []]));
  const cpu = new Map<string, number[]>(servers.map((s) => [s.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < servers.length; k++) {
      const s = servers[(round + k) % servers.length];
      const before = cpuMicros(s.pid);
      const r = load(s.url, seconds);
      const used = cpuMicros(s.pid) - before;
      if (r.non2xx || r.errors)
        throw new Error(`${s.name}: ${r.non2xx} non-2xx answers, ${r.errors} errors under load`);
      runs.get(s.name)!.push(r.rps);
      cpu.get(s.name)!.push(used / Math.max(1, r.total));
    }
  }
  const out = new Map<string, Compared>();
  for (const [name, xs] of runs) out.set(name, { rps: median(xs), runs: xs, cpuUsPerReq: median(cpu.get(name)!) });
  return out;
}

export function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** The static page both HTTP benchmarks serve: a home page of 18 paragraphs, cached for a minute. */
export const STATIC_HOME_KIT = `package bench

page home
route "/"
guard public
title "Bench home"
cache "public, max-age=60"

view {
  <main>
    <h1>Static page</h1>
${Array.from(
  { length: 18 },
  (_, i) =>
    `    <p>Paragraph ${i + 1}: kit builds pages ahead of time and serves them from memory with their cache policy.</p>`,
).join('\n')}
  </main>
}
`;
