// A streaming `multipart/form-data` parser for uploads into typed inputs. The request is read as it
// arrives: text fields are kept (at most `textLimit` bytes of them), each file is written to a
// temporary file of the request's own directory under `os.tmpdir()` as its bytes come in, so no
// more than one network chunk is ever held. Limits (total bytes, file count, bytes per file) stop
// the read the moment they are passed; `UploadScope.cleanup()` removes every temporary file, and
// the caller runs it in a `finally` whatever happened.
import { createWriteStream, openAsBlob, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BodyAbortedError } from './body.js';
import { PartHeaderError, parsePartHeaders, type PartHeaders } from './multipart-headers.js';

/** Per-request upload limits (`export const uploads = {...}` in kit.config). */
export interface UploadLimits {
  /** Bytes of the whole multipart body. */
  maxTotalBytes: number;
  /** Files in one request. */
  maxFiles: number;
  /** Bytes of one file. */
  maxFileBytes: number;
}

export const DEFAULT_UPLOAD_LIMITS: Readonly<UploadLimits> = Object.freeze({
  maxTotalBytes: 10 * 1024 * 1024,
  maxFiles: 10,
  maxFileBytes: 5 * 1024 * 1024,
});

/** The app config's `uploads` is not what the app can use (the app does not start). */
export class UploadConfigError extends Error {
  constructor(message: string) {
    super(`kit config: ${message}`);
    this.name = 'UploadConfigError';
  }
}

/** The limits `export const uploads = { maxTotalBytes, maxFiles, maxFileBytes }` sets; defaults for the rest. */
export function uploadLimits(config: unknown): UploadLimits {
  const c = config as { uploads?: unknown; default?: { uploads?: unknown } } | null | undefined;
  const given = c?.uploads ?? c?.default?.uploads;
  if (given === undefined) return { ...DEFAULT_UPLOAD_LIMITS };
  if (given === null || typeof given !== 'object')
    throw new UploadConfigError('uploads must be an object such as { maxTotalBytes: 10_000_000, maxFiles: 5 }');
  const out: UploadLimits = { ...DEFAULT_UPLOAD_LIMITS };
  for (const [key, value] of Object.entries(given)) {
    if (!(key in DEFAULT_UPLOAD_LIMITS))
      throw new UploadConfigError(`uploads.${key} is not a limit (maxTotalBytes, maxFiles, maxFileBytes)`);
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
      throw new UploadConfigError(`uploads.${key} must be a whole number of at least 0, got ${String(value)}`);
    out[key as keyof UploadLimits] = value;
  }
  return out;
}

/** A limit the request passed: the answer is a 413 naming it. */
export class UploadLimitError extends Error {
  constructor(
    readonly limit: keyof UploadLimits | 'text',
    readonly value: number,
  ) {
    super(
      limit === 'maxTotalBytes'
        ? `upload too large: the request body exceeds maxTotalBytes (${value} bytes)`
        : limit === 'maxFiles'
          ? `too many files: a request may carry at most maxFiles (${value}) files`
          : limit === 'maxFileBytes'
            ? `file too large: a file may have at most maxFileBytes (${value} bytes)`
            : `form fields too large: the text fields exceed ${value} bytes`,
    );
    this.name = 'UploadLimitError';
  }
}

/** The body is not multipart as its content type announced (400 `invalid form`). */
export class MultipartError extends Error {
  constructor(message: string) {
    super(`invalid form: ${message}`);
    this.name = 'MultipartError';
  }
}

/** The temporary files of one request. */
export class UploadScope {
  private dir: Promise<string> | undefined;
  private readonly streams = new Set<WriteStream>();
  private count = 0;

  /** A new temporary file path in the request's directory (made on first use). */
  async file(): Promise<string> {
    this.dir ??= mkdtemp(join(tmpdir(), 'kit-upload-'));
    return join(await this.dir, `f${this.count++}`);
  }

  track(ws: WriteStream): void {
    this.streams.add(ws);
    ws.once('close', () => this.streams.delete(ws));
  }

