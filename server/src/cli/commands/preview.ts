// `kit preview [--port N] [--host H] [--allowed-hosts LIST] [<app dir>]`: serves a finished
// `kit build --app` output as production will, for a last look before deploying. The app runs as
// its own Node.js process, the way `node <dir>/server.js` runs it; signals reach it and its exit
// status is kit's. Unlike production behind a proxy, it answers only the host names it was started
// for (`KIT_ALLOWED_HOSTS`, which the app reads): a page that rebinds its name to this machine
// cannot read it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from '../command.js';
import { parseArgs, UsageError } from '../args.js';
import { APP_MARKER } from '#core/app/write-app.js';
import { configFor, shownPath } from '../project-sources.js';
import { parseAllowedHosts } from '#shared/trace/http-origin.js';

export const previewCommand: Command = {
  name: 'preview',
  summary: 'serve a built app (kit build --app) locally, as production runs it',
  help: `Usage: kit preview [--port N] [--host H] [--allowed-hosts LIST] [<app dir>]

Runs the app that kit build --app wrote (default: the app setting of kit.config,
else dist/app) on http://H:N
(default 127.0.0.1:8080), exactly as node <app dir>/server.js runs it in
production: same runtime, same static files, same headers. KIT_CSRF_SECRET and
KIT_TRACE pass through from the environment. Ctrl-C stops it.

It answers only requests for localhost or the address it listens on, with its
port (421 otherwise, so that a page rebinding its own name to this machine
cannot read it); every IP address too when --host is another interface.

Options:
  --port N              port to listen on (0 picks a free one)
  --host H              address to listen on (0.0.0.0 for every interface)
  --allowed-hosts LIST  more host names it answers, comma-separated (.example.test
                        for a name and those under it; all: any name; default:
                        KIT_ALLOWED_HOSTS, else allowedHosts of kit.config)

Exit status: the app's own (0 after Ctrl-C), 2 for usage errors (a directory
that holds no built app).
`,
  async run(argv, io) {
    const { flags, positionals } = parseArgs(
      argv,
      { port: 'string', host: 'string', 'allowed-hosts': 'string' },
      'preview',
    );
    if (positionals.length > 1) throw new UsageError('kit preview: give at most one app directory');
    const port = flags.port ?? '8080';
    if (!/^\d{1,5}$/.test(port) || Number(port) > 65535)
      throw new UsageError(`kit preview: --port must be a number from 0 to 65535, not ${JSON.stringify(port)}`);
    const config = positionals.length ? undefined : configFor([], io);
    const fromConfig = config?.allowedHosts.length ? config.allowedHosts.join(',') : undefined;
    const allowed =
      (flags['allowed-hosts'] as string | undefined) ?? io.env.KIT_ALLOWED_HOSTS ?? fromConfig ?? 'localhost';
    try {
      parseAllowedHosts(allowed);
    } catch (e) {
      const where = flags['allowed-hosts'] !== undefined ? '--allowed-hosts' : 'allowedHosts of kit.config';
      throw new UsageError(`kit preview: ${where}: ${(e as Error).message}`);
    }
    const shown = positionals[0] ?? (config && config.app !== false ? shownPath(config.app, io) : 'dist/app');
    const dir = resolve(io.cwd, shown);
    if (!existsSync(join(dir, APP_MARKER)) || !existsSync(join(dir, 'server.js')))
      throw new UsageError(
        `kit preview: ${shown} holds no built app (no ${APP_MARKER}); build one with ` +
          (config ? 'kit build' : `kit build --out dist/site --app ${shown} <sources>`),
      );
    const host = flags.host ?? '127.0.0.1';
    const addr = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    const child = spawn(process.execPath, [join(dir, 'server.js'), '--addr', addr], {
      cwd: io.cwd,
      // `localhost` (always answered) when no names are given: the check is on, nothing more allowed.
      env: { ...process.env, ...io.env, KIT_ALLOWED_HOSTS: allowed },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (b: Buffer) => io.stdout.write(b.toString()));
    child.stderr.on('data', (b: Buffer) => io.stderr.write(b.toString()));
    // Ctrl-C reaches the whole process group; SIGTERM from a supervisor is passed on.
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    return new Promise<number>((resolveExit) => {
      child.on('exit', (code, signal) => {
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
        resolveExit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
      });
    });
  },
};
