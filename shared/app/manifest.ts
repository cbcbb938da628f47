// The generated app's route table: plain data that `kit build --app` writes into `<appdir>/routes.js`
// and hands to the runtime. Nothing here is code; the runtime turns it into routers and handlers at
// start-up. Field names follow the route report (`schemas/routes.schema.json`) where the two overlap.
import type { RenderMode } from '../language/facts.js';
import type { Template } from '../render/index.js';

export type { RenderMode };

export const MANIFEST_VERSION = 1;

export type EndpointKind = 'action' | 'api' | 'fragment' | 'command' | 'query';
export type BindingStatus = 'bound' | 'missing' | 'unsupported_signature';
export type SignatureKind =
  | 'action0'
  | 'action_input'
  | 'action_form'
  | 'api'
  | 'fragment'
  | 'load'
  | 'command0'
  | 'command_input'
  | 'query0'
  | 'query_input';

/** A form-decodable property of a handler's input type (`file`: a `File` or `Blob` property). */
export interface InputField {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'string[]' | 'file' | 'file[]';
  optional: boolean;
}

/**
 * The HTML constraints of one field of a form posting to an action, as written in the view
 * (literal attributes only), checked on the server before the handler runs (`constraints.ts`).
 */
export interface FieldConstraint {
  name: string;
  /** The input's `type` (`email`, `url`, `number`, ...); `textarea` and `select` for those elements. */
  type: string;
  required?: boolean;
  minlength?: number;
  maxlength?: number;
  min?: string;
  max?: string;
  pattern?: string;
  /** Messages written with `g:message:<constraint>` on the input, by constraint. */
  messages?: Record<string, string>;
}

/** Which exported function serves a route, as the static binding found it. */
export interface HandlerRef {
  status: BindingStatus;
  /** Key into the modules the generated `server.js` passes to the runtime (the module's source path). */
  module?: string;
  /** Exported name looked up in that module. */
  export: string;
  signature?: SignatureKind;
  inputType?: string;
  inputFields?: InputField[];
  /** Why the binding is missing or unsupported (becomes the 501 message). */
  message?: string;
  /** Where the bound function is declared (its name), for trace spans. */
  source?: SourceRef;
}

/** A place in the sources: `file` relative to the app's source root, 1-based line and column. */
export interface SourceRef {
  file: string;
  line: number;
  column: number;
}

export interface PageEntry {
  pageId: string;
  package: string;
  /** As declared: `/blog/{slug}`, `/p/{id:int}`, `/docs/{path...}`. */
  route: string;
  render: RenderMode;
  /** Declared guard IDs; empty means the page is denied (403) until it declares one. */
  guards: string[];
  /** Effective Cache-Control policy for successful HTML (the declared `cache` plus `stale-while-revalidate`). */
  cache?: string;
  layouts: string[];
  /**
   * Static HTML files built for this page, keyed by the decoded request path they answer
   * (`/blog/hello-kit` → `blog/hello-kit/index.html`): SPA and hybrid pages.
   */
  files: Record<string, string>;
  /**
   * Key into `templates`: the page's IR, rendered per request (SSR, hybrid paths not built ahead,
   * the page again after a form submission, and a built file whose forms need a CSRF token).
   */
  template?: string;
  /**
   * For a page whose built files hold a form that needs a CSRF token: the `paths` record each file
   * was rendered with (file key → record; files of a static route have none), to render it again
   * per request.
   */
  fileParams?: Record<string, Record<string, string>>;
  /** `Load<PageID>`; absent for pages without `server {}`. */
  load?: HandlerRef;
  /** Fields listed in `server { => {...} }`: without any, a page renders without a load function. */
  serverFields: string[];
  /** Key into `templates`: the error page of its 403, 404 and 500 answers to HTML requests. */
  errorPage?: string;
  /** The `route` declaration. */
  source?: SourceRef;
  /** The `guard` declaration. */
  guardSource?: SourceRef;
}

export interface CorsPolicy {
  /** Allowed origins (normalised `scheme://host[:port]`), or `['*']`. */
  origins: string[];
  /** Allowed methods for preflight; default: the endpoint's method. */
  methods?: string[];
  /** Allowed request headers (lowercase). */
  headers?: string[];
  /** Response headers exposed to scripts. */
  expose?: string[];
  credentials?: boolean;
  maxAge?: number;
}

export interface EndpointEntry {
  kind: EndpointKind;
  endpointSource: 'kit' | 'comment' | 'contract';
  method: string;
  /** As declared (`/inbox/rows/{id:int}`); endpoints without a path carry the page route. */
  route: string;
  /**
   * The only request paths (decoded) it answers on, when not the whole route: a path-less action
   * of a dynamic SPA page answers where the page was generated, nowhere else.
   */
  paths?: string[];
  /** Owning page, or `<package>.<Function>` for `//kit:` comment endpoints. */
  pageId: string;
  package: string;
  /** Declared symbol, fragment name or contract reference. */
  symbol: string;
  /** Inherited page guards, or the `//kit:guard` IDs; empty means denied (403). */
  guards: string[];
  csrf: boolean;
  handler: HandlerRef;
  cors?: CorsPolicy;
  /** Fragments: the declared target (`#rows`) and the static body's template key. */
  fragment?: { target: string; swap: string; template?: string };
  /** Actions: the `g:target` ids of the forms posting to it, the only targets a partial submission may name. */
  partialTargets?: string[];
  /** Actions: the constraints of the fields of the forms posting to it (`g:post`). */
  constraints?: FieldConstraint[];
  /** The declaration (`act`, `api`, `fragment` line, or the `//kit:` comment). */
  source?: SourceRef;
  /** The owning page's `guard` declaration. */
  guardSource?: SourceRef;
}

/** One file of the build output that the app serves. */
export interface StaticFile {
  /** Path below the static root with `/` separators, exactly as stored (`blog/hello-kit/index.html`). */
  file: string;
  /** Content-Type. */
  type: string;
  /** Cache-Control for a successful answer. HTML of pages takes the page's policy instead. */
  cache: string;
}

export interface AppManifest {
  version: typeof MANIFEST_VERSION;
  /** Name shown by `/_kit/health`. */
  app: string;
  pages: PageEntry[];
  endpoints: EndpointEntry[];
  /** Files served by URL path: key = decoded request path without the leading `/` (`assets/kit/kit.js`). */
  static: Record<string, StaticFile>;
  /** Static file answered with status 404 (`404.html`), when the build has one. */
  notFound?: string;
  templates: Record<string, Template>;
  /** Built with `kit build --trace`: instrumentation on without `KIT_TRACE=1`. */
  trace?: boolean;
  /**
   * Traced builds: the directory every `source.file` is relative to, itself relative to the app
   * directory, so the trace viewer can link a span to the file in an editor.
   */
  sourceRoot?: string;
  /** Traced builds: the browser trace bridge (`shared/client/trace-bridge.js`) that HTML answers load. */
  traceBridge?: string;
}
