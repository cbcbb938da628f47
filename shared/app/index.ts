// @kit-lang/kit/app — the runtime of generated apps and the helpers user code calls at request time.
// Zero npm dependencies: Node built-ins and web standards (Request, Response, URL, crypto).
//
// In handlers, loads and guards:
//   import { app, route, redirect, json, html, htmlResponse, raw, fragment, reload } from '@kit-lang/kit/app';
//   import { allow, deny, redirectTo } from '@kit-lang/kit/app';
//   return fail(422, { errors: { email: 'taken' } }) / showPage({ message: 'Saved' }): the action's page
//   again, `{form.errors.email}` / `{form.message}` in its view, the submitted values in its inputs.
//   html`<p>Hello ${name}</p>` escapes `name`; a handler returns it, or answers `htmlResponse(page, { status })`.
//   app.route(ctx), app.params(ctx), app.typedParams(ctx), app.endpoint(ctx), app.request(ctx), app.cookie(ctx, name)
//   route.int(app.params(ctx), 'id') → { value, found, error }
export { app, type RouteInfo, type EndpointInfo } from './context.js';
export { route, RouteParamError, MissingParamError, type Params, type ParamResult } from '../route/index.js';
export {
  redirect,
  html,
  htmlResponse,
  json,
  fragment,
  reload,
  isLocalPath,
  FRAGMENT_TARGET,
  FRAGMENT_SWAP,
  RELOAD,
} from './responses.js';
export { SafeHtml, raw } from './safe-html.js';
export { HttpError } from './errors.js';
export { FormValues } from './form.js';
export { fail, showPage, ActionFailure, PageAnswer, type FormState, type FormResultData } from './form-state.js';
export { FORM_REPLACE } from './form-answer.js';
export { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from './multipart.js';
export type { FieldErrors } from './constraints.js';
export { allow, deny, redirectTo, type Guard, type GuardDecision, type GuardResult, type KitConfig } from './guards.js';
export { createApp, KitApp, TRACE_MOUNT, HEALTH_PATH, type AppOptions } from './app.js';
export {
  startServer,
  main,
  listenAddress,
  parseAddr,
  createHttpServer,
  SERVER_LIMITS,
  ConfigError,
  type StartOptions,
  type RunningServer,
  type ListenAddress,
  type ServerLimits,
} from './server.js';
export { dirSource, seaSource, seaApi, seaAssetKey, type StaticSource } from './static-files.js';
export { MANIFEST_VERSION } from './manifest.js';
export type {
  AppManifest,
  PageEntry,
  EndpointEntry,
  HandlerRef,
  InputField,
  FieldConstraint,
  StaticFile,
  CorsPolicy,
  SignatureKind,
} from './manifest.js';
export type {
  RequestContext,
  HandlerResult,
  Action,
  ActionWithInput,
  FormAction,
  ApiHandler,
  Load,
} from './handler-types.js';
