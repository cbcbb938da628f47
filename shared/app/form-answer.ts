// Answering a form submission with its page: a 422 (constraint or decoding failure, `fail()`) or
// `showPage()` data re-renders the action's page with its layouts, `form` in scope
// (`form-state.ts`), the submitted values put back into the form (`form-html.ts`) and a CSRF field
// in every form. Without JavaScript that is the whole document; a partial submission (kit-forms.js)
// gets only the region to swap: the form itself on a failure (`X-Kit-Form-Replace: 1`), the
// `g:target` element on success. An action with no page to render answers the errors as text.
import type { IncomingMessage } from 'node:http';
import { renderTemplate } from '../render/index.js';
import type { Context } from '../trace/index.js';
import type { FieldErrors } from './constraints.js';
import { thrownStatus } from './errors.js';
import { type ElementRange, fillForm, findActionForm, findById, hasControl } from './form-html.js';
import { formState, type FormResultData } from './form-state.js';
import type { FormValues } from './form.js';
import { csrfInsertionPoints, injectAt } from './html-forms.js';
import type { Reply } from './reply.js';
import { FRAGMENT_SWAP, FRAGMENT_TARGET } from './responses.js';
import type { EndpointRuntime } from './routes.js';
import type { AppServices } from './services.js';
import { csrfToken, describeThrown } from './steps.js';

/** Header of a partial answer that replaces the submitting form (its body is the form). */
export const FORM_REPLACE = 'X-Kit-Form-Replace';

export interface FormAnswer {
  status: number;
  /** What the action gave (`fail` / `showPage` data); `{}` for a failed check. */
  data: FormResultData;
  /** Errors found before the handler ran (constraints, decoding). */
  errors?: FieldErrors;
  /** Answer only when the form has a control of this name (else `answerWithPage` returns false). */
  requireField?: string;
}

export interface Submission {
  req: IncomingMessage;
  reply: Reply;
  ep: EndpointRuntime;
  ctx: Context;
  params: Record<string, string>;
  /** The request path as sent and decoded: the form's `action` is one of them. */
  paths: readonly string[];
  form: FormValues;
  /** The `g:target` of a partial submission. */
  partialTarget?: string;
  swap: 'innerHTML' | 'outerHTML';
}

function submittedValues(form: FormValues): { first: Record<string, string>; all: Map<string, string[]> } {
  const first: Record<string, string> = {};
  const all = new Map<string, string[]>();
  for (const name of form.names()) {
    all.set(name, form.getAll(name));
    Object.defineProperty(first, name, { value: form.get(name), enumerable: true, writable: true });
  }
  return { first, all };
}

/** Plain-text errors, one line per field, for an action no page renders. */
function errorText(errors: Record<string, string>): string {
  const lines = Object.entries(errors).map(([field, message]) => `field ${JSON.stringify(field)}: ${message}`);
  return lines.length ? `validation failed: ${lines.join('; ')}` : 'validation failed';
}

/** The page's data for the re-render: its load result (or route params), `form` added. */
async function pageData(app: AppServices, s: Submission): Promise<Record<string, unknown> | Response | undefined> {
  const page = s.ep.page!;
  let base: unknown = s.params;
  const load = page.load;
  if (load !== undefined && load.ok) {
    try {
      base = await load.handler.fn(s.ctx);
    } catch (thrown) {
      const { status, message } = thrownStatus(thrown);
      if (status >= 500) app.log(`kit: load of page ${page.entry.pageId} failed: ${describeThrown(thrown)}`);
      s.reply.error(status, 'request_failed', message);
      return undefined;
    }
    if (base instanceof Response) return base;
  }
  return base !== null && typeof base === 'object' ? { ...(base as Record<string, unknown>) } : {};
}

function withCsrf(app: AppServices, req: IncomingMessage, html: string, headers: Record<string, string>): string {
  const points = csrfInsertionPoints(html);
  if (points.length === 0) return html;
  const { token, setCookie } = csrfToken(app, req);
  if (setCookie) headers['Set-Cookie'] = setCookie;
  return injectAt(html, points, token);
}

/**
 * Answers the submission with its page (or, without one, plain text). Returns false, having sent
 * nothing, when `answer.requireField` is not a control of the form.
 */
export async function answerWithPage(app: AppServices, s: Submission, answer: FormAnswer): Promise<boolean> {
  const { reply, ep } = s;
  const failed = answer.status >= 400;
  const values = submittedValues(s.form);
  const state = formState(answer.data, values.first, answer.errors);
  const template = ep.page?.template;
  if (template === undefined && answer.requireField !== undefined) return false;
  if (template === undefined) {
    if (failed) reply.error(answer.status, 'validation_failed', errorText(state.errors));
    else {
      app.log(`kit: action ${ep.entry.pageId}.${ep.entry.symbol} answered showPage() but has no page to show`);
      reply.error(500, 'request_failed', 'internal server error');
    }
    return true;
  }
  const data = await pageData(app, s);
  if (data === undefined) return true;
  if (data instanceof Response) {
    await reply.write(data, { noStore: true });
    return true;
  }
  data.form = state;
  let html = renderTemplate(template, data, s.params);
  let form: ElementRange | undefined;
  for (const path of s.paths) if ((form ??= findActionForm(html, path, s.partialTarget)) !== undefined) break;
  // A field the form does not show is not a mistake a person made in it: the caller answers 400.
  if (answer.requireField !== undefined && (form === undefined || !hasControl(html, form, answer.requireField)))
    return false;
  if (form !== undefined) ({ html, form } = fillForm(html, form, values.all, new Set(Object.keys(state.errors))));
  const headers: Record<string, string> = {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  if (failed) headers['X-Kit-Error-Code'] = 'validation_failed';
  let body = html;
  if (s.partialTarget !== undefined) {
    const region = failed ? form : findById(html, s.partialTarget.slice(1));
    if (region === undefined) {
      if (failed) reply.error(answer.status, 'validation_failed', errorText(state.errors));
      else reply.error(400, 'fragment_not_found', 'partial fragment not found');
      return true;
    }
    const outer = failed || s.swap === 'outerHTML';
    body = outer ? html.slice(region.start, region.end) : html.slice(region.openEnd, region.closeStart);
    if (failed) headers[FORM_REPLACE] = '1';
    else {
      headers[FRAGMENT_TARGET] = s.partialTarget;
      headers[FRAGMENT_SWAP] = s.swap;
    }
  }
  body = withCsrf(app, s.req, body, headers);
  reply.send(answer.status, { ...headers, 'Content-Length': Buffer.byteLength(body) }, body);
  return true;
}
