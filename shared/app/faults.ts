// What a generated server does with a fault no request can answer for: a rejected promise nobody
// awaited, or an exception thrown from a timer. Node's default is to exit, which takes every other
// request with it. kit's policy: log the fault once, with its (source-mapped) stack and the request
// it happened during; mark that request's span as failed; keep serving. The process state may be
// inconsistent after such a fault (a lock held, a half-written cache), so supervisors that restart
// processes can ask for the other policy: `KIT_EXIT_ON_FAULT=1` logs, then exits with status 70.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Span } from '../trace/index.js';

/** The request a piece of work belongs to, as far as faults are concerned. */
export interface FaultScope {
  method: string;
  target: string;
  /** The request span, when tracing is on. */
  span?: Span;
}

const scopes = new AsyncLocalStorage<FaultScope>();

/** Runs `fn` (and everything it schedules) as part of the request `scope`. */
export function inFaultScope<T>(scope: FaultScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** The scope of the running work, if it belongs to a request. */
export function currentFaultScope(): FaultScope | undefined {
  return scopes.getStore();
}

export interface FaultPolicy {
  log: (line: string) => void;
  /** Exit (status 70) after logging instead of serving on. */
  exit: boolean;
}

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : `a thrown ${typeof err}: ${String(err)}`;
}

/** Installs the process-wide handlers; returns a function that removes them. */
export function installFaultPolicy(policy: FaultPolicy): () => void {
  const onFault = (what: string) => (err: unknown) => {
    const scope = scopes.getStore();
    const during = scope ? ` during ${scope.method} ${scope.target}` : '';
    policy.log(`kit: ${what}${during}: ${describe(err)}`);
    if (scope?.span !== undefined) {
      const message = err instanceof Error ? err.message : String(err);
      scope.span.event('error', 'exception', {
        'exception.type': err instanceof Error ? err.name : typeof err,
        'exception.message': message,
      });
      scope.span.setStatus('error', `${what}: ${message}`);
    }
    if (policy.exit) {
      policy.log('kit: exiting after the fault (KIT_EXIT_ON_FAULT=1)');
      process.exit(70);
    }
  };
  const rejection = onFault('unhandled promise rejection');
  const exception = onFault('uncaught exception');
  process.on('unhandledRejection', rejection);
  process.on('uncaughtException', exception);
  return () => {
    process.off('unhandledRejection', rejection);
    process.off('uncaughtException', exception);
  };
}
