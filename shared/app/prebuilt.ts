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
 * use (bodies stay lazily loaded). The file of a page whose template has a form that posts to this
 * origin needs a CSRF token per request: `send` then declines, for good, and the full pipeline
 * answers.
 */
export class PrebuiltAnswer {
  private headers: (string | number)[] | undefined;
  private body: Buffer | undefined;
  private declined = false;

  constructor(
    private readonly file: StaticEntry,
    private readonly cache: string,
    /** The page the file was built for (its route and source name a traced answer's spans). */
    readonly page?: PageRuntime,
  ) {}

  /** False when the file needs a per-request CSRF token: the full pipeline answers instead. */
  usable(): boolean {
    if (this.headers !== undefined) return true;
    if (this.declined) return false;
    if (this.page?.tokenForms) this.declined = true;
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
 * spelling of the path takes the full pipeline. The candidates are bounded by the build output;
 * each is decided when first asked for (a thousand pages cost the app's start nothing), and the
 * decision kept.
 */
export class PrebuiltAnswers {
  private readonly candidates = new Set<string>();
  /** Decided candidates: the answer, or null when the full pipeline answers. */
  private readonly decided = new Map<string, PrebuiltAnswer | null>();

  constructor(
    manifest: AppManifest,
    staticKeys: Iterable<string>,
    private readonly site: PrebuildSite,
  ) {
    for (const key of staticKeys) {
      this.candidates.add('/' + key);
      if (key === 'index.html') this.candidates.add('/');
      else if (key.endsWith('/index.html')) this.candidates.add('/' + key.slice(0, -'/index.html'.length));
    }
    for (const p of manifest.pages) for (const requestPath of Object.keys(p.files)) this.candidates.add(requestPath);
  }

  /** The fixed answer for a raw request target, if it has one. */
  get(target: string): PrebuiltAnswer | undefined {
    let answer = this.decided.get(target);
    if (answer === undefined) {
      if (!this.candidates.has(target)) return undefined;
      answer = this.decide(target);
      this.decided.set(target, answer);
    }
    return answer ?? undefined;
  }

  private decide(path: string): PrebuiltAnswer | null {
    const site = this.site;
    if (site.reserved(path)) return null;
    const target = checkRequestTarget(path);
    if (!target.ok || target.rawPath !== path || target.path !== path || target.query !== '' || target.trailingSlash)
      return null;
    const segments = target.segments;
    if (site.hasEndpoint(segments)) return null;
    const t = site.resolvePage(segments);
    if (t === undefined) return null;
    if (t.page === undefined) return new PrebuiltAnswer(t.file, t.file.cache);
    // servePage's fast path: a public page with a built file answering this path; the file of a
    // page with a form still needs a per-request CSRF token (PrebuiltAnswer declines it on first use).
    const e = t.page.entry;
    if (e.guards.length === 0 || !isPublic(e.guards)) return null;
    const file = t.file ?? site.pageFile(t.page, path);
    if (file === undefined) return null;
    return new PrebuiltAnswer(file, e.cache ?? 'no-cache', t.page);
  }
}
