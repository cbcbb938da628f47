// Handlers of the site package. kit binds each declared symbol (`act Send`, `api Health`) to the
// exported function of the same name in this directory, and checks its shape.
import { type ApiHandler, type RequestContext, type SafeHtml, app, html, htmlResponse } from '@kit-lang/kit/app';

/** The contact form's fields, decoded from the submitted form by their types. */
export interface ContactInput {
  name: string;
  email: string;
  message?: string;
}

export async function Send(ctx: RequestContext, input: ContactInput): Promise<SafeHtml | Response> {
  void ctx;
  if (!input.email.includes('@')) {
    // The validation error path: a 422 whose body the form shows in place of the result.
    return htmlResponse(html`<p class="error">${input.email} is not an email address.</p>`, { status: 422 });
  }
  // `html` escapes every value: what a visitor typed is shown, never run.
  return html`<p>Thanks, ${input.name}. We will write to ${input.email}.</p>`;
}

export const Health: ApiHandler = async (ctx, request) =>
  Response.json({ ok: true, route: app.route(ctx).path, method: request.method });
