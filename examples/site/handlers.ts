// Handlers of the site package. kit binds them by name, statically, with the TypeScript compiler:
// actions take (ctx), (ctx, input) or (ctx, form); APIs take (ctx, request).
export interface ContactInput {
  name: string;
  email: string;
  message?: string;
  newsletter?: boolean;
}

export async function Send(ctx: unknown, input: ContactInput): Promise<Response> {
  void ctx;
  const who = input.name.trim() || 'friend';
  return new Response(`<p>Thanks, ${escapeHtml(who)}. We will write to ${escapeHtml(input.email)}.</p>`, {
    headers: { 'content-type': 'text/html; charset=utf-8' },
  });
}

export async function Health(ctx: unknown, request: Request): Promise<Response> {
  void ctx;
  return Response.json({ ok: true, path: new URL(request.url).pathname });
}

export async function Echo(ctx: unknown, request: Request): Promise<Response> {
  void ctx;
  return Response.json({ received: await request.text() });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
