// The language server's stdio frame reader as it was before it kept its input as a list of chunks:
// each chunk re-copied the whole buffer (`Buffer.concat`) and re-read it (`toString` and a
// regular expression), quadratic in a frame's size. Kept as the reference the property test holds
// the new reader to (the same messages for any input cut any way) and as the framing benchmark's
// same-run baseline.
import { AbstractMessageReader, type DataCallback, type Disposable } from 'vscode-languageserver/node';

import { DEFAULT_PARTIAL_TIMEOUT_MS, type FramingOptions, MAX_FRAME_BYTES } from '#lsp/framing.js';

const HEADER_END = Buffer.from('\r\n\r\n');
const NEXT_HEADER = /content-length[ \t]*:[ \t]*\d+\r\n/i;

export class ConcatFrameReader extends AbstractMessageReader {
  private buffer: Buffer = Buffer.alloc(0);
  private timer: NodeJS.Timeout | undefined;
  private callback: DataCallback | undefined;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly options: FramingOptions,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const onData = (chunk: Buffer | string) => this.onData(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    const onEnd = () => this.fireClose();
    const onError = (e: Error) => this.fireError(e);
    this.input.on('data', onData);
    this.input.on('end', onEnd);
    this.input.on('close', onEnd);
    this.input.on('error', onError);
    return {
      dispose: () => {
        this.input.off('data', onData);
        this.input.off('end', onEnd);
        this.input.off('close', onEnd);
        this.input.off('error', onError);
        this.clearTimer();
      },
    };
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    this.clearTimer();
    this.drain();
    if (this.buffer.length > 0) {
      const ms = this.options.partialTimeoutMs ?? DEFAULT_PARTIAL_TIMEOUT_MS;
      this.timer = setTimeout(() => this.dropPartial(), ms);
      this.timer.unref();
    }
  }

  /** Bytes received that do not make a whole frame yet (at the end of input: a cut-off frame). */
  unfinished(): number {
    return this.buffer.length;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Delivers every complete frame in the buffer. */
  private drain(): void {
    for (;;) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end < 0) {
        // No header block yet; a runaway header (no blank line in sight) cannot be a frame.
        if (this.buffer.length > 64 * 1024) this.skip(this.buffer.length, 'a header block without an end');
        return;
      }
      const length = contentLength(this.buffer.toString('ascii', 0, end));
      const bodyStart = end + HEADER_END.length;
      if (typeof length === 'string') {
        this.skip(this.nextHeaderAt(bodyStart) ?? this.buffer.length, length);
        continue;
      }
      // The declared body may run into the next frame: a header line inside it ends it early.
      const window = this.buffer.toString('latin1', bodyStart, Math.min(this.buffer.length, bodyStart + length));
      const m = NEXT_HEADER.exec(window);
      if (m) {
        const at = bodyStart + m.index;
        this.report(`Content-Length ${length} runs past the body into the next frame`, this.buffer, bodyStart, at);
        this.buffer = this.buffer.subarray(at);
        continue;
      }
      if (this.buffer.length < bodyStart + length) return; // wait for the rest
      const body = this.buffer.subarray(bodyStart, bodyStart + length);
      this.buffer = this.buffer.subarray(bodyStart + length);
      this.callback?.(this.options.decode(Buffer.from(body)));
    }
  }

  /** Where the next header block starts after `from`, if one is buffered. */
  private nextHeaderAt(from: number): number | undefined {
    const m = NEXT_HEADER.exec(this.buffer.toString('latin1', from));
    if (!m) return undefined;
    return from + m.index;
  }

  private skip(to: number, reason: string): void {
    this.report(reason, this.buffer, 0, to);
    this.buffer = this.buffer.subarray(to);
  }

  private dropPartial(): void {
    this.timer = undefined;
    if (this.buffer.length === 0) return;
    this.skip(this.buffer.length, 'an incomplete frame (the body never arrived)');
  }

  private report(reason: string, bytes: Buffer, from: number, to: number): void {
    this.callback?.(this.options.malformed(`Parse error: ${reason}`, requestId(bytes.toString('utf8', from, to))));
  }
}

/** The body length a header block declares, or why there is none. */
function contentLength(headers: string): number | string {
  let value: string | undefined;
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) return `header line without ':' (${JSON.stringify(line.slice(0, 40))})`;
    if (line.slice(0, colon).trim().toLowerCase() === 'content-length') value = line.slice(colon + 1).trim();
  }
  if (value === undefined) return 'no Content-Length header';
  if (!/^\d{1,10}$/.test(value)) return `Content-Length is not a number (${JSON.stringify(value.slice(0, 20))})`;
  const n = Number(value);
  if (n > MAX_FRAME_BYTES) return `Content-Length ${n} is over the ${MAX_FRAME_BYTES}-byte limit`;
  return n;
}

/** The `id` of a request whose frame is broken, when its text still shows one. */
function requestId(text: string): number | string | null {
  const m = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")/.exec(text);
  if (!m) return null;
  if (m[1].startsWith('"')) {
    try {
      return JSON.parse(m[1]) as string;
    } catch {
      return null;
    }
  }
  return Number(m[1]);
}
