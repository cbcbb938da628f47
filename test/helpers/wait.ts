// Waiting for a condition instead of sleeping a fixed time: a fixed sleep is too long on a quiet
// machine and too short on a loaded one. The one polling helper of the tests; its failure names
// what was awaited, with the last value or error seen.

export interface WaitOptions {
  /** What is awaited, for the failure message: "the server to close the connection". */
  what: string;
  /** Give up after this many milliseconds (default 10 s). */
  timeout?: number;
  /** Poll every this many milliseconds (default 10). */
  every?: number;
}

/**
 * Resolves with the first truthy value of `condition`, polled until `timeout`. A condition that
 * throws (an assertion not yet true) counts as not yet met; on timeout its last error is the cause.
 */
export async function waitFor<T>(condition: () => T | Promise<T>, options: WaitOptions): Promise<NonNullable<T>> {
  const { what, timeout = 10_000, every = 10 } = options;
  const started = performance.now();
  let last: unknown;
  let threw = false;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as NonNullable<T>;
      last = value;
      threw = false;
    } catch (e) {
      last = e;
      threw = true;
    }
    const waited = performance.now() - started;
    if (waited >= timeout) {
      const seen = threw
        ? `last error: ${last instanceof Error ? last.message : String(last)}`
        : `last value: ${show(last)}`;
      throw new Error(`timed out after ${Math.round(waited)} ms waiting for ${what} (${seen})`, {
        cause: threw ? last : undefined,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
