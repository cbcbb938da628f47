// Reading request bodies with a size cap (1 MiB for actions and APIs).
import type { IncomingMessage } from 'node:http';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor() {
    super('request body too large');
    this.name = 'BodyTooLargeError';
  }
}

export class BodyAbortedError extends Error {
  constructor() {
    super('request body aborted');
    this.name = 'BodyAbortedError';
  }
}

/** The whole body, or BodyTooLargeError as soon as it passes `limit` (declared or streamed). */
export function readBody(req: IncomingMessage, limit: number = DEFAULT_BODY_LIMIT): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    return Promise.reject(new BodyTooLargeError());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err: Error | null, body?: Buffer): void => {
      if (done) return;
      done = true;
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      req.removeListener('aborted', onAborted);
      if (err) {
        req.resume();
        reject(err);
      } else resolve(body!);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(new BodyTooLargeError());
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    const onError = (): void => finish(new BodyAbortedError());
    const onAborted = (): void => finish(new BodyAbortedError());
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

function mediaType(contentType: string | undefined): string {
  if (!contentType) return '';
  const semi = contentType.indexOf(';');
  return (semi >= 0 ? contentType.slice(0, semi) : contentType).trim().toLowerCase();
}

export function isFormContentType(contentType: string | undefined): boolean {
  const t = mediaType(contentType);
  return t === 'application/x-www-form-urlencoded' || t === 'multipart/form-data';
}

/**
 * One urlencoded name or value: `+` is a space, `%XX` a byte, and the bytes must be UTF-8. The
 * WHATWG parser would put U+FFFD for invalid bytes; here they are an error, the same answer (400)
 * as invalid raw bytes in the body. A `%` not followed by two hex digits stays literal, as WHATWG's.
 */
function formComponent(raw: string): string {
  const s = raw.indexOf('+') < 0 ? raw : raw.replace(/\+/g, ' ');
  if (s.indexOf('%') < 0) return s;
  return decodeURIComponent(s.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
}

/** `application/x-www-form-urlencoded` pairs in order; throws `URIError` for invalid UTF-8. */
export function parseUrlEncoded(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    pairs.push(
      eq < 0 ? [formComponent(part), ''] : [formComponent(part.slice(0, eq)), formComponent(part.slice(eq + 1))],
    );
  }
  return pairs;
}

/** Parses a urlencoded or multipart body; throws on anything malformed. */
export async function parseFormBody(body: Buffer, contentType: string | undefined): Promise<FormData> {
  const t = mediaType(contentType);
  if (t === 'application/x-www-form-urlencoded') {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    const fd = new FormData();
    for (const [k, v] of parseUrlEncoded(text)) fd.append(k, v);
    return fd;
  }
  if (t === 'multipart/form-data') {
    // The platform's multipart parser (undici), fed the buffered, size-capped body.
    return new Response(new Uint8Array(body), { headers: { 'content-type': contentType! } }).formData();
  }
  if (body.length === 0) return new FormData();
  throw new TypeError('unsupported form content type');
}
