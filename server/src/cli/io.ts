// The streams and environment a command runs with; tests pass their own.
export interface CliIO {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** Colour only on a TTY and never with NO_COLOR (any value). */
export function useColor(io: CliIO, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  return Boolean(io[stream].isTTY) && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb';
}

export function paint(on: boolean, code: string, s: string): string {
  return on ? `\u001b[${code}m${s}\u001b[0m` : s;
}
