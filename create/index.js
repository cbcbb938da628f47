#!/usr/bin/env node
// `npm create @kit-lang [dir]` runs this: the starter of `kit init`, by the same code.
import { initCommand } from '@kit-lang/kit/init';

const io = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
};
initCommand.run(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    // Usage errors (a directory that is not empty) are messages, not stack traces.
    process.stderr.write(`${e?.message ?? String(e)}\n`);
    process.exitCode = e?.name === 'UsageError' ? 2 : 1;
  },
);
