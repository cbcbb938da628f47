// The deadline of request-time work (25 s by default): one sweeper for all requests instead of a
// timer each. On expiry the context signal aborts and, if nothing was sent yet, the answer is 503.
import type { ServerResponse } from 'node:http';
import type { RequestState } from './context.js';
import { sendError } from './errors.js';

interface Deadline {
  state: RequestState;
  res: ServerResponse;
  at: number;
  head: boolean;
  json: boolean;
}

export class Deadlines {
  private readonly pending = new Set<Deadline>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly timeoutMs: number) {}

  /** Starts the deadline of one request; the answer ends it. */
  add(state: RequestState, res: ServerResponse, head: boolean, json: boolean): () => void {
    const entry: Deadline = { state, res, at: Date.now() + this.timeoutMs, head, json };
    this.pending.add(entry);
    if (this.sweeper === undefined) {
      this.sweeper = setInterval(() => this.sweep(), Math.min(250, this.timeoutMs));
      this.sweeper.unref();
    }
    return () => {
      this.pending.delete(entry);
    };
  }

  private sweep(): void {
    if (this.pending.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
      return;
    }
    const now = Date.now();
    for (const d of this.pending) {
      if (d.at > now) continue;
      this.pending.delete(d);
      d.state.abort(new Error('request deadline exceeded'));
      if (!d.res.headersSent && !d.res.destroyed)
        sendError(d.res, 503, 'request_timeout', 'request timed out', { head: d.head, json: d.json });
    }
  }
}
