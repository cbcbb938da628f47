// Writing to a Node stream from a sink: a full stream buffer becomes a promise, so the tracer's queue (not
// the process's memory) absorbs a slow terminal or file.

/** The part of a Node `Writable` that text sinks use. */
export interface TextStream {
  write(chunk: string): boolean;
  once?(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  removeListener?(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
}

export function writeText(stream: TextStream, text: string): void | Promise<void> {
  if (stream.write(text) || typeof stream.once !== 'function') return;
  return new Promise<void>((resolve) => {
    const done = (): void => {
      stream.removeListener?.('drain', done);
      stream.removeListener?.('close', done);
      stream.removeListener?.('error', done);
      resolve();
    };
    stream.once!('drain', done);
    stream.once!('close', done);
    stream.once!('error', done);
  });
}
