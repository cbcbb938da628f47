// The streams and environment a command runs with; tests pass their own.
import { Writable } from 'node:stream';
export interface CliIO {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

/**
 * Exit status of a command whose reader went away (`kit routes | head`): what a shell reports for
 * a process ended by SIGPIPE, which Node ignores.
 */
export const EXIT_BROKEN_PIPE = 141;

export function processIO(): CliIO {
  // A closed stdout ends the command quietly; without a listener the EPIPE error event is thrown
  // from the stream as an unhandled error with a stack trace. Nothing more can be said on stderr
  // about a closed stderr.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(EXIT_BROKEN_PIPE);
    throw e;
  });
  process.stderr.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/**
 * Writes `text` (megabytes, say: `kit check --json` of thousands of diagnostics), as its UTF-8 bytes
 * when `out` is a Node stream; `text` may be those bytes already (the JSON report is made as bytes,
 * `format/json-bytes.ts`), cut only between characters. A stream handed a string that a full pipe
 * cannot take at once keeps the string and converts it again as the pipe drains: the 15 MB report
 * of 26,578 diagnostics took 110-160 ms after its last write to reach a reader through a pipe, and
 * 30 ms as bytes.
 */
export function writeText(out: CliIO['stdout'], text: string | Uint8Array): void {
  if (out instanceof Writable) out.write(typeof text === 'string' ? Buffer.from(text) : text);
  else out.write(typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.length).toString());
}

/** Colour only on a TTY and never with NO_COLOR (any value). */
export function useColor(io: CliIO, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  return Boolean(io[stream].isTTY) && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb';
}

export function paint(on: boolean, code: string, s: string): string {
  return on ? `\u001b[${code}m${s}\u001b[0m` : s;
}
