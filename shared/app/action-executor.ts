// The executor of form actions. A partial submission (kit-forms.js) may only name a target the page
// declared for the action. Every action, whatever its handler takes, has its form checked against
// the constraints of the page's inputs before the handler runs; a failed check, a field its input
// type cannot decode, and a `fail()` or `showPage()` answer show the action's page again
// (`form-answer.ts`). Anything else the handler returns is answered as an API's result is.
import { decodeArgument, invokeHandler, sendResult, startDecode } from './endpoint-call.js';
import type { EndpointRequest } from './endpoint-request.js';
import { checkConstraints, hasErrors } from './constraints.js';
import { answerWithPage, type FormAnswer } from './form-answer.js';
import { ActionFailure, PageAnswer } from './form-state.js';
import { formFromData, type FormValues } from './form.js';
import { headerValue, isPartial } from './request-kind.js';
import { FRAGMENT_SWAP, FRAGMENT_TARGET, toResponse } from './responses.js';
import type { BoundHandler } from './routes.js';

/** What a submission is answered with when the page shows it again. */
interface Submitted {
  form: FormValues;
  /** The `g:target` of a partial submission. */
  partialTarget: string | undefined;
  swap: 'innerHTML' | 'outerHTML';
}

export async function serveAction(x: EndpointRequest, h: BoundHandler): Promise<void> {
  const s = submission(x);
  if (s === undefined) return x.fail(400, 'fragment_not_found', 'partial fragment not found');
  const decode = startDecode(x, h);
  if (x.ep.constraints !== undefined) {
    const errors = checkConstraints(s.form, x.ep.constraints);
    if (hasErrors(errors)) {
      decode?.setStatus('error', 'constraint validation failed');
      decode?.end();
      await x.uploads?.cleanup();
      await showForm(x, s, { status: 422, data: {}, errors });
      return;
    }
  }
  const decoded = await decodeArgument(x, h, decode);
  if ('error' in decoded) {
    // A field the page's form has, wrongly filled: the form again, the message beside it.
    const { field, display, message } = decoded.error;
    const answer: FormAnswer = { status: 422, data: {}, errors: { [field]: display ?? '' }, requireField: field };
    if (display === undefined || !(await showForm(x, s, answer))) x.fail(400, 'invalid_form', message);
    return;
  }
  const called = await invokeHandler(x, h, decoded.arg);
  if (called === undefined) return;
  const result = called.result;
  if (result instanceof ActionFailure || result instanceof PageAnswer) {
    await showForm(x, s, { status: result.status, data: result.data });
    return;
  }
  await sendResult(x, called, toResponse, { ...x.cors }, (response, headers) => {
    // A partial submission's HTML answer is swapped into the target it named.
    const type = response.headers.get('content-type') ?? '';
    if (s.partialTarget === undefined || response.status < 200 || response.status >= 300) return;
    if (!type.startsWith('text/html')) return;
    headers[FRAGMENT_TARGET] = s.partialTarget;
    headers[FRAGMENT_SWAP] = s.swap;
  });
}

/** The submitted form and how a partial one is answered; undefined for a target the page did not declare. */
function submission(x: EndpointRequest): Submitted | undefined {
  const { req, ep } = x;
  const partialTarget = isPartial(req) ? headerValue(req, 'x-kit-target') : undefined;
  if (isPartial(req) && (partialTarget === undefined || ep.partialTargets?.has(partialTarget) === false))
    return undefined;
  return {
    form: formFromData(x.form ?? new FormData()).form,
    partialTarget,
    swap: headerValue(req, 'x-kit-swap') === 'outerHTML' ? 'outerHTML' : 'innerHTML',
  };
}

/** The action's page again for this submission (false when `answer.requireField` is not in its form). */
function showForm(x: EndpointRequest, s: Submitted, answer: FormAnswer): Promise<boolean> {
  const { app, req, reply, ep, ctx, params, target } = x;
  const submission = { req, reply, ep, ctx, params, paths: [target.rawPath, target.path], ...s };
  return answerWithPage(app, submission, answer);
}
