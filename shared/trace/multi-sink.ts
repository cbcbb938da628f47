// Fan-out to several sinks in order. A sink that throws or rejects does not stop the others; the errors are
// reported together afterwards.
import type { FinishedSpan, Sink } from './types.js';

type Step = (sink: Sink) => void | PromiseLike<void>;

function fanOut(sinks: readonly Sink[], step: Step): void | Promise<void> {
  const errors: unknown[] = [];
  let pending: PromiseLike<void>[] | null = null;
  for (const sink of sinks) {
    try {
      const r = step(sink);
      if (r != null && typeof r.then === 'function') (pending ??= []).push(r);
    } catch (err) {
      errors.push(err);
    }
  }
  if (pending === null) {
    if (errors.length > 0) throw joined(errors);
    return;
  }
  return Promise.allSettled(pending).then((results) => {
    for (const r of results) if (r.status === 'rejected') errors.push(r.reason);
    if (errors.length > 0) throw joined(errors);
  });
}

function joined(errors: unknown[]): unknown {
  return errors.length === 1 ? errors[0] : new AggregateError(errors, `${errors.length} sinks failed`);
}

export function multiSink(...sinks: Sink[]): Sink {
  sinks.forEach((s, i) => {
    if (s === null || typeof s !== 'object' || typeof s.write !== 'function')
      throw new TypeError(`multiSink: argument ${i + 1} is not a sink`);
  });
  const list = Object.freeze([...sinks]);
  return {
    write: (span: FinishedSpan) => fanOut(list, (s) => s.write(span)),
    flush: () => fanOut(list, (s) => s.flush?.()),
    shutdown: () => fanOut(list, (s) => s.shutdown?.()),
  };
}
