// Running a generated app: listen address, server limits (README, "Apps and single executables"), the
// `listening on` line, tracing switched on by the build or `KIT_TRACE=1` (or sent to the tracer the
// app config exports), and a graceful stop on SIGINT/SIGTERM that lets in-flight requests finish.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { newCollector, newTracer, Tracer, withSink } from '../trace/index.js';
import { isAllowedHost, parseAllowedHosts, type HostRule } from '../trace/http-origin.js';
import { KitApp, type AppOptions } from './app.js';
import { CsrfConfigError } from './csrf.js';
import { UploadConfigError } from './multipart.js';
import { installFaultPolicy } from './faults.js';
import type { AppManifest } from './manifest.js';
import type { Modules } from './routes.js';
import { dirSource, seaApi, seaSource, type StaticSource } from './static-files.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;

/** The server limits, in Node's terms. */
export const SERVER_LIMITS = Object.freeze({
  headersTimeoutMs: 5_000,
  /** Whole request received (Go's ReadTimeout). */
  requestTimeoutMs: 10_000,
  /**
   * A connection that moves no data for this long while a request is on it is closed (a client that
   * stopped reading its answer, say); Go's WriteTimeout is 30 s.
   */
  sendIdleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 60_000,
  maxHeaderSize: 1024 * 1024,
  /** How long a stop waits for in-flight requests before it cuts connections. */
  shutdownGraceMs: 25_000,
  /**
   * How often connections are checked against the header and request timeouts. Node's default (30 s)
   * let a 10 s request timeout fire after up to 40 s.
   */
  timeoutCheckMs: 500,
});

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface ListenAddress {
  host: string;
  port: number;
}

