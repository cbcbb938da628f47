// Answering a form submission with its page: a 422 (constraint or decoding failure, `fail()`) or
// `showPage()` data re-renders the action's page with its layouts and `form` in scope
// (`form-state.ts`). The renderer puts the submitted values back into the form the submission came
// from and writes the CSRF fields (shared/render/forms.ts): a first render finds that form (the
// first POST form whose action is the request path, the one naming the partial target first), the
// second writes the page. Without JavaScript that is the whole document; a partial submission
// (kit-forms.js) gets only the region to swap: the form itself on a failure
// (`X-Kit-Form-Replace: 1`), the `g:target` element on success. An action with no page to render
// answers the errors as text.
import type { IncomingMessage } from 'node:http';
import { FormRender, type RenderedForm, renderTemplate } from '../render/index.js';
import type { Context } from '../trace/index.js';
import type { FieldErrors } from './constraints.js';
import { thrownStatus } from './errors.js';
import { formState, type FormResultData } from './form-state.js';
import type { FormValues } from './form.js';
import type { Reply } from './reply.js';
import { FRAGMENT_SWAP, FRAGMENT_TARGET } from './responses.js';
import type { EndpointRuntime } from './routes.js';
import type { AppServices } from './services.js';
import { describeThrown, pageForms } from './steps.js';

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

/**
 * The number of the form a submission came from among those the page writes: the first POST form
 * whose action is one of `paths` (the request path as sent, then decoded), the one whose
 * `data-kit-target` is the partial target first.
 */
function submittedForm(forms: readonly RenderedForm[], paths: readonly string[], target?: string): number | undefined {
  for (const path of paths) {
    const posts = (f: RenderedForm): boolean => f.method === 'post' && f.action === path;
    const named = target === undefined ? -1 : forms.findIndex((f) => posts(f) && f.target === target);
    const at = named >= 0 ? named : forms.findIndex(posts);
    if (at >= 0) return at;
  }
  return undefined;
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
  const probe = new FormRender({ probe: true });
  renderTemplate(template, data, s.params, probe);
  const form = submittedForm(probe.forms, s.paths, s.partialTarget);
  // A field the form does not show is not a mistake a person made in it: the caller answers 400.
  if (answer.requireField !== undefined && (form === undefined || !probe.forms[form].names.has(answer.requireField)))
    return false;
  const partial = s.partialTarget;
  const page = pageForms(app, s.req, {
    ...(form !== undefined
      ? { refill: { form, values: values.all, invalid: new Set(Object.keys(state.errors)) } }
      : {}),
    ...(partial !== undefined ? { capture: failed ? { form: true as const } : { id: partial.slice(1) } } : {}),
  });
  const html = renderTemplate(template, data, s.params, page.forms);
  const headers: Record<string, string> = {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  if (failed) headers['X-Kit-Error-Code'] = 'validation_failed';
  let body = html;
  let fields = page.forms.fields;
  if (partial !== undefined) {
    const region = page.forms.captured;
    if (region === undefined) {
      if (failed) reply.error(answer.status, 'validation_failed', errorText(state.errors));
      else reply.error(400, 'fragment_not_found', 'partial fragment not found');
      return true;
    }
    const outer = failed || s.swap === 'outerHTML';
    body = outer ? region.outer : region.inner;
    fields = outer ? region.outerFields : region.innerFields;
    if (failed) headers[FORM_REPLACE] = '1';
    else {
      headers[FRAGMENT_TARGET] = partial;
      headers[FRAGMENT_SWAP] = s.swap;
    }
  }
  const cookie = page.cookie();
  if (fields > 0 && cookie !== undefined) headers['Set-Cookie'] = cookie;
  reply.send(answer.status, { ...headers, 'Content-Length': Buffer.byteLength(body) }, body);
  return true;
}
