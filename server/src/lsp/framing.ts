// The stdio frame reader: `Content-Length: N\r\n\r\n` then N bytes of JSON. A client (or a broken
// proxy) can send a frame whose header is not a number, or whose length runs past the body into
// the next frame; the library reader then waits forever and the editor never restarts a server
// that no longer answers. This reader resynchronises instead:
// - a header block without a usable `Content-Length` is dropped, up to the next header block;
// - a body that holds the start of another frame (`Content-Length: <digits>` and a raw CR LF, which
//   a JSON text cannot contain: line breaks in JSON strings are escaped) ends there: the bytes
//   before it are one malformed frame;
// - a frame still incomplete after `partialTimeoutMs` without new bytes is dropped.
// Each dropped frame becomes the message `malformed()` makes of it, which the server answers with a
// JSON-RPC error for the request's id when the bytes show one, so the client stops waiting.
// The bytes are held as the chunks they came in (`byte-chunks.ts`) and each byte is scanned a
// bounded number of times: the header end and the next frame's header are searched from where the
// previous search stopped, and a body is copied once, when all of it is in. The whole frame is
// never re-copied or re-read per chunk, so a 50 MiB `didOpen` costs its bytes once.
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from 'vscode-languageserver/node';
import { ByteChunks } from './byte-chunks.js';

const CR = 0x0d;
const LF = 0x0a;
const CONTENT_LENGTH = Buffer.from('content-length');
/** A header block with no end after this many bytes cannot be a frame. */
const MAX_HEADER_BYTES = 64 * 1024;
/** How long an incomplete frame waits for its next bytes before it is dropped, by default. */
export const DEFAULT_PARTIAL_TIMEOUT_MS = 10_000;
/** Larger bodies are refused as malformed: no real message comes near it. */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;

export interface FramingOptions {
  /** Decodes one well-delimited body (JSON-RPC checks included). */
  decode(body: Buffer): Message;
  /** The message a frame that could not be delimited becomes; `id` is the request's if the bytes show one. */
  malformed(reason: string, id: number | string | null): Message;
  partialTimeoutMs?: number;
}

/** Where the reader is: looking for a header block's end, or inside a body of a known length. */
type ReadState = { at: 'header'; scan: number } | { at: 'body'; bodyStart: number; length: number; scan: number };

