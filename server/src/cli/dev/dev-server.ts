// The `kit dev` server: one HTTP server in front of the current app of a `DevSession`, the
// live-reload endpoints, the HTML injection (client, overlay, failed-request stacks), the trace
// collector, and the watcher that turns saves into new apps and news for open tabs.
import { dirname, relative, resolve, sep } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { watch, type FSWatcher } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createHttpServer, refuseMisdirected } from '#shared/app/server.js';
import type { HostRule } from '#shared/trace/http-origin.js';
import { newCollector, newTracer, withSink, type Collector } from '#shared/trace/index.js';
import { projectRootOf } from '#core/project/discover.js';
import { describeThrown } from '#shared/app/steps.js';
import type { ChangeReport } from './changes.js';
import { DevSession } from './session.js';
import { CLIENT_TAG, DEV_PREFIX, LiveReload } from './live.js';
import { injectHtml } from './inject.js';
import { overlayHtml, overlayPage, type OverlayContext } from './overlay.js';
import { announce, devCsrfSecret } from './project-state.js';
import { SourceWatcher } from './watch.js';
import { countProblems, filesOf, formatProblems, ProblemLog } from './problems.js';
import { foldStack } from './stack.js';
import { isNavigation, needsHandlers, originOk, pageIdOf } from './requests.js';

export interface DevServerOptions {
  /** The directory served (absolute). */
  root: string;
  cwd: string;
  ssr: boolean;
  /** The config module whose `ssr` the server follows (`DevSessionOptions.followConfig`). */
  followConfig?: string;
  host: string;
  /** More host names it answers (`--allowed-hosts`; see `isAllowedHost`). */
  allowedHosts?: readonly string[];
  /** undefined: 3000, or the next free port after it. */
  port?: number;
  trace: boolean;
  editorUrl: string;
  /** Terminal lines (stdout) and problems (stderr). */
  out: (line: string) => void;
  err: (line: string) => void;
  color: boolean;
}

export interface RunningDev {
  url: string;
  port: number;
  session: DevSession;
  /** Resolves after each batch of changes is served (tests and benchmarks wait on it). */
  onChange(listener: (report: ChangeReport) => void): void;
  stop(): Promise<void>;
}

export const DEFAULT_DEV_PORT = 3000;

const HOST_HINT = 'kit dev answers localhost and the address it listens on; --allowed-hosts lists more names (--help)';

/**
 * How long the server must have answered nothing before the start's binding runs: its first
 * directory loads the TypeScript compiler, which holds the thread for tens of milliseconds, and
 * the first pages (a browser asks for several at once) should not wait behind it.
 */
const BIND_WHEN_QUIET_MS = 100;
/** ... and how long at most, whatever the traffic (a save waiting for it starts it at once). */
const BIND_AT_LATEST_MS = 400;
/**
 * The same for the start's other checks: their first slices run cold (the rules' code not compiled
 * yet) and held the first page about 30 ms when they started with the server.
 */
const CHECK_WHEN_QUIET_MS = 20;
const CHECK_AT_LATEST_MS = 150;

/**
 * A promise settled once the server has answered nothing for `quietMs` after the last `quiet()`
 * (or `latestMs` after it was made, or at `now()`): work that would hold the thread waits for it.
 */
function whenQuiet(quietMs: number, latestMs: number): { promise: Promise<void>; now: () => void; quiet: () => void } {
  let now = () => {};
  const promise = new Promise<void>((ok) => (now = ok));
  let timer: NodeJS.Timeout | undefined;
  const quiet = () => {
    clearTimeout(timer);
    timer = setTimeout(now, quietMs).unref();
  };
  quiet();
  setTimeout(now, latestMs).unref();
  return { promise, now, quiet };
}

async function listen(
  server: ReturnType<typeof createHttpServer>['server'],
  host: string,
  port: number | undefined,
): Promise<number> {
  for (let p = port ?? DEFAULT_DEV_PORT; ; p++) {
    try {
      await new Promise<void>((ok, fail) => {
        server.once('error', fail);
        server.listen(p, host, () => {
          server.removeListener('error', fail);
          ok();
        });
      });
      return (server.address() as AddressInfo).port;
    } catch (e) {
      // A port given with --port is that port or an error; the default moves on, as other dev servers do.
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port !== undefined || p > DEFAULT_DEV_PORT + 20)
        throw e;
    }
  }
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

