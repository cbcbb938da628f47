// Handlers of the site package. kit binds them by name, statically, with the TypeScript compiler:
// actions take (ctx), (ctx, input) or (ctx, form); APIs take (ctx, request).
import { html, type RequestContext, type SafeHtml } from '@kit-lang/kit/app';

export interface ContactInput {
  name: string;
  email: string;
  message?: string;
  newsletter?: boolean;
}

// The `html` tag escapes what the visitor typed; the app answers a returned SafeHtml as text/html.
export async function Send(ctx: RequestContext, input: ContactInput): Promise<SafeHtml> {
  void ctx;
  const who = input.name.trim() || 'friend';
  return html`<p>Thanks, ${who}. We will write to ${input.email}.</p>`;
}

export async function Health(ctx: RequestContext, request: Request): Promise<Response> {
  void ctx;
  return Response.json({ ok: true, path: new URL(request.url).pathname });
}

export async function Echo(ctx: RequestContext, request: Request): Promise<Response> {
  void ctx;
  return Response.json({ received: await request.text() });
}
