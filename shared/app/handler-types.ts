// The types handlers, loads and guards are written against. kit binds handlers by name and shape
// (README, "Handler binding"); these types spell the shapes out so that a strict `tsc` checks them,
// and they mean what binding accepts: any function assignable to one binds (it may leave out the
// trailing parameters it does not read), and a `const` written to one is called as the type says.
// Binding reads them from its own copy (server/src/core/bind/mini-lib.ts, held to this file by a test).
import type { Context } from '../trace/index.js';
import type { FormValues } from './form.js';

/** What every handler, load and guard receives: the request's context; read it with `app.*`. */
export type RequestContext = Context;

/**
 * What an action, fragment or command may return: a Response as is; a string as HTML; nothing as
 * 204; an action's `fail(...)` / `showPage(...)` as its page re-rendered; any other value as JSON.
 */
export type HandlerResult = Response | string | null | undefined | void | object | number | boolean;

/** `act Name POST "/path"` with no input: `(ctx)`. */
export type Action = (ctx: RequestContext) => HandlerResult | Promise<HandlerResult>;

/** An action whose form is decoded into `Input` (string, number, boolean, string[], File and File[] fields). */
export type ActionWithInput<Input extends object> = (
  ctx: RequestContext,
  input: Input,
) => HandlerResult | Promise<HandlerResult>;

/** An action that reads the raw form. */
export type FormAction = (ctx: RequestContext, form: FormValues) => HandlerResult | Promise<HandlerResult>;

/** `api Name METHOD "/path"`: the handler answers the request itself. */
export type ApiHandler = (ctx: RequestContext, request: Request) => Response | Promise<Response>;

/** `Load<PageID>` of a page with `server { => { ... } }`: the fields the view reads. */
export type Load<Data extends object = Record<string, unknown>> = (ctx: RequestContext) => Data | Promise<Data>;
