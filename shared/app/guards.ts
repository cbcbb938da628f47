// Protective guards: functions the app registers by ID in its config module (`kit.config.ts`):
//
//   export const guards = {
//     'auth.required': (ctx) => (app.cookie(ctx, 'session') ? allow() : redirectTo('/login')),
//   };
//
// A guard answers `allow()` (or `true`/`undefined`), `deny()` (or `false`) → 403, or
// `redirectTo('/local/path')` → a no-store redirect. Guards run in declaration order before CSRF,
// form decoding and user code; the first one that does not allow decides. An ID without a
// registration fails closed (403), and so does a guard that throws (500, logged).
import type { Tracer } from '../trace/index.js';
import type { RequestContext } from './handler-types.js';
import type { UploadLimits } from './multipart.js';
import { isLocalPath } from './responses.js';

export type GuardDecision =
  | { readonly kind: 'allow' }
  | { readonly kind: 'deny'; readonly message?: string }
  | { readonly kind: 'redirect'; readonly location: string; readonly status: 302 | 303 | 307 };

export type GuardResult = GuardDecision | boolean | undefined | void;
/** A guard receives the request's context, as handlers do (a guard may leave it out). */
export type Guard = (ctx: RequestContext) => GuardResult | Promise<GuardResult>;

/**
 * The app config module's shape (`kit.config.ts`, at the project root or beside the sources). kit's
 * tools read `ssr`, `sources`, `out`, `app` and `allowedHosts` without running the module, so those
 * are literals.
 */
export interface KitConfig {
  /** Request-time rendering (`server {}` blocks, rest routes), as `--ssr`. */
  ssr?: boolean;
  /** The directory of the `.kit` files (default: `site/` beside the config when it exists, else its folder). */
  sources?: string;
  /** `kit build`'s static output (default `dist/site`). */
  out?: string;
  /** `kit build`'s app server (default `dist/app`); false: none. */
  app?: string | false;
  /** More host names `kit dev` and `kit preview` answer (as `--allowed-hosts`; `.name` for those under it). */
  allowedHosts?: string[];
  guards?: Record<string, Guard>;
  /** Where request spans go (`newTracer(withSink(...))` from kit/trace), instead of the local collector. */
  tracer?: Tracer;
  /** Per-request limits of multipart uploads (defaults: 10 MiB in all, 10 files, 5 MiB a file). */
  uploads?: Partial<UploadLimits>;
}

const ALLOW: GuardDecision = Object.freeze({ kind: 'allow' });

export function allow(): GuardDecision {
  return ALLOW;
}

export function deny(message?: string): GuardDecision {
  return message === undefined ? { kind: 'deny' } : { kind: 'deny', message };
}

/** Sends the client elsewhere (a login page); only local paths are accepted. */
export function redirectTo(location: string, status: 302 | 303 | 307 = 303): GuardDecision {
  if (!isLocalPath(location))
    throw new TypeError('redirectTo: the location must be a local path starting with a single "/"');
  return { kind: 'redirect', location, status };
}

export const PUBLIC_GUARD = 'public';

export type GuardOutcome =
  | GuardDecision
  | { readonly kind: 'unknown'; readonly id: string }
  | { readonly kind: 'error'; readonly id: string; readonly error: unknown };

function normalise(result: GuardResult): GuardDecision | undefined {
  if (result === undefined || result === true) return ALLOW;
  if (result === false) return { kind: 'deny' };
  if (result !== null && typeof result === 'object' && 'kind' in result) {
    if (result.kind === 'allow') return ALLOW;
    if (result.kind === 'deny') return result;
    if (result.kind === 'redirect' && isLocalPath(result.location)) return result;
  }
  return undefined;
}

/** Watches each guard run (tracing): `start(id)` before it, the returned function with its outcome. */
export type GuardWatch = (id: string) => ((outcome: GuardOutcome) => void) | undefined;

/** Runs `ids` in order against the registry; `allow` only when every guard allows. */
export async function runGuards(
  ids: readonly string[],
  registry: ReadonlyMap<string, Guard>,
  ctx: RequestContext,
  watch?: GuardWatch,
): Promise<GuardOutcome> {
  for (const id of ids) {
    if (id === PUBLIC_GUARD) continue;
    const done = watch?.(id);
    const outcome = await runGuard(id, registry, ctx);
    done?.(outcome);
    if (outcome.kind !== 'allow') return outcome;
  }
  return ALLOW;
}

async function runGuard(id: string, registry: ReadonlyMap<string, Guard>, ctx: RequestContext): Promise<GuardOutcome> {
  const guard = registry.get(id);
  if (guard === undefined) return { kind: 'unknown', id };
  let decision: GuardDecision | undefined;
  try {
    decision = normalise(await guard(ctx));
  } catch (error) {
    return { kind: 'error', id, error };
  }
  if (decision === undefined)
    return {
      kind: 'error',
      id,
      error: new TypeError(
        `guard ${JSON.stringify(id)} returned something other than allow(), deny() or redirectTo(path)`,
      ),
    };
  return decision;
}

/** Guard IDs are `public` alone or protective IDs only; an empty list means "no guard": denied. */
export function isPublic(ids: readonly string[]): boolean {
  return ids.length === 1 && ids[0] === PUBLIC_GUARD;
}

/** Guard registrations from a config module's exports (`guards` or `default.guards`). */
export function guardRegistry(config: unknown): Map<string, Guard> {
  const out = new Map<string, Guard>();
  const c = config as { guards?: unknown; default?: { guards?: unknown } } | null | undefined;
  const table = c?.guards ?? c?.default?.guards;
  if (table === undefined || table === null) return out;
  if (typeof table !== 'object') throw new TypeError('kit config: guards must be an object of guard functions by ID');
  for (const [id, fn] of Object.entries(table as Record<string, unknown>)) {
    if (typeof fn !== 'function') throw new TypeError(`kit config: guard ${JSON.stringify(id)} must be a function`);
    if (id === PUBLIC_GUARD)
      throw new TypeError('kit config: "public" is built in and cannot be registered as a guard');
    out.set(id, fn as Guard);
  }
  return out;
}