function parsePort(text: string, what: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535)
    throw new ConfigError(`${what}: port must be a number from 0 to 65535, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** `host:port`, `[v6]:port` or `:port` (default host). */
export function parseAddr(value: string): ListenAddress {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]*)):([^:]*)$/.exec(value);
  if (!m)
    throw new ConfigError(
      `--addr: expected host:port (for example 127.0.0.1:8080 or [::1]:8080), got ${JSON.stringify(value)}`,
    );
  const host = m[1] ?? (m[2] === '' ? DEFAULT_HOST : m[2]);
  return { host, port: parsePort(m[3], '--addr') };
}

/** The arguments a generated app's `server.js` takes. */
const APP_ARGS = { addr: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

/** `--addr` from the arguments, else `PORT` from the environment, else 127.0.0.1:8080. */
export function listenAddress(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ListenAddress {
  // Node's parser reads the arguments (`--addr x`, `--addr=x`, `-h`); the first `--addr` wins.
  const { tokens } = parseArgs({
    args: [...argv],
    options: APP_ARGS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const t of tokens) {
    if (t.kind === 'option' && t.name === 'addr') {
      if (t.value === undefined) throw new ConfigError('--addr needs a value such as 127.0.0.1:8080');
      return parseAddr(t.value);
    }
    if (t.kind === 'option' && t.name === 'help') continue;
    throw new ConfigError(`unknown argument ${JSON.stringify(argv[t.index])} (accepted: --addr host:port)`);
  }
  if (env.PORT !== undefined && env.PORT !== '') return { host: DEFAULT_HOST, port: parsePort(env.PORT, 'PORT') };
  return { host: DEFAULT_HOST, port: DEFAULT_PORT };
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export interface StartOptions {
  manifest: AppManifest;
  modules?: Modules;
  config?: unknown;
  /** Directory of the static output (`<appdir>/static`); ignored inside a single executable. */
  staticDir?: string;
  argv?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** Install SIGINT/SIGTERM handlers (default true). */
  handleSignals?: boolean;
  /** Exit the process after a signal-triggered stop (default true). */
  exitOnStop?: boolean;
  /** Install the process-wide fault policy (`faults.ts`; default true). */
  handleFaults?: boolean;
}

export interface RunningServer {
  app: KitApp;
  server: Server;
  url: string;
  address: ListenAddress;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes. */
  stop(): Promise<void>;
}

/**
 * The tracer the app config exports (`export const tracer = newTracer(...)` in `kit.config.ts`):
 * request spans go to its sinks (an OTLP exporter, say) instead of the local collector.
 */
export function configTracer(config: unknown): Tracer | undefined {
  const c = config as { tracer?: unknown; default?: { tracer?: unknown } } | null | undefined;
  const tracer = c?.tracer ?? c?.default?.tracer;
  if (tracer === undefined || tracer === null) return undefined;
  if (!(tracer instanceof Tracer))
    throw new ConfigError('kit config: tracer must be a Tracer (newTracer from kit/trace)');
  return tracer;
}

function staticSource(options: StartOptions): StaticSource {
  const sea = seaApi();
  if (sea) return seaSource(sea);
  if (options.staticDir === undefined) throw new ConfigError('staticDir is required outside a single executable');
  return dirSource(options.staticDir);
}

/**
 * Answers 421 (misdirected request) when `rule` does not allow the request's `Host`; true when it
 * did. `hint` (a sentence) says how to serve another name.
 */
export function refuseMisdirected(req: IncomingMessage, res: ServerResponse, rule: HostRule, hint: string): boolean {
  if (isAllowedHost(req.headers.host, rule)) return false;
  req.resume();
  const body = `misdirected request: this server does not answer the host name ${JSON.stringify(
    String(req.headers.host ?? '').slice(0, 100),
  )}; ${hint}\n`;
  res.writeHead(421, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Kit-Error-Code': 'misdirected_request',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/**
 * `KIT_ALLOWED_HOSTS`: unset, the app answers every `Host` (production behind a proxy). Set (as
 * `kit preview` does), it answers only the loopback names with its port, every address when it
 * listens on another interface, and the names the variable lists (see `isAllowedHost`).
 */
function allowedHosts(env: Readonly<Record<string, string | undefined>>): string[] | undefined {
  const value = env.KIT_ALLOWED_HOSTS;
  if (value === undefined) return undefined;
  try {
    return parseAllowedHosts(value);
  } catch (e) {
    throw new ConfigError(`KIT_ALLOWED_HOSTS: ${(e as Error).message}`);
  }
}

export type ServerLimits = { readonly [K in keyof typeof SERVER_LIMITS]: number };

/** The Node server of an app; `limits` other than the defaults are for tests and embedders. */
export function createHttpServer(
  app: Pick<KitApp, 'handle'>,
  limits: ServerLimits = SERVER_LIMITS,
): {
  server: Server;
  inflight: () => number;
  draining: { value: boolean };
} {
  let inflight = 0;
  const draining = { value: false };
  // A response always emits 'close' once, after 'finish' or when the connection dies first; one
  // shared listener keeps the in-flight count without a closure per request.
  const settle = (): void => {
    inflight--;
  };
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckMs,
    },
    (req: IncomingMessage, res: ServerResponse) => {
      inflight++;
      res.on('close', settle);
      if (draining.value) res.setHeader('Connection', 'close');
      app.handle(req, res);
    },
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Socket inactivity: without a 'timeout' listener Node destroys the socket.
  server.timeout = limits.sendIdleTimeoutMs;
  return { server, inflight: () => inflight, draining };
}

/**
 * Where the sources of a traced build live (absolute): `KIT_SOURCE_ROOT`, else the route table's
 * `sourceRoot` resolved against the app directory (unknown inside a single executable).
 */
function sourceRoot(options: StartOptions, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env.KIT_SOURCE_ROOT) return resolve(env.KIT_SOURCE_ROOT);
  const rel = options.manifest.sourceRoot;
  if (rel === undefined || options.staticDir === undefined || seaApi() !== null) return undefined;
  return resolve(options.staticDir, '..', rel);
}

/**
 * The app's tracer: the one the app config exports, else (tracing on) a local collector's. Answers
 * the exported one, whose spans are flushed when the server stops.
 */
function useTracer(
  appOptions: AppOptions,
  options: StartOptions,
  env: Readonly<Record<string, string | undefined>>,
  tracing: boolean,
  err: (line: string) => void,
): ReturnType<typeof configTracer> {
  const exported = configTracer(options.config);
  if (exported) {
    appOptions.tracer = exported;
    if (tracing) err('kit: the app config exports a tracer; spans go there, so the local collector is off');
  } else if (tracing) {
    // Span sources are relative to the build's source root: the viewer links them into an editor.
    const collector = newCollector(1024, { sourceRoot: sourceRoot(options, env) });
    appOptions.collector = collector;
    appOptions.tracer = newTracer(withSink(collector));
  }
  return exported;
}

/** Listens on the address; the Host rule learns the port bound before any request (port 0). */
function listenOn(server: Server, address: { host: string; port: number }, rule: HostRule): Promise<AddressInfo> {
  return new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.removeListener('error', reject);
      const bound = server.address() as AddressInfo;
      rule.port = bound.port;
      resolve(bound);
    });
  });
}

/**
 * The server's stop, once however often it is called: no new connections, idle ones closed, the
 * requests in flight given the shutdown grace; `release` at once, `closed` once the last is done.
 */
function stopper(
  server: Server,
  inflight: () => number,
  draining: { value: boolean },
  on: { release: () => void; closed: () => Promise<void> },
): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= new Promise<void>((resolve) => {
      draining.value = true;
      server.close(() => on.closed().then(resolve, resolve));
      server.closeIdleConnections();
      const started = Date.now();
      const poll = setInterval(() => {
        if (inflight() === 0 || Date.now() - started > SERVER_LIMITS.shutdownGraceMs) {
          clearInterval(poll);
          server.closeAllConnections();
        } else server.closeIdleConnections();
      }, 20);
      poll.unref();
      on.release();
    });
    return stopping;
  };
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const out = options.out ?? ((line: string) => process.stdout.write(line + '\n'));
  const err = options.err ?? ((line: string) => process.stderr.write(line + '\n'));
  const address = listenAddress(options.argv ?? process.argv.slice(2), env);
  const tracing = options.manifest.trace === true || env.KIT_TRACE === '1' || env.KIT_TRACE === 'true';
  const appOptions: AppOptions = {
    manifest: options.manifest,
    modules: options.modules,
    config: options.config,
    static: staticSource(options),
    csrfSecret: env.KIT_CSRF_SECRET,
    log: err,
    faultScopes: options.handleFaults !== false,
  };
  let removeFaultPolicy: (() => void) | undefined;
  if (options.handleFaults !== false) {
    // Stacks of handler errors name the .ts lines: the build compiles handlers with source maps.
    process.setSourceMapsEnabled(true);
    removeFaultPolicy = installFaultPolicy({ log: err, exit: env.KIT_EXIT_ON_FAULT === '1' });
  }
  const exported = useTracer(appOptions, options, env, tracing, err);
  const app = new KitApp(appOptions);
  if (app.csrf.ephemeral)
    err(
      'kit: warning: KIT_CSRF_SECRET is not set; using a random per-process secret (CSRF tokens will not survive ' +
        'a restart or work across instances)',
    );
  const hosts = allowedHosts(env);
  const rule: HostRule = { bound: address.host, port: address.port, allowed: hosts ?? [] };
  const hint = 'KIT_ALLOWED_HOSTS lists the names it answers';
  const { server, inflight, draining } = createHttpServer(
    hosts === undefined
      ? app
      : { handle: (req, res) => refuseMisdirected(req, res, rule, hint) || app.handle(req, res) },
  );
  const bound = await listenOn(server, address, rule);
  const url = `http://${formatHost(address.host)}:${bound.port}`;
  if (exported) out('tracing on: spans go to the tracer of the app config');
  else if (tracing) out(`tracing on: spans at ${url}/_kit/traces (viewer ${url}/_kit/traces/viewer, loopback only)`);
  out(`listening on ${url}`);

  const stop = stopper(server, inflight, draining, {
    release: () => {
      appOptions.collector?.close?.();
      removeFaultPolicy?.();
    },
    // Spans of the last requests are exported before the process ends (up to the export timeout).
    closed: () => exported?.flush() ?? Promise.resolve(),
  });
  if (options.handleSignals !== false) stopOnSignals(options, err, inflight, stop);
  return { app, server, url, address: { host: address.host, port: bound.port }, stop };
}

