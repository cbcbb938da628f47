// The error of a command line kit cannot run: an unknown command or flag, a missing value, a bad
// combination. `run.ts` prints its message as one line and exits 2. A module of its own so that the
// start path (`run.ts`) loads no flag parser and, through it, no grammar.
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
