// Live route figures for the editor: the per-route aggregates of a running `kit dev` server (or a
// traced app whose collector answers on loopback), read from `<traces>/api/routes`. The address is
// the `kit.trace.collector` setting, else the one `kit dev` announces in `<project>/.kit/dev.json`.
// Requests never wait on the network: they read the cache, which is refreshed in the background at
// most once a second per address with a short timeout; a stale announcement (nothing listening) or
// any other failure just means no figures.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RouteFigures, RoutesReport } from '#shared/trace/index.js';
import { isLoopbackHost } from '#shared/trace/http-origin.js';

export const DEV_ANNOUNCEMENT = join('.kit', 'dev.json');
const REFRESH_MS = 1000;
const TIMEOUT_MS = 500;

/** What the figures came from: the report and the collector mount it was read from. */
export interface LiveReport {
  traces: string;
  report: RoutesReport;
  /** The editor-link template for the viewer ('' for its default). */
  editorLink: string;
}

interface Cached {
  report: RoutesReport | undefined;
  json: string;
  at: number;
  inFlight: boolean;
}

/** The collector mount (`http://127.0.0.1:<port>/_kit/traces`) when `url` is a loopback http(s) URL. */
export function loopbackTraces(url: unknown): string | undefined {
  if (typeof url !== 'string' || url === '') return undefined;
  try {
    const u = new URL(url);
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !isLoopbackHost(u.host)) return undefined;
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

export class LiveFigures {
  /** The client can be asked to re-request CodeLenses (`workspace/codeLens/refresh`). */
  lensRefresh = false;
  /** Called when the figures of some address changed. */
  onChange: () => void = () => {};
  private setting: string | undefined;
  /** The `kit.trace.editorLink` template the viewer should use, handed over in trace links. */
  editorLink = '';
  private readonly cache = new Map<string, Cached>();
  private readonly announced = new Map<string, { traces: string | undefined; at: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Applies the `kit` settings section (`trace.collector`). */
  configure(kit: unknown): void {
    const trace = (kit as { trace?: { collector?: unknown; editorLink?: unknown } } | null | undefined)?.trace;
    this.editorLink = typeof trace?.editorLink === 'string' ? trace.editorLink : '';
    const next = typeof trace?.collector === 'string' && trace.collector !== '' ? trace.collector : undefined;
    if (next === this.setting) return;
    this.setting = next;
    this.onChange();
  }

  /**
   * The figures for a file in `folder` (the workspace folder): from the setting, else from the nearest
   * `.kit/dev.json` between the file's directory and the folder. Undefined until a read succeeded.
   */
  forFile(fsPath: string, folder: string | undefined): LiveReport | undefined {
    const traces = this.setting !== undefined ? loopbackTraces(this.setting) : this.announcedFor(fsPath, folder);
    if (traces === undefined) return undefined;
    const c = this.cache.get(traces);
    if (c === undefined || (!c.inFlight && this.now() - c.at >= REFRESH_MS)) this.refresh(traces, c);
    const report = c?.report;
    return report === undefined ? undefined : { traces, report, editorLink: this.editorLink };
  }

  private announcedFor(fsPath: string, folder: string | undefined): string | undefined {
    let dir = dirname(fsPath);
    for (;;) {
      const traces = this.announcement(dir);
      if (traces !== undefined) return traces;
      const up = dirname(dir);
      if (folder === undefined || dir === folder || up === dir || !dir.startsWith(folder)) return undefined;
      dir = up;
    }
  }

  /** `<dir>/.kit/dev.json`'s `traces`, read at most once a second. */
  private announcement(dir: string): string | undefined {
    const hit = this.announced.get(dir);
    if (hit !== undefined && this.now() - hit.at < REFRESH_MS) return hit.traces;
    let traces: string | undefined;
    try {
      const dev = JSON.parse(readFileSync(join(dir, DEV_ANNOUNCEMENT), 'utf8')) as {
        version?: unknown;
        traces?: unknown;
      };
      if (dev.version === 1) traces = loopbackTraces(dev.traces);
    } catch {
      traces = undefined;
    }
    this.announced.set(dir, { traces, at: this.now() });
    return traces;
  }

  private refresh(traces: string, previous: Cached | undefined): void {
    const entry: Cached = previous ?? { report: undefined, json: '', at: 0, inFlight: false };
    entry.inFlight = true;
    this.cache.set(traces, entry);
    void fetch(`${traces}/api/routes`, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' })
      .then(async (r) => (r.ok ? await r.text() : ''))
      .catch(() => '')
      .then((json) => {
        entry.inFlight = false;
        entry.at = this.now();
        if (json === entry.json) return;
        entry.json = json;
        entry.report = parseReport(json);
        this.onChange();
      });
  }
}

function parseReport(json: string): RoutesReport | undefined {
  if (json === '') return undefined;
  try {
    const r = JSON.parse(json) as RoutesReport;
    return r !== null && r.version === 1 && Array.isArray(r.routes) ? r : undefined;
  } catch {
    return undefined;
  }
}

/** One declaration's figures: every method's row of it, summed. */
export interface DeclFigures {
  count: number;
  errors: number;
  p50Ms: number;
  p95Ms: number;
  lastError?: { message: string; traceId: string; time: string };
}

/** The figures of a page (`kind` page) or an endpoint (its kind, owner and symbol). */
export function figuresOf(report: RoutesReport, kind: string, page: string, symbol: string): DeclFigures | undefined {
  const rows = report.routes.filter(
    (r: RouteFigures) => r.kind === kind && r.page === page && (kind === 'page' || r.symbol === symbol),
  );
  if (rows.length === 0) return undefined;
  const out: DeclFigures = { count: 0, errors: 0, p50Ms: 0, p95Ms: 0 };
  for (const r of rows) {
    out.count += r.count;
    out.errors += r.errors;
    out.p50Ms = Math.max(out.p50Ms, r.p50Ms);
    out.p95Ms = Math.max(out.p95Ms, r.p95Ms);
    const e = r.lastError;
    if (e !== undefined && (out.lastError === undefined || e.time > out.lastError.time))
      out.lastError = { message: e.message, traceId: e.traceId, time: e.time };
  }
  return out;
}

export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

/** `12 req · p95 4 ms · 1 error` */
export function lensTitle(f: DeclFigures): string {
  const errors = f.errors === 1 ? '1 error' : `${f.errors} errors`;
  return `${f.count} req · p95 ${formatMs(f.p95Ms)} · ${errors}`;
}
