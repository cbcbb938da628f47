// One JSON snapshot per line (JSON.stringify never emits a raw newline, so lines cannot be forged).
import { writeText, type TextStream } from './stream-write.js';
import type { Sink } from './types.js';

export function newJSONLSink(stream: TextStream): Sink {
  if (stream === null || typeof stream !== 'object' || typeof stream.write !== 'function')
    throw new TypeError('newJSONLSink: stream must be writable');
  return { write: (span) => writeText(stream, span.json() + '\n') };
}