/** SIGINT and SIGTERM stop the server (the requests in flight finish), then the process exits. */
function stopOnSignals(
  options: StartOptions,
  err: (line: string) => void,
  inflight: () => number,
  stop: () => Promise<void>,
): void {
  const onSignal = (signal: string): void => {
    err(`kit: ${signal} received; finishing ${inflight()} in-flight request(s)`);
    stop().then(
      () => {
        if (options.exitOnStop !== false) process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => onSignal('SIGINT'));
  process.once('SIGTERM', () => onSignal('SIGTERM'));
}

/**
 * The entry a generated `server.js` calls: starts the app, and turns configuration mistakes into
 * one clear line on stderr and exit status 2 (no stack trace).
 */
export function main(options: StartOptions): Promise<RunningServer | undefined> {
  return startServer(options).catch((e: unknown) => {
    const err = options.err ?? ((line: string) => process.stderr.write(line + '\n'));
    if (e instanceof ConfigError || e instanceof CsrfConfigError || e instanceof UploadConfigError) {
      err(`kit: ${e.message}`);
      process.exitCode = 2;
    } else if (
      (e as NodeJS.ErrnoException)?.code === 'EADDRINUSE' ||
      (e as NodeJS.ErrnoException)?.code === 'EACCES' ||
      (e as NodeJS.ErrnoException)?.code === 'EADDRNOTAVAIL'
    ) {
      err(`kit: cannot listen: ${(e as Error).message}`);
      process.exitCode = 1;
    } else {
      err(`kit: cannot start: ${(e as Error)?.message ?? String(e)}`);
      process.exitCode = 1;
    }
    return undefined;
  });
}
