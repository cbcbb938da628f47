// The calling convention of bound handlers: the signature kind found at build time decides what
// the handler receives after its context (nothing, a decoded input, the raw form, a Request).
import type { IncomingMessage } from 'node:http';
import type { Context } from '../trace/index.js';
import { describeRequest, type RequestState } from './context.js';
import { decodeForm, formFromData, formFromQuery } from './form.js';
import type { InputField } from './manifest.js';

export async function invokeHandler(
  signature: string,
  fn: (ctx: unknown, arg?: unknown) => unknown,
  fields: readonly InputField[],
  ctx: Context,
  formData: FormData | undefined,
  query: string,
  req: IncomingMessage,
  body: Buffer | undefined,
  state: RequestState,
): Promise<unknown> {
  switch (signature) {
    case 'action0':
    case 'command0':
    case 'query0':
    case 'fragment':
      return fn(ctx);
    case 'action_form': {
      const { form } = formFromData(formData ?? new FormData());
      return fn(ctx, form);
    }
    case 'action_input':
    case 'command_input': {
      const { form, files } = formFromData(formData ?? new FormData());
      return fn(ctx, decodeForm(form, fields, files));
    }
    case 'query_input':
      return fn(ctx, decodeForm(formFromQuery(query), fields));
    case 'api': {
      const described = describeRequest(state);
      const method = req.method ?? 'GET';
      const request =
        body === undefined || method === 'GET' || method === 'HEAD'
          ? described
          : new Request(described.url, {
              method,
              headers: described.headers,
              body: new Uint8Array(body),
              signal: state.signal,
            });
      return fn(ctx, request);
    }
    default:
      throw new Error(`unsupported handler signature ${signature}`);
  }
}
