// Whole answers for the request targets whose response is fixed at start-up (public built pages
// and plain files), looked up by the exact raw target before any other per-request work.
import type { ServerResponse } from 'node:http';
import { checkRequestTarget } from '../route/index.js';
import { isPublic } from './guards.js';
import type { AppManifest } from './manifest.js';
import type { PageRuntime } from './routes.js';
import type { StaticEntry } from './static-files.js';

export type PageTarget =
  | { page: PageRuntime; params: Record<string, string>; file: StaticEntry | undefined }
  | { page: undefined; file: StaticEntry };

/**
 * A 200 answer fixed at start-up: one flat header list and the body buffer, both made on first
 * use (bodies stay lazily loaded). An HTML file that turns out to hold a form needs a CSRF token
 * per request: `send` then declines, for good, and the full pipeline answers.
 */
export class PrebuiltAnswer {
  private headers: (string | number)[] | undefined;
  private body: Buffer | undefined;
  private declined = false;

  constructor(
    private readonly file: StaticEntry,
    private readonly cache: string,
    private readonly mayHaveForm: boolean,
    /** The page the file was built for (its route and source name a traced answer's spans). */
    readonly page?: PageRuntime,
  ) {}

  /** False when the file needs a per-request CSRF token: the full pipeline answers instead. */
  usable(): boolean {
    if (this.headers !== undefined) return true;
    if (this.declined) return false;
    if (this.mayHaveForm && this.file.csrfPoints().length > 0) this.declined = true;
    return !this.declined;
  }

  /** Sends the answer (with a `Server-Timing` value when `timing` is not empty); false when not usable. */
  send(res: ServerResponse, head: boolean, timing = ''): boolean {
    let headers = this.headers;
    if (headers === undefined) {
      if (!this.usable()) return false;
      const f = this.file;
      this.body = f.body();
      headers = this.headers = [
        'Content-Type',
        f.type,
        'Content-Length',
        this.body.length,
        'Cache-Control',
        this.cache,
        'X-Content-Type-Options',
        'nosniff',
      ];
    }
    res.writeHead(200, timing === '' ? headers : [...headers, 'Server-Timing', timing]);
    res.end(head ? undefined : this.body);
    return true;
  }
}

/** What the app knows that decides whether a target's answer is fixed. */
export interface PrebuildSite {
  /** Paths the app answers itself (health, traces). */
  reserved(path: string): boolean;
  /** Whether a GET or HEAD endpoint lives at the segments. */
  hasEndpoint(segments: string[]): boolean;
  resolvePage(segments: string[]): PageTarget | undefined;
  pageFile(page: PageRuntime, path: string): StaticEntry | undefined;
}

/**
 * Answers decided by the request target alone, found by the exact raw target before any other
 * work: GET/HEAD of a public built page or a plain file, at a path no endpoint shares (a traced
 * app records the request and the file's stage span around the same answer). Keys are the
 * canonical targets of the built files —
 * checkRequestTarget accepts them unchanged, without a query, percent-escape or trailing slash —
 * so a hit is a target the full pipeline would accept and answer with these very bytes; any other
 * spelling of the path takes the full pipeline. The set is bounded by the build output.
 */
export function prebuildAnswers(
  manifest: AppManifest,
  staticKeys: Iterable<string>,
  site: PrebuildSite,
): Map<string, PrebuiltAnswer> {
  const out = new Map<string, PrebuiltAnswer>();
  const candidates = new Set<string>();
  for (const key of staticKeys) {
    candidates.add('/' + key);
    if (key === 'index.html') candidates.add('/');
    else if (key.endsWith('/index.html')) candidates.add('/' + key.slice(0, -'/index.html'.length));
  }
  for (const p of manifest.pages) for (const requestPath of Object.keys(p.files)) candidates.add(requestPath);
  for (const path of candidates) {
    if (site.reserved(path)) continue;
    const target = checkRequestTarget(path);
    if (!target.ok || target.rawPath !== path || target.path !== path || target.query !== '' || target.trailingSlash)
      continue;
    const segments = target.segments;
    if (site.hasEndpoint(segments)) continue;
    const t = site.resolvePage(segments);
    if (t === undefined) continue;
    if (t.page === undefined) {
      out.set(path, new PrebuiltAnswer(t.file, t.file.cache, false));
      continue;
    }
    // servePage's fast path: a public page with a built file answering this path; a file with
    // a form still needs a per-request CSRF token (PrebuiltAnswer declines it on first use).
    const e = t.page.entry;
    if (e.guards.length === 0 || !isPublic(e.guards)) continue;
    const file = t.file ?? site.pageFile(t.page, path);
    if (file === undefined) continue;
    out.set(path, new PrebuiltAnswer(file, e.cache ?? 'no-cache', file.isHtml, t.page));
  }
  return out;
}