export class FramedMessageReader extends AbstractMessageReader {
  private readonly bytes = new ByteChunks();
  /** `scan`: the position from which the current search goes on (everything before it is settled). */
  private state: ReadState = { at: 'header', scan: 0 };
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
    this.bytes.push(chunk);
    this.clearTimer();
    this.drain();
    if (this.bytes.size > 0) {
      const ms = this.options.partialTimeoutMs ?? DEFAULT_PARTIAL_TIMEOUT_MS;
      this.timer = setTimeout(() => this.dropPartial(), ms);
      this.timer.unref();
    }
  }

  /** Bytes received that do not make a whole frame yet (at the end of input: a cut-off frame). */
  unfinished(): number {
    return this.bytes.size;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Delivers every complete frame received. */
  private drain(): void {
    const bytes = this.bytes;
    for (;;) {
      const state = this.state;
      if (state.at === 'header') {
        const end = this.headerEnd(state);
        if (end < 0) {
          // No header block yet; a runaway header (no blank line in sight) cannot be a frame.
          if (bytes.size > MAX_HEADER_BYTES) this.skip(bytes.end, 'a header block without an end');
          return;
        }
        const length = contentLength(bytes.slice(bytes.begin, end).toString('ascii'));
        const bodyStart = end + 4;
        if (typeof length === 'string') {
          this.skip(nextHeader(bytes, bodyStart, bytes.end).start ?? bytes.end, length);
          continue;
        }
        this.state = { at: 'body', bodyStart, length, scan: bodyStart };
        continue;
      }
      // The declared body may run into the next frame: a header line inside it ends it early.
      const bodyEnd = state.bodyStart + state.length;
      const found = nextHeader(bytes, state.scan, Math.min(bytes.end, bodyEnd), state.bodyStart);
      if (found.start !== undefined) {
        const at = found.start;
        this.report(`Content-Length ${state.length} runs past the body into the next frame`, state.bodyStart, at);
        this.bytes.consume(at);
        this.state = { at: 'header', scan: at };
        continue;
      }
      state.scan = found.resume;
      if (bytes.end < bodyEnd) return; // wait for the rest
      const body = bytes.slice(state.bodyStart, bodyEnd);
      bytes.consume(bodyEnd);
      this.state = { at: 'header', scan: bodyEnd };
      this.callback?.(this.options.decode(body));
    }
  }

  /**
   * The position of the `\r\n\r\n` ending the header block that starts at `begin`, or -1 (then
   * `state.scan` remembers how far the search got, so that it goes on from there).
   */
  private headerEnd(state: { scan: number }): number {
    const bytes = this.bytes;
    for (;;) {
      const cr = bytes.indexOf(CR, Math.max(state.scan, bytes.begin));
      if (cr < 0) {
        state.scan = bytes.end;
        return -1;
      }
      if (cr + 3 >= bytes.end) {
        state.scan = cr; // the rest of the marker is not in yet
        return -1;
      }
      if (bytes.byteAt(cr + 1) === LF && bytes.byteAt(cr + 2) === CR && bytes.byteAt(cr + 3) === LF) return cr;
      state.scan = cr + 1;
    }
  }

  private skip(to: number, reason: string): void {
    this.report(reason, this.bytes.begin, to);
    this.bytes.consume(to);
    this.state = { at: 'header', scan: to };
  }

  private dropPartial(): void {
    this.timer = undefined;
    if (this.bytes.size === 0) return;
    this.skip(this.bytes.end, 'an incomplete frame (the body never arrived)');
  }

  private report(reason: string, from: number, to: number): void {
    const text = this.bytes.slice(from, to).toString('utf8');
    this.callback?.(this.options.malformed(`Parse error: ${reason}`, requestId(text)));
  }
}

const isDigit = (b: number) => b >= 0x30 && b <= 0x39;
const isBlank = (b: number) => b === 0x20 || b === 0x09;

/**
 * The start of the first header line `Content-Length: <digits>\r\n` (any case, blanks around the
 * colon) that lies within [from, to) and starts at or after `floor`, which a JSON text cannot hold
 * (line breaks in its strings are escaped). Such a line ends in the only CR it holds, so the search
 * looks for CRs and reads back from each: the runs read back never overlap, so every byte is read a
 * bounded number of times. `resume`: where a later search, with more bytes in, goes on.
 */
function nextHeader(bytes: ByteChunks, from: number, to: number, floor = from): { start?: number; resume: number } {
  let scan = from;
  for (;;) {
    const cr = bytes.indexOf(CR, scan, to);
    if (cr < 0) return { resume: to };
    if (cr + 1 >= to) return { resume: cr }; // its LF is not in (or not inside the window) yet
    scan = cr + 1;
    if (bytes.byteAt(cr + 1) !== LF) continue;
    let i = cr - 1;
    while (i >= floor && isDigit(bytes.byteAt(i))) i--;
    if (i === cr - 1) continue;
    while (i >= floor && isBlank(bytes.byteAt(i))) i--;
    if (i < floor || bytes.byteAt(i) !== 0x3a) continue; // ':'
    i--;
    while (i >= floor && isBlank(bytes.byteAt(i))) i--;
    const start = i - CONTENT_LENGTH.length + 1;
    if (start < floor) continue;
    let name = true;
    for (let k = 0; k < CONTENT_LENGTH.length && name; k++) {
      const b = bytes.byteAt(start + k);
      // ASCII letters compare without case; '-' as it is.
      name = (b >= 0x41 && b <= 0x5a ? b + 0x20 : b) === CONTENT_LENGTH[k];
    }
    if (name) return { start, resume: start };
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
