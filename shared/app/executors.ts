// One executor per endpoint kind, each run by `serveEndpoint` once the request passed the shared
// steps, each reading top to bottom: decode the argument, call the handler, make the answer. APIs
// answer what they return (a string as HTML, a value as JSON); fragments their hook's answer or
// their static body; contracts (commands and queries) JSON. Actions: `action-executor.ts`.
import { renderTemplate } from '../render/index.js';
import { serveAction } from './action-executor.js';
import { decodeArgument, invokeHandler, sendResult, startDecode } from './endpoint-call.js';
import type { EndpointRequest } from './endpoint-request.js';
import type { EndpointKind } from './manifest.js';
import { contractResponse, FRAGMENT_SWAP, FRAGMENT_TARGET, toResponse } from './responses.js';
import type { BoundHandler, EndpointRuntime } from './routes.js';

const HTML_TYPE = 'text/html; charset=utf-8';

export type Executor = (x: EndpointRequest, h: BoundHandler) => Promise<void>;

async function serveApi(x: EndpointRequest, h: BoundHandler): Promise<void> {
  const decoded = await decodeArgument(x, h, startDecode(x, h));
  if ('error' in decoded) return x.fail(400, 'invalid_form', decoded.error.message);
  const called = await invokeHandler(x, h, decoded.arg);
  if (called !== undefined) await sendResult(x, called, toResponse, { ...x.cors });
}

async function serveFragment(x: EndpointRequest, h: BoundHandler): Promise<void> {
  const decoded = await decodeArgument(x, h, startDecode(x, h));
  if ('error' in decoded) return x.fail(400, 'invalid_form', decoded.error.message);
  const called = await invokeHandler(x, h, decoded.arg);
  if (called === undefined) return;
  const respond = (result: unknown): Response =>
    result === undefined && h.signature === 'fragment' ? fragmentBody(x.ep, x.params) : toResponse(result);
  await sendResult(x, called, respond, { ...x.cors, ...fragmentHeaders(x.ep) });
}

async function serveContract(x: EndpointRequest, h: BoundHandler): Promise<void> {
  const decoded = await decodeArgument(x, h, startDecode(x, h));
  if ('error' in decoded) return x.fail(400, 'invalid_form', decoded.error.message);
  const called = await invokeHandler(x, h, decoded.arg);
  if (called !== undefined) await sendResult(x, called, contractResponse, { ...x.cors });
}

export const EXECUTORS: Readonly<Record<EndpointKind, Executor>> = {
  action: serveAction,
  api: serveApi,
  fragment: serveFragment,
  command: serveContract,
  query: serveContract,
};

/**
 * An endpoint without a bound handler: 501 naming what is missing, except a fragment declared
 * without a hook, which serves its static body.
 */
export async function serveUnbound(x: EndpointRequest, message: string): Promise<void> {
  const ep = x.ep;
  if (ep.entry.kind === 'fragment' && ep.entry.handler.status === 'missing') {
    await x.reply.write(fragmentBody(ep, x.params), {
      noStore: true,
      extraHeaders: { ...x.cors, ...fragmentHeaders(ep) },
    });
    return;
  }
  x.fail(501, 'handler_not_implemented', message);
}

function fragmentHeaders(ep: EndpointRuntime): Record<string, string> {
  const f = ep.entry.fragment;
  return f ? { [FRAGMENT_TARGET]: f.target, [FRAGMENT_SWAP]: f.swap } : {};
}

/** A fragment's static body, rendered with its route params. */
function fragmentBody(ep: EndpointRuntime, params: Record<string, string>): Response {
  const body = ep.fragmentTemplate ? renderTemplate(ep.fragmentTemplate, undefined, params) : '';
  return new Response(body, { status: 200, headers: { 'content-type': HTML_TYPE } });
}
