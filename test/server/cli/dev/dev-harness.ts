// Runs the real `kit dev` (the CLI, as a child process) on a temporary copy of a fixture, and
// listens on its event stream as the browser client does.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture, repoRoot } from '#test/helpers/repo.js';
import { waitFor } from '#test/helpers/wait.js';

/** The installed command (the bundle), as users run it. */
export const CLI = join(repoRoot, 'bin', 'kit.js');

const temps: string[] = [];
process.once('exit', () => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** A fresh copy of `test/fixtures/<parts>` in a temporary directory; returns its path. */
export function copyFixture(...parts: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'kit-dev-test-'));
  temps.push(root);
  const dir = join(root, 'site');
  cpSync(fixture(...parts), dir, { recursive: true });
  return dir;
}

export interface DevProcess {
  url: string;
  proc: ChildProcess;
  out(): string;
  err(): string;
  /** Resolves when stdout has printed a line matching `re` (after what was printed before the call). */
  waitOut(re: RegExp, timeoutMs?: number): Promise<string>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `kit dev --port 0 <args> .` in `dir`, as a user runs it in their project. */
export function startDev(dir: string, args: string[] = []): Promise<DevProcess> {
  const proc = spawn(process.execPath, [CLI, 'dev', '--port', '0', ...args, '.'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', KIT_CSRF_SECRET: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((ok) => proc.once('exit', (code) => ok(code)));
  const waiters: { re: RegExp; from: number; ok: (s: string) => void }[] = [];
  proc.stdout!.on('data', (d: Buffer) => {
    out += d;
    for (const w of [...waiters]) {
      const m = w.re.exec(out.slice(w.from));
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.ok(m[0]);
      }
    }
  });
  proc.stderr!.on('data', (d: Buffer) => (err += d));
  const waitOut = (re: RegExp, timeoutMs = 10000): Promise<string> =>
    new Promise((ok, fail) => {
      const t = setTimeout(() => fail(new Error(`kit dev did not print ${re}:\n${out}\n${err}`)), timeoutMs);
      waiters.push({
        re,
        from: out.length,
        ok: (s) => {
          clearTimeout(t);
          ok(s);
        },
      });
    });
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`kit dev did not start:\n${out}\n${err}`)), 20000);
    proc.once('exit', (code) => reject(new Error(`kit dev exited (${code}) before listening:\n${out}\n${err}`)));
    const check = () => {
      const m = /(http:\/\/[^\s/]+:\d+)\//.exec(out);
      if (!m || !out.includes('(Ctrl-C to stop)\n')) return;
      clearTimeout(t);
      proc.stdout!.off('data', check);
      resolve({
        url: m[1],
        proc,
        out: () => out,
        err: () => err,
        waitOut,
        stop: (signal = 'SIGINT') => {
          if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
          return exited;
        },
      });
    };
    proc.stdout!.on('data', check);
  });
}

export interface DevEvent {
  name: string;
  data: string;
}

/** An event-stream listener for one tab (`path`), as the browser client opens it. */
export class EventTap {
  readonly events: DevEvent[] = [];
  private res: IncomingMessage | undefined;
  private buffer = '';
  private waiters: { name: string; from: number; ok: (e: DevEvent) => void }[] = [];
  readonly ready: Promise<void>;

  constructor(base: string, path: string) {
    this.ready = new Promise((ok, fail) => {
      const req = get(`${base}/_kit/dev/events?path=${encodeURIComponent(path)}`, (res) => {
        this.res = res;
        res.setEncoding('utf8');
        res.on('data', (d: string) => this.feed(d));
        ok();
      });
      req.on('error', fail);
    });
  }

  private feed(d: string): void {
    this.buffer += d;
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end < 0) return;
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const name = /^event: (.*)$/m.exec(block)?.[1];
      if (name === undefined) continue;
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
      const e = { name, data };
      this.events.push(e);
      for (const w of [...this.waiters]) {
        if (w.name === name) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.ok(e);
        }
      }
    }
  }

  /** The next event called `name` from now on. */
  next(name: string, timeoutMs = 5000): Promise<DevEvent> {
    return new Promise((ok, fail) => {
      const t = setTimeout(
        () => fail(new Error(`no ${name} event within ${timeoutMs} ms (got ${JSON.stringify(this.events)})`)),
        timeoutMs,
      );
      this.waiters.push({
        name,
        from: this.events.length,
        ok: (e) => {
          clearTimeout(t);
          ok(e);
        },
      });
    });
  }

  /** Event names seen since index `from`. */
  namesSince(from: number): string[] {
    return this.events.slice(from).map((e) => e.name);
  }

  close(): void {
    this.res?.destroy();
  }
}

/** Polls until `check` passes (watchers and the start's checks are asynchronous), at most `ms`. */
export async function eventually(check: () => void | Promise<void>, ms = 10000): Promise<void> {
  await waitFor(
    async () => {
      await check();
      return true;
    },
    { what: 'a check to pass', timeout: ms, every: 20 },
  );
}

/**
 * Resolves once every event kit dev sent its tabs before now has reached the taps, for asserting that
 * a tab heard nothing: kit dev writes a change's events to all its tabs in one go before it answers
 * any later request, so the bytes of a tab's stream are here by the time that answer is. One request
 * answered after the change is the barrier, where a sleep would only be a guess; the turn of the
 * event loop after it lets the taps read what arrived on their sockets in the same poll.
 */
export async function delivered(dev: DevProcess): Promise<void> {
  const r = await fetch(`${dev.url}/_kit/dev/client.js`, { method: 'HEAD' });
  await r.arrayBuffer();
  await new Promise((resolve) => setImmediate(resolve));
}