  /** Removes the request's temporary directory and everything in it. Never throws. */
  async cleanup(): Promise<void> {
    for (const ws of this.streams) ws.destroy();
    if (this.dir === undefined) return;
    const dir = await this.dir.catch(() => undefined);
    if (dir !== undefined) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

export interface MultipartOptions {
  limits: UploadLimits;
  /** Bytes of text fields kept in memory (the body limit of forms). */
  textLimit: number;
  scope: UploadScope;
  /** Called before the first byte of each file is written; throwing stops the read (a CSRF check). */
  beforeFile?: (fields: FormData) => void;
}

/** The `boundary` parameter of a multipart content type. */
export function boundaryOf(contentType: string): string | undefined {
  const m = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** A part's header block as it arrived, read by `parsePartHeaders` (its errors become 400s). */
function partHeaders(block: Buffer): PartHeaders {
  try {
    return parsePartHeaders(block);
  } catch (e) {
    throw e instanceof PartHeaderError ? new MultipartError(e.message) : e;
  }
}

/** Bytes of one part's header block, its closing blank line included (busboy's and Node's limit). */
const HEADER_LIMIT = 16 * 1024;

/** Where the reader is in the body. */
type ReadState = 'preamble' | 'after' | 'headers' | 'body' | 'end';

/**
 * The parser of one multipart body, fed chunk by chunk: the boundary lines, each part's header
 * block, and its bytes into a text field or a temporary file, with the limits checked as it goes.
 */
class MultipartReader {
  readonly fields = new FormData();
  state: ReadState = 'preamble';
  private readonly delimiter: Buffer;
  // The body is read as if it began with CRLF, so the first boundary line looks like every other.
  private buf: Buffer = Buffer.from('\r\n');
  private part: PartHeaders | undefined;
  private text: Buffer[] = [];
  private textBytes = 0;
  private file: { ws: WriteStream; path: string; bytes: number } | undefined;
  private files = 0;
  private total = 0;

  constructor(
    boundary: string,
    private readonly opts: MultipartOptions,
  ) {
    this.delimiter = Buffer.from('\r\n--' + boundary);
  }

  private countFile(): void {
    const max = this.opts.limits.maxFiles;
    if (++this.files > max) throw new UploadLimitError('maxFiles', max);
  }

  /** Bytes of the current part: kept as text, or written to its temporary file. */
  private async write(data: Buffer): Promise<void> {
    const { part, opts } = this;
    if (data.length === 0 || part === undefined) return;
    if (part.filename === undefined) {
      this.textBytes += data.length;
      if (this.textBytes > opts.textLimit) throw new UploadLimitError('text', opts.textLimit);
      this.text.push(data);
      return;
    }
    if (this.file === undefined) {
      // A part named "" counts once it holds a byte (what an empty file input sends is no file).
      if (part.filename === '') this.countFile();
      opts.beforeFile?.(this.fields);
      const path = await opts.scope.file();
      const ws = createWriteStream(path);
      opts.scope.track(ws);
      this.file = { ws, path, bytes: 0 };
    }
    const file = this.file;
    file.bytes += data.length;
    const max = opts.limits.maxFileBytes;
    if (file.bytes > max) throw new UploadLimitError('maxFileBytes', max);
    if (!file.ws.write(data)) await new Promise<void>((r) => file.ws.once('drain', r));
  }

  /** The current part is complete: its field is added. */
  private async finishPart(): Promise<void> {
    const p = this.part;
    this.part = undefined;
    if (p === undefined) return;
    if (p.filename === undefined) {
      const value = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(this.text));
      this.text = [];
      this.fields.append(p.name, value);
      return;
    }
    const f = this.file;
    this.file = undefined;
    if (f === undefined) {
      // No bytes: an empty file input sends a nameless, empty part; a named empty file is a file.
      if (p.filename === '') return;
      this.fields.append(p.name, new File([], p.filename, { type: p.type }));
      return;
    }
    await new Promise<void>((resolve, reject) => f.ws.end((err?: Error | null) => (err ? reject(err) : resolve())));
    const blob = await openAsBlob(f.path, { type: p.type });
    this.fields.append(p.name, new File([blob], p.filename, { type: p.type }));
  }

  /** One chunk of the body, read as far as it goes. */
  async feed(chunk: Buffer): Promise<void> {
    const max = this.opts.limits.maxTotalBytes;
    this.total += chunk.length;
    if (this.total > max) throw new UploadLimitError('maxTotalBytes', max);
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    for (;;) {
      if (this.state === 'end') {
        this.buf = Buffer.alloc(0);
        return;
      }
      if ((this.state === 'preamble' || this.state === 'body') && !(await this.toDelimiter())) return;
      if (this.state === 'after' && !this.boundaryLine()) return;
      if (this.state === 'headers' && !this.headerBlock()) return;
    }
  }

  /** Up to the next delimiter (the bytes before it are the part's); false when it has not come yet. */
  private async toDelimiter(): Promise<boolean> {
    const { delimiter } = this;
    const at = this.buf.indexOf(delimiter);
    if (at < 0) {
      // Keep what could be the start of a delimiter split across chunks.
      const keep = Math.min(this.buf.length, delimiter.length - 1);
      if (this.state === 'body') await this.write(this.buf.subarray(0, this.buf.length - keep));
      this.buf = this.buf.subarray(this.buf.length - keep);
      return false;
    }
    if (this.state === 'body') {
      await this.write(this.buf.subarray(0, at));
      await this.finishPart();
    }
    this.buf = this.buf.subarray(at + delimiter.length);
    this.state = 'after';
    return true;
  }

  /** The rest of a boundary line: `--` ends the body; false when the line has not ended yet. */
  private boundaryLine(): boolean {
    const buf = this.buf;
    if (buf.length < 2) return false;
    if (buf[0] === 45 && buf[1] === 45) {
      this.state = 'end';
      return true;
    }
    const eol = buf.indexOf('\r\n');
    if (eol < 0) {
      if (buf.length > 256) throw new MultipartError('a boundary line does not end');
      return false;
    }
    // Only transport padding (blanks) may follow a boundary on its line (RFC 2046).
    for (let k = 0; k < eol; k++)
      if (buf[k] !== 32 && buf[k] !== 9) throw new MultipartError('a boundary line holds more than the boundary');
    this.buf = buf.subarray(eol + 2);
    this.state = 'headers';
    return true;
  }

  /** A part's header block; false when it has not all come yet. */
  private headerBlock(): boolean {
    // Searched in at most the limit's bytes, so a header block is refused at the same size
    // whether it came in one chunk or in many.
    const end = this.buf.subarray(0, HEADER_LIMIT).indexOf('\r\n\r\n');
    if (end < 0) {
      if (this.buf.length >= HEADER_LIMIT) throw new MultipartError('part headers are too long');
      return false;
    }
    const part = (this.part = partHeaders(this.buf.subarray(0, end)));
    // Every part with a file name counts, empty or not, before any of its bytes is read.
    if (part.filename !== undefined && part.filename !== '') this.countFile();
    this.buf = this.buf.subarray(end + 4);
    this.state = 'body';
    return true;
  }
}

/**
 * Reads a multipart body from `req` into FormData: text fields as strings, files as `File`s backed
 * by their temporary files (valid until the scope is cleaned up). A file input left empty (no
 * name, no bytes) is no file. Rejects with `UploadLimitError`, `MultipartError` or what
 * `beforeFile` threw; on rejection the rest of the body is drained unread.
 */
export function parseMultipart(req: IncomingMessage, contentType: string, opts: MultipartOptions): Promise<FormData> {
  const boundary = boundaryOf(contentType);
  if (boundary === undefined) return Promise.reject(new MultipartError('the content type names no boundary'));
  const declared = Number(req.headers['content-length']);
  const max = opts.limits.maxTotalBytes;
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    return Promise.reject(new UploadLimitError('maxTotalBytes', max));
  }
  return readBodyInto(req, new MultipartReader(boundary, opts));
}

/** Feeds the request's chunks to `reader` one at a time (the request paused meanwhile). */
function readBodyInto(req: IncomingMessage, reader: MultipartReader): Promise<FormData> {
  return new Promise<FormData>((resolve, reject) => {
    let chain = Promise.resolve();
    let failed = false;
    const stop = (err: unknown): void => {
      if (failed) return;
      failed = true;
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.resume();
      reject(err instanceof TypeError ? new MultipartError('a field is not valid UTF-8') : err);
    };
    const onData = (chunk: Buffer): void => {
      req.pause();
      chain = chain
        .then(() => reader.feed(chunk))
        .then(() => {
          if (!failed) req.resume();
        }, stop);
    };
    const onEnd = (): void => {
      chain = chain.then(() => {
        if (failed) return;
        if (reader.state !== 'end') throw new MultipartError('the body ends before its closing boundary');
        req.removeListener('data', onData);
        resolve(reader.fields);
      }, stop);
      chain.catch(stop);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.once('aborted', () => stop(new BodyAbortedError()));
    req.once('error', () => stop(new BodyAbortedError()));
  });
}
