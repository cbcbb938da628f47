// A request body as a socket delivers it, for the multipart parser's tests: chunks emitted one by
// one, honouring pause and resume.
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';

/** A request that emits `chunks` one by one, honouring pause/resume as a socket would. */
export function fakeRequest(chunks: Buffer[], headers: Record<string, string> = {}): IncomingMessage {
  const req = new EventEmitter() as EventEmitter & { headers: Record<string, string>; paused: boolean };
  req.headers = headers;
  req.paused = false;
  let i = 0;
  const pump = (): void => {
    while (!req.paused && i < chunks.length) req.emit('data', chunks[i++]);
    if (!req.paused && i === chunks.length) {
      i++;
      req.emit('end');
    }
  };
  Object.assign(req, {
    pause: () => (req.paused = true),
    resume: () => {
      req.paused = false;
      setImmediate(pump);
    },
  });
  setImmediate(pump);
  return req as unknown as IncomingMessage;
}
