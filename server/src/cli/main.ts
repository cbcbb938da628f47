// Program entry of `kit` (bin/kit.js imports this module).
import { runCli } from './run.js';
import { processIO } from './io.js';

const io = processIO();
runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    io.stderr.write(`kit: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    process.exitCode = 70;
  },
);
