// The deadline of request-time work (25 s by default): one sweeper for all requests instead of a
// timer each. On expiry the context signal aborts and, if nothing was sent yet, the answer is 503;
// a response whose body is still streaming is cut (the deadline covers the whole answer).
import type { RequestState } from './context.js';
import type { Reply } from './reply.js';

interface Deadline {
  state: RequestState;
  reply: Reply;
  at: number;
}

export class Deadlines {
  private readonly pending = new Set<Deadline>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly timeoutMs: number) {}

  /** Starts the deadline of one request; the answer ends it. */
  add(state: RequestState, reply: Reply): () => void {
    const entry: Deadline = { state, reply, at: Date.now() + this.timeoutMs };
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
      const res = d.reply.res;
      if (res.destroyed || res.writableEnded) continue;
      if (!res.headersSent) d.reply.error(503, 'request_timeout', 'request timed out');
      else res.destroy(new Error('request deadline exceeded while the answer was being sent'));
    }
  }
}
