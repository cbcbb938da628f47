// The collector's live event-stream subscribers, each fed at the pace its connection takes bytes.
// A subscriber's queue is a cursor into the collector's ring: the stored spans it has not been sent
// yet (at connect, the whole backlog). It owns no copy of them; a message is encoded only when the
// connection has room (`write()` returned true, or 'drain' came), so a subscriber that does not
// read holds at most its connection's buffer plus one event. One that leaves what it was handed
// unread for `stallMs` is dropped, and the bytes handed to all subscribers' connections and not yet
// taken have a cap: past it, they wait for the others to drain. Spans the ring evicts before a
// slow subscriber got them are skipped and counted; once its replay is done, a subscriber that
// falls more than `lag` spans behind skips the oldest too, so it always sees the newest.
import type { ServerResponse } from 'node:http';
import { sseMessage } from './collector-view.js';
import type { RingSink } from './ring-sink.js';

/** Default time a subscriber may leave the bytes handed to it unread before it is dropped. */
export const DEFAULT_SUBSCRIBER_STALL_MS = 10_000;
/** Default cap on the bytes handed to all subscribers' connections and not taken yet. */
export const DEFAULT_SUBSCRIBER_MEMORY = 8 * 1024 * 1024;

export interface SubscriberLimits {
  /** Spans a subscriber may fall behind the newest once its replay is done. */
  lag: number;
  stallMs: number;
  /** Bytes handed to all connections and not taken yet, at most (one event may pass an empty total). */
  memory: number;
  heartbeatMs: number;
}

interface Subscriber {
  res: ServerResponse;
  /** Sequence number of the next span to send. */
  next: number;
  /** The replay of the backlog is done: from then on `lag` bounds how far it falls behind. */
  live: boolean;
  /** Dropped when it fires: armed while the connection has not drained what it was handed. */
  stall: NodeJS.Timeout | undefined;
}

export class Subscribers {
  private readonly set = new Set<Subscriber>();
  /** Spans skipped for subscribers too slow to get them before they were evicted or outpaced. */
  skipped = 0;
  /** Subscribers dropped for leaving what they were handed unread for `stallMs`. */
  stalled = 0;
  private heartbeat: NodeJS.Timeout | null = null;
  /** The last message encoded: subscribers that are caught up all send the same one. */
  private cached: { seq: number; text: string } | undefined;

  constructor(
    private readonly ring: RingSink,
    readonly limits: SubscriberLimits,
  ) {}

  get size(): number {
    return this.set.size;
  }

  /** Spans stored and not yet sent, over all subscribers. */
  depth(): number {
    let n = 0;
    const end = this.ring.nextSeq;
    for (const s of this.set) n += end - Math.max(s.next, this.ring.firstSeq);
    return n;
  }

  /** Bytes handed to the subscribers' connections that they have not taken yet. */
  held(): number {
    let n = 0;
    for (const s of this.set) n += s.res.writableLength;
    return n;
  }

  /** Starts streaming the stored spans, then new ones, to `res`. */
  add(res: ServerResponse): void {
    const sub: Subscriber = { res, next: this.ring.firstSeq, live: false, stall: undefined };
    this.set.add(sub);
    const onDrain = (): void => {
      this.unstall(sub);
      // Bytes were taken: subscribers waiting on the shared cap may go on too.
      this.pumpAll();
    };
    res.on('drain', onDrain);
    res.once('close', () => {
      this.set.delete(sub);
      this.unstall(sub);
      res.removeListener('drain', onDrain);
      if (this.set.size === 0 && this.heartbeat !== null) {
        clearInterval(this.heartbeat);
        this.heartbeat = null;
      }
      this.pumpAll();
    });
    if (this.heartbeat === null) {
      this.heartbeat = setInterval(() => {
        for (const s of this.set)
          if (s.next >= this.ring.nextSeq && s.stall === undefined && !s.res.writableNeedDrain) s.res.write(':\n\n');
      }, this.limits.heartbeatMs);
      this.heartbeat.unref();
    }
    this.pump(sub);
  }

  /** A span was stored: sends it to whoever has room. */
  stored(): void {
    this.pumpAll();
  }

  private pumpAll(): void {
    for (const s of this.set) this.pump(s);
  }

  /** Sends `sub` what it has not been sent, for as long as its connection and the cap have room. */
  private pump(sub: Subscriber): void {
    const { res } = sub;
    const ring = this.ring;
    while (!res.destroyed && !res.writableNeedDrain) {
      if (sub.next < ring.firstSeq) {
        this.skipped += ring.firstSeq - sub.next;
        sub.next = ring.firstSeq;
      }
      const end = ring.nextSeq;
      if (sub.live && end - sub.next > this.limits.lag) {
        this.skipped += end - this.limits.lag - sub.next;
        sub.next = end - this.limits.lag;
      }
      if (sub.next >= end) {
        sub.live = true;
        return;
      }
      const text = this.message(sub.next);
      const held = this.held();
      if (held > 0 && held + Buffer.byteLength(text) > this.limits.memory) return; // a drain elsewhere resumes it
      sub.next++;
      if (!res.write(text)) this.arm(sub);
    }
  }

  private message(seq: number): string {
    if (this.cached?.seq !== seq) this.cached = { seq, text: sseMessage(this.ring.at(seq)!) };
    return this.cached.text;
  }

  private arm(sub: Subscriber): void {
    if (sub.stall !== undefined) return;
    sub.stall = setTimeout(() => {
      sub.stall = undefined;
      if (sub.res.destroyed || !sub.res.writableNeedDrain) return;
      this.stalled++;
      sub.res.destroy();
    }, this.limits.stallMs);
    sub.stall.unref();
  }

  private unstall(sub: Subscriber): void {
    if (sub.stall !== undefined) clearTimeout(sub.stall);
    sub.stall = undefined;
  }

  /** Ends every stream. */
  close(): void {
    for (const sub of [...this.set]) {
      this.unstall(sub);
      sub.res.end();
    }
    this.set.clear();
    if (this.heartbeat !== null) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
  }
}
