// The calling convention of bound handlers: the signature kind found at build time decides what
// the handler receives after its context (nothing, a decoded input, the raw form, a Request).
// Decoding and the call are two steps, so that a trace shows them as two spans.
import type { IncomingMessage } from 'node:http';
import { describeRequest, type RequestState } from './context.js';
import { decodeForm, formFromData, formFromQuery } from './form.js';
import type { InputField } from './manifest.js';

/** What handlers of a signature without an argument receive after their context: nothing. */
export const NO_ARGUMENT: unique symbol = Symbol('kit.noArgument');

/** Whether a signature takes an argument that has to be decoded from the request. */
export function takesInput(signature: string): boolean {
  return !(signature === 'action0' || signature === 'command0' || signature === 'query0' || signature === 'fragment');
}

/** The handler's argument decoded from the request (a `FormDecodeError` names the bad field). */
export function handlerArgument(
  signature: string,
  fields: readonly InputField[],
  formData: FormData | undefined,
  query: string,
  req: IncomingMessage,
  body: Buffer | undefined,
  state: RequestState,
): unknown {
  switch (signature) {
    case 'action0':
    case 'command0':
    case 'query0':
    case 'fragment':
      return NO_ARGUMENT;
    case 'action_form':
      return formFromData(formData ?? new FormData()).form;
    case 'action_input':
    case 'command_input': {
      const { form, files } = formFromData(formData ?? new FormData());
      return decodeForm(form, fields, files);
    }
    case 'query_input':
      return decodeForm(formFromQuery(query), fields);
    case 'api': {
      const described = describeRequest(state);
      const method = req.method ?? 'GET';
      return body === undefined || method === 'GET' || method === 'HEAD'
        ? described
        : new Request(described.url, {
            method,
            headers: described.headers,
            body: new Uint8Array(body),
            signal: state.signal,
          });
    }
    default:
      throw new Error(`unsupported handler signature ${signature}`);
  }
}

/**
 * Calls a handler with its context and, unless its signature takes none, its argument. A handler
 * may name fewer parameters than it is passed (an `ApiHandler` written `(ctx)` or `()`): JavaScript
 * ignores the extra arguments, so the call is the same.
 */
export function callHandler(fn: (ctx: unknown, arg?: unknown) => unknown, ctx: unknown, arg: unknown): unknown {
  return arg === NO_ARGUMENT ? fn(ctx) : fn(ctx, arg);
}