export async function startDevServer(opts: DevServerOptions): Promise<RunningDev> {
  // Handler stacks name the .ts lines: source maps are read for modules loaded from here on.
  process.setSourceMapsEnabled(true);
  // `.kit/` lives at the project root (the nearest package.json), as other tools' state folders do.
  const stateRoot = projectRootOf(opts.root) ?? opts.root;
  // Span sources are named relative to the project root (above every source, the root config's too),
  // and the viewer is told where that is: its links open the editor at a server span's source.
  const collector: Collector | undefined = opts.trace ? newCollector(1024, { sourceRoot: stateRoot }) : undefined;
  const tracer = collector ? newTracer(withSink(collector)) : undefined;
  const faults = new WeakMap<ServerResponse, unknown>();
  const fold = (text: string) => foldStack(text, stateRoot);
  const overlayCtx: OverlayContext = { cwd: opts.cwd, editorUrl: opts.editorUrl };
  const started = performance.now();
  const { session, report: first } = await DevSession.start({
    root: opts.root,
    cwd: opts.cwd,
    ssr: opts.ssr,
    followConfig: opts.followConfig,
    onTypes: (r) => {
      for (const f of r.failed) opts.err(`kit dev: warning: cannot write the page types to ${f}`);
    },
    csrfSecret: devCsrfSecret(stateRoot),
    sourceRoot: stateRoot,
    tracer,
    collector,
    // What the app logs (a handler's stack, say) with the user's frames first.
    log: (line) => opts.err(fold(line)),
    appName: 'kit-dev',
    onFault: (err, res) => faults.set(res, err),
  });
  // The user's frames may sit below kit's: a longer stack keeps them (kit dev is its own process).
  // Set once the sources are loaded: every error made while loading would record 40 frames.
  Error.stackTraceLimit = Math.max(Error.stackTraceLimit, 40);
  const live = new LiveReload((path) => pageIdOf(session.app, path));
  let overlay: string | undefined;
  /** Sources for code frames: the workspace's, else those of a handler module's compile errors. */
  const sourceOf = (r: Pick<ChangeReport, 'handlerProblem'>) => (f: string) =>
    session.sourceText(f) ?? r.handlerProblem?.sources.get(f);
  const handlerText = (r: Pick<ChangeReport, 'handlerProblem'>, color: boolean): string => {
    const p = r.handlerProblem!;
    return p.diagnostics.length > 0 ? formatProblems(p.diagnostics, sourceOf(r), color) : fold(p.message);
  };
  const overlayFor = (r: Pick<ChangeReport, 'errors' | 'handlerProblem'>): string | undefined => {
    if (r.errors.length > 0)
      return overlayHtml(
        overlayCtx,
        `kit dev: ${countProblems(r.errors)}`,
        formatProblems(r.errors, sourceOf(r), false),
      );
    if (r.handlerProblem)
      return overlayHtml(overlayCtx, 'kit dev: a handler module does not compile', handlerText(r, false));
    return undefined;
  };
  overlay = overlayFor(first);
  live.setOverlay(overlay);

  // A browser navigation that failed shows the stack; one the app could only answer with a plain 5xx
  // while the sources have problems (a page whose handler module does not compile: 501) shows the
  // overlay, which says why. Scripts (fetch, APIs, kit.js's partial forms and navigations) get the
  // app's own answer.
  const injection = (req: IncomingMessage, res: ServerResponse) => ({
    head: CLIENT_TAG,
    body: () => overlay ?? '',
    faultPage: (status: number, type: string) => {
      if (!isNavigation(req)) return undefined;
      if (faults.has(res)) {
        const text = fold(describeThrown(faults.get(res)));
        return overlayPage(overlayHtml(overlayCtx, `kit dev: the request failed (${status})`, text), CLIENT_TAG);
      }
      return overlay !== undefined && !type.startsWith('text/html') ? overlayPage(overlay, CLIENT_TAG) : undefined;
    },
  });
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    // Every answer, the dev endpoints and the overlay too, only for the names it was started for.
    if (refuseMisdirected(req, res, hostRule, HOST_HINT)) return;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (!originOk(session.app, req, path)) {
      req.resume();
      const body = `cross-origin request refused: kit dev takes ${req.method} requests from its own pages only\n`;
      res.writeHead(403, {
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
        'Cache-Control': 'no-store',
        'X-Kit-Error-Code': 'forbidden_origin',
      });
      res.end(body);
      return;
    }
    if (path.startsWith(DEV_PREFIX)) {
      if (!live.handle(req, res, path, q < 0 ? '' : url.slice(q + 1))) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end('404 page not found\n');
      }
      return;
    }
    const app = session.app;
    if (checks !== undefined && app !== undefined && needsHandlers(session, app, req, path)) {
      startChecks.now();
      bindSoon.now();
      void checks.then(() => handle(req, res));
      return;
    }
    if (checks !== undefined)
      res.once('finish', () => {
        startChecks.quiet();
        bindSoon.quiet();
      });
    if (app === undefined) {
      // Nothing has built yet: every answer is the overlay (its tab reloads once the site builds).
      const page = overlayPage(overlay ?? '', CLIENT_TAG);
      res.writeHead(500, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Length': Buffer.byteLength(page),
        'Cache-Control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : page);
      return;
    }
    if (!path.startsWith('/_kit/')) injectHtml(res, injection(req, res), req.method === 'HEAD');
    app.handle(req, res);
  };

  /** While the start's checks run: settles when they are done (requests needing handlers wait for it). */
  let checks: Promise<void> | undefined;
  // The checks, then binding, start once the server was quiet for a while, or at once when a
  // request waits for them (made when the server listens).
  const settled = { promise: Promise.resolve(), now: () => {}, quiet: () => {} };
  let startChecks = settled;
  let bindSoon = settled;
  // The port is known once listening (before any request is read).
  const hostRule: HostRule = { bound: opts.host, port: 0, allowed: opts.allowedHosts ?? [] };
  const { server } = createHttpServer({ handle });
  const port = await listen(server, opts.host, opts.port);
  hostRule.port = port;
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const url = `http://${shownHost}:${port}`;
  const unannounce = announce(stateRoot, {
    url,
    ...(collector ? { traces: `${url}/_kit/traces` } : {}),
  });

  const manifest = session.routeTable?.manifest;
  opts.out(`kit dev  ready in ${Math.round(performance.now() - started)} ms`);
  opts.out(
    `  ${url}/  ` +
      (manifest ? `${count(manifest.pages.length, 'page')}, ${count(manifest.endpoints.length, 'endpoint')}` : ''),
  );
  if (collector) opts.out(`  traces: ${url}/_kit/traces/viewer`);
  const listeners: ((r: ChangeReport) => void)[] = [];
  const told = new ProblemLog();
  let toldHandler = '';
  let errorsBefore = false;
  /** Prints the problems a change brought (once each) and a line for those it took away. */
  const tell = (r: ChangeReport, fresh: boolean): void => {
    const hadErrors = errorsBefore;
    errorsBefore = r.errors.length > 0;
    const news = told.update(r.problems);
    if (news.fresh.length > 0) opts.err(formatProblems(news.fresh, sourceOf(r), opts.color).replace(/\n$/, ''));
    if (news.gone.length > 0 && !fresh) {
      const what = `${countProblems(news.gone)} in ${filesOf(news.gone)}`;
      if (hadErrors && r.errors.length === 0) opts.out(`  errors fixed: serving the current sources (gone: ${what})`);
      else opts.out(`  fixed: ${what}`);
    }
    const handler = r.handlerProblem?.message ?? '';
    if (handler !== toldHandler) {
      if (handler)
        opts.err(
          'kit dev: a handler module does not compile (the previous version keeps serving):\n' +
            handlerText(r, opts.color).replace(/\n$/, ''),
        );
      else if (!fresh) opts.out('  handler modules compile again');
      toldHandler = handler;
    }
  };
  tell(first, true);

  const apply = async (paths: Set<string>): Promise<void> => {
    let r: ChangeReport;
    try {
      r = await session.apply(paths);
    } catch (e) {
      // Not the user's mistake (those are diagnostics): kit's own. The last version keeps serving.
      opts.err(`kit dev: a change could not be applied (the previous version keeps serving): ${describeThrown(e)}`);
      return;
    }
    served(r);
  };
  /** Serves a change's result; what goes wrong telling of it is said, and the next change still applies. */
  const served = (r: ChangeReport, checked = false): void => {
    try {
      serve(r, checked);
    } catch (e) {
      opts.err(`kit dev: the change is served but could not be reported: ${describeThrown(e)}`);
    }
  };
  const serve = (r: ChangeReport, checked: boolean): void => {
    overlay = overlayFor(r);
    live.setOverlay(overlay);
    const tabs = r.errors.length ? 0 : live.notify(r);
    tell(r, checked);
    if (checked)
      opts.out(
        `  checked in ${Math.round(r.ms)} ms: ` +
          `${r.errors.length ? count(r.errors.length, 'error') : 'no errors'}, ${count(r.warnings, 'warning')}`,
      );
    if (r.files.length > 0) {
      const names = r.files.map((f) => f.slice(f.lastIndexOf('/') + 1));
      const what =
        r.errors.length > 0
          ? `${count(r.errors.length, 'error')}`
          : r.reloadAll
            ? `every open page reloaded`
            : r.css.size > 0 && r.reload.size === 0
              ? `styles updated on ${count(r.css.size, 'page')}`
              : `${count(r.reload.size, 'page')} reloaded`;
      opts.out(
        `  ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''} changed → ` +
          `${what} in ${Math.round(r.ms)} ms${tabs ? ` (${count(tabs, 'tab')})` : ''}`,
      );
    }
    for (const l of listeners) l(r);
  };
  // Batches are served one at a time, whichever watcher saw them, after the start's checks.
  let chain = Promise.resolve();
  const serial = (paths: Set<string>): Promise<void> => {
    startChecks.now();
    bindSoon.now();
    // A batch that fails leaves the chain able to run the next one.
    return (chain = chain
      .then(() => apply(paths))
      .catch((e: unknown) => {
        opts.err(`kit dev: a change could not be applied (the previous version keeps serving): ${describeThrown(e)}`);
      }));
  };
  const watcher = new SourceWatcher(opts.root, serial, (e) => opts.err(`kit dev: watching failed: ${e.message}`));
  // A config module above the served directory (the project root's kit.config.ts) is watched too.
  const extra: FSWatcher[] = [];
  for (const m of session.ws.modulePaths()) {
    const abs = resolve(opts.cwd, m);
    if (abs.startsWith(opts.root + sep)) continue;
    const name = abs.slice(abs.lastIndexOf(sep) + 1);
    extra.push(
      watch(dirname(abs), (_e, f) => {
        if (String(f) === name) void serial(new Set([abs]));
      }),
    );
  }

  // Said once it is true: a save made as soon as the banner shows is seen.
  const rel = relative(opts.cwd, opts.root);
  opts.out(`  watching ${rel.startsWith('..') ? opts.root : rel || '.'} (Ctrl-C to stop)`);
  if (session.checking) {
    startChecks = whenQuiet(CHECK_WHEN_QUIET_MS, CHECK_AT_LATEST_MS);
    bindSoon = whenQuiet(BIND_WHEN_QUIET_MS, BIND_AT_LATEST_MS);
    checks = chain = session.finishStart(startChecks.promise, bindSoon.promise).then(
      (r) => {
        checks = undefined;
        if (r !== undefined) served(r, true);
      },
      (e: unknown) => {
        checks = undefined;
        opts.err(`kit dev: the checks of the sources could not run: ${describeThrown(e)}`);
      },
    );
  }
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      watcher.close();
      for (const w of extra) w.close();
      live.close();
      unannounce();
      await new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      });
      collector?.close?.();
      await session.close();
    })();
    return stopping;
  };
  return { url, port, session, onChange: (l) => listeners.push(l), stop };
}
