// Handlers of the site package. kit binds each declared symbol (`act Send`, `api Health`) to the
// exported function of the same name in this directory, and checks its shape.
import { type RequestContext, app } from '@kit-lang/kit/app';

/** The contact form's fields, decoded from the submitted form by their types. */
export interface ContactInput {
  name: string;
  email: string;
  message?: string;
}

export async function Send(ctx: RequestContext, input: ContactInput): Promise<Response> {
  void ctx;
  if (!input.email.includes('@')) {
    // The validation error path: a 422 whose body the form shows in place of the result.
    return new Response(`<p class="error">${escapeHtml(input.email)} is not an email address.</p>`, {
      status: 422,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
  }
  return new Response(`<p>Thanks, ${escapeHtml(input.name)}. We will write to ${escapeHtml(input.email)}.</p>`, {
    headers: { 'content-type': 'text/html; charset=utf-8' },
  });
}

export async function Health(ctx: RequestContext, request: Request): Promise<Response> {
  return Response.json({ ok: true, route: app.route(ctx).path, method: request.method });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
