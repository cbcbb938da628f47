// `kit dev [--ssr] [--port N] [--host H] [--allowed-hosts LIST] [--open] [--no-trace] [--editor-url T]
// [<dir>]`: the development loop (server/src/cli/dev/).
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from '../command.js';
import { parseArgs, UsageError } from '../args.js';
import { useColor } from '../io.js';
import { SourceError } from '#core/project/discover.js';
import { DEFAULT_EDITOR_URL } from '../dev/overlay.js';
import { commandSources } from '../project-sources.js';
import { parseAllowedHosts } from '#shared/trace/http-origin.js';

const FLAGS = {
  ssr: 'boolean',
  port: 'string',
  host: 'string',
  'allowed-hosts': 'string',
  open: 'boolean',
  'no-trace': 'boolean',
  'editor-url': 'string',
} as const;

/** Opens `url` in the desktop's browser; silent when there is none (a server, a container). */
function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    /* no opener */
  }
}

export const devCommand: Command = {
  name: 'dev',
  summary: 'serve the sources with live reload, an error overlay and traces while you edit',
  help: `Usage: kit dev [--ssr] [--port N] [--host H] [--allowed-hosts LIST] [--open] [--no-trace]
               [--editor-url T] [<dir>]

Serves the .kit sources under <dir> (default: the sources of kit.config, as kit check reads
them, else .) as the built app would (same runtime:
guards, CSRF, actions, APIs, fragments, SSR loads, cache headers), rendering pages on
request from the current sources. Saving a .kit file, a handler module, kit.config.* or a
css/js file updates the server in milliseconds; open tabs whose page changed reload (keeping
their scroll position), stylesheet changes apply without a reload. While the sources have
errors, pages show them in an overlay (as kit check prints them, with links that open the
editor) and the last working version keeps serving; a handler that throws shows its stack.

Options:
  --ssr             enable request-time (SSR) rendering, as kit build --ssr (default: ssr
                    of kit.config; a change of it there applies at once)
  --port N          port to listen on (default 3000, or the next free one; 0 picks any)
  --host H          address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --allowed-hosts L more host names it answers, comma-separated (.example.test for a name
                    and those under it; all: any name; default: allowedHosts of kit.config)
  --open            open the site in the browser
  --no-trace        no request spans (traces are on by default at /_kit/traces/viewer)
  --editor-url T    how overlay links open the editor: a URL with {file}, {line}, {column}
                    (default ${DEFAULT_EDITOR_URL}, or KIT_EDITOR_URL)

It answers only requests for localhost or the address it listens on, with its port (421
otherwise: a page that rebinds its own name to this machine cannot read the dev server), and
every IP address too when --host is another interface; a state-changing request whose Origin
is another site's gets 403 (unless the endpoint's cors declares that origin).

kit dev keeps a development CSRF secret in .kit/ at the project root (the nearest directory
with a package.json; .kit/ ignores itself in git), so forms left open survive a restart;
production never uses it. Ctrl-C stops.

Exit status: 0 after Ctrl-C, 2 for usage errors.
`,
  async run(argv, io) {
    const { flags, positionals } = parseArgs(argv, FLAGS, 'dev');
    if (positionals.length > 1) throw new UsageError('kit dev: give at most one directory');
    let port: number | undefined;
    if (flags.port !== undefined) {
      const p = flags.port;
      if (!/^\d{1,5}$/.test(p) || Number(p) > 65535)
        throw new UsageError(`kit dev: --port must be a number from 0 to 65535, not ${JSON.stringify(p)}`);
      port = Number(p);
    }
    const sources = commandSources('dev', positionals, Boolean(flags.ssr), io, ['.']);
    const shown = sources.inputs[0];
    const root = resolve(io.cwd, shown);
    let isDir = false;
    try {
      isDir = statSync(root).isDirectory();
    } catch {
      throw new UsageError(`kit dev: no such directory: ${shown}`);
    }
    if (!isDir) throw new UsageError(`kit dev: ${shown} is not a directory (kit dev serves a directory of .kit files)`);
    const editorUrl = flags['editor-url'] ?? io.env.KIT_EDITOR_URL ?? DEFAULT_EDITOR_URL;
    if (!editorUrl.includes('{file}'))
      throw new UsageError(`kit dev: --editor-url must contain {file} (and may contain {line}, {column})`);
    let allowedHosts: string[] = [];
    try {
      const flag = flags['allowed-hosts'] as string | undefined;
      allowedHosts = parseAllowedHosts(flag ?? sources.config?.allowedHosts.join(',') ?? '');
    } catch (e) {
      const where = flags['allowed-hosts'] !== undefined ? '--allowed-hosts' : 'allowedHosts of kit.config';
      throw new UsageError(`kit dev: ${where}: ${(e as Error).message}`);
    }
    const { startDevServer } = await import('../dev/dev-server.js');
    let dev;
    try {
      dev = await startDevServer({
        root,
        cwd: io.cwd,
        ssr: sources.ssr,
        // Without --ssr, ssr follows the config module as it is edited.
        ...(flags.ssr || !sources.config ? {} : { followConfig: sources.config.file }),
        host: flags.host ?? '127.0.0.1',
        allowedHosts,
        port,
        trace: !flags['no-trace'],
        editorUrl,
        out: (line) => io.stdout.write(line + '\n'),
        err: (line) => io.stderr.write(line + '\n'),
        color: useColor(io, 'stderr'),
      });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
        throw new UsageError(`kit dev: cannot listen: ${(e as Error).message}`);
      if (e instanceof SourceError) throw new UsageError(`kit dev: ${e.message}`);
      throw e;
    }
    if (flags.open) openBrowser(dev.url + '/');
    const running = dev;
    return new Promise<number>((done) => {
      const onSignal = () => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        io.stdout.write('kit dev: stopped\n');
        running.stop().then(
          () => done(0),
          () => done(1),
        );
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    });
  },
};
