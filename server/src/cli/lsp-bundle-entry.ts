// Entry of the server bundle the VS Code extension ships: `node dist/server.js [lsp] --node-ipc`.
import { lspCommand } from './commands/lsp.js';
import { processIO } from './io.js';

const argv = process.argv.slice(2).filter((a) => a !== 'lsp');
lspCommand.run(argv, processIO()).catch((e: unknown) => {
  process.stderr.write(`kit lsp: ${(e as Error).message}\n`);
  process.exit(2);
});
