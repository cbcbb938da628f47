// `kit lsp [--stdio | --node-ipc] [--ssr] [--frame-timeout <ms>]`: the language server, as editors start it.
import { DEFAULT_PARTIAL_TIMEOUT_MS } from '#lsp/framing.js';
import { runLanguageServer } from '#lsp/main.js';
import type { Command } from '../command.js';
import { parseArgs, UsageError } from '../args.js';
import { version } from '../version.js';

export const lspCommand: Command = {
  name: 'lsp',
  summary: 'run the language server (stdio or Node IPC)',
  help: `Usage: kit lsp [--stdio | --node-ipc] [--ssr] [--frame-timeout <ms>]

Runs the kit language server. Editors start it; it speaks the Language Server
Protocol over stdin/stdout (--stdio, the default) or over Node IPC (--node-ipc,
used by the VS Code extension) and indexes every workspace folder it is given.

Options:
  --stdio     talk JSON-RPC over stdin and stdout
  --node-ipc  talk over the Node IPC channel of the parent process
  --ssr       ssr on in every folder, whatever its kit.config says (each
              folder's settings come from its kit.config), until the client's
              kit.ssr setting says otherwise
  --frame-timeout <ms>
              stdio: how long a message whose body is shorter than its
              Content-Length waits for the rest before it is dropped and
              answered with a parse error (default ${DEFAULT_PARTIAL_TIMEOUT_MS})
`,
  run(argv, io) {
    const { flags, positionals } = parseArgs(
      argv,
      {
        stdio: 'boolean',
        'node-ipc': 'boolean',
        ssr: 'boolean',
        clientProcessId: 'string',
        'frame-timeout': 'string',
        help: 'boolean',
        h: 'boolean',
      },
      'lsp',
    );
    // `kit --help` is answered by the dispatcher; the extension's bundled server enters here directly.
    if (flags.help || flags.h) {
      io.stdout.write(this.help);
      return Promise.resolve(0);
    }
    if (flags.stdio && flags['node-ipc']) throw new UsageError('kit lsp: choose one transport, --stdio or --node-ipc');
    if (positionals.length) throw new UsageError(`kit lsp: unexpected argument ${positionals[0]}`);
    if (flags['node-ipc'] && typeof process.send !== 'function')
      throw new UsageError(
        'kit lsp: --node-ipc needs a parent process with an IPC channel (editors start the server that way); use ' +
          '--stdio',
      );
    const timeout = flags['frame-timeout'];
    if (timeout !== undefined && !/^[1-9]\d{0,6}$/.test(timeout))
      throw new UsageError(
        `kit lsp: --frame-timeout must be a whole number of milliseconds (1 to 9999999), not "${timeout}"`,
      );
    runLanguageServer({
      transport: flags['node-ipc'] ? 'node-ipc' : 'stdio',
      ssr: Boolean(flags.ssr),
      version: version(),
      ...(timeout !== undefined ? { frameTimeoutMs: Number(timeout) } : {}),
    });
    // The server runs until the client sends exit; the process exits from there.
    return new Promise<number>(() => {});
  },
};
