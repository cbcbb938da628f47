// Transports. Over stdio the reader delimits frames itself (`framing.ts`: it resynchronises after a
// broken header or length) and decodes each body, so that malformed JSON or a message that is not
// JSON-RPC is answered with the protocol's error (-32700 parse error, -32600 invalid request)
// instead of being dropped, and the session goes on. The writer (`frame-writer.ts`) sends the
// frames of one event-loop turn in one write.
import { IPCMessageReader, IPCMessageWriter, type MessageReader, type MessageWriter } from 'vscode-languageserver/node';
import { FrameWriter } from './frame-writer.js';
import { FramedMessageReader } from './framing.js';
import { paramsProblem } from './params.js';
import type { Message } from 'vscode-languageserver';

/**
 * Counts document edits that have arrived but not been handled yet. The connection handles one
 * queued message per event-loop turn, so without it a burst of edits would be parsed one by one;
 * with it, parsing waits until the last edit of the burst is in.
 */
export class EditArrivals {
  private waiting = 0;

  arrived(m: Message): void {
    const method = (m as { method?: unknown }).method;
    if (method === 'textDocument/didChange' || method === 'textDocument/didOpen' || method === 'textDocument/didClose')
      this.waiting++;
  }

  handled(): void {
    if (this.waiting > 0) this.waiting--;
  }

  /** Newer edits are queued: work on the current text would be stale. */
  get pending(): boolean {
    return this.waiting > 0;
  }

  /** A reader that reports every message to this counter as it arrives. */
  watch(reader: MessageReader): MessageReader {
    return {
      onError: reader.onError,
      onClose: reader.onClose,
      onPartialMessage: reader.onPartialMessage,
      listen: (callback) =>
        reader.listen((m) => {
          this.arrived(m);
          callback(m);
        }),
      dispose: () => reader.dispose(),
    };
  }
}

/** The notification a malformed frame turns into; the server answers it with an error response. */
export const MALFORMED_MESSAGE = 'kit/$malformedMessage';

export interface MalformedMessage {
  code: number;
  message: string;
  id: number | string | null;
  /** A notification whose params did not fit: it is ignored (and logged), never answered. */
  notification?: true;
}

function malformed(code: number, message: string, id: number | string | null = null, notification = false): Message {
  const params: MalformedMessage = { code, message, id };
  if (notification) params.notification = true;
  return { jsonrpc: '2.0', method: MALFORMED_MESSAGE, params } as Message;
}

/**
 * A reader that checks each message's params against what the server reads (`params.ts`) before
 * the connection dispatches it: a request that does not fit becomes an InvalidParams answer, a
 * notification that does not fit is ignored with a log line. Every transport goes through it.
 */
export function checkingParams(reader: MessageReader): MessageReader {
  return {
    onError: reader.onError,
    onClose: reader.onClose,
    onPartialMessage: reader.onPartialMessage,
    listen: (callback) =>
      reader.listen((m) => {
        const { method, id, params } = m as { method?: unknown; id?: unknown; params?: unknown };
        if (typeof method !== 'string') return callback(m);
        const request = isId(id);
        const problem = paramsProblem(method, params, request);
        if (problem === undefined) return callback(m);
        const text = `${method}: ${problem}`;
        callback(request ? malformed(-32602, `Invalid params: ${text}`, id) : malformed(-32602, text, null, true));
      }),
    dispose: () => reader.dispose(),
  };
}

function isId(v: unknown): v is number | string {
  return typeof v === 'number' || typeof v === 'string';
}

/** Decodes one frame body: JSON-RPC 2.0 requests, notifications and responses pass through. */
export function decodeMessage(bytes: Uint8Array, charset: string): Message {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder(charset).decode(bytes));
  } catch (e) {
    return malformed(-32700, `Parse error: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return malformed(
      -32600,
      Array.isArray(value)
        ? 'Invalid Request: batch messages are not supported'
        : 'Invalid Request: the message is not a JSON object',
    );
  }
  const m = value as Record<string, unknown>;
  const id = isId(m.id) ? m.id : null;
  if (m.jsonrpc !== '2.0') return malformed(-32600, 'Invalid Request: "jsonrpc" must be "2.0"', id);
  if ('method' in m) {
    if (typeof m.method !== 'string') return malformed(-32600, 'Invalid Request: "method" must be a string', id);
    if ('id' in m && !isId(m.id) && m.id !== null)
      return malformed(-32600, 'Invalid Request: "id" must be a number or a string', null);
    return m as unknown as Message;
  }
  if ('result' in m || 'error' in m) return m as unknown as Message;
  return malformed(-32600, 'Invalid Request: neither a request, a notification nor a response', id);
}

export interface Transport {
  reader: MessageReader;
  writer: MessageWriter;
  /** Stdio carries the protocol on stdout: nothing else may be written there. */
  stdio: boolean;
  /** Bytes of a frame still incomplete (stdio); a closed input with some left was cut off. */
  unfinished?: () => number;
}

/** `partialTimeoutMs`: how long an incomplete frame waits for more bytes (see `framing.ts`). */
export function stdioTransport(
  partialTimeoutMs?: number,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Transport {
  const reader = new FramedMessageReader(input, {
    decode: (body) => decodeMessage(body, 'utf-8'),
    malformed: (message, id) => malformed(-32700, message, id),
    partialTimeoutMs,
  });
  return {
    reader,
    writer: new FrameWriter(output),
    stdio: true,
    unfinished: () => reader.unfinished(),
  };
}

export function ipcTransport(): Transport {
  return { reader: new IPCMessageReader(process), writer: new IPCMessageWriter(process), stdio: false };
}
