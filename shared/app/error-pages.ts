// Error pages of HTML requests: a page's 403, 404 and 500 answers are rendered with the error page
// it was built with (its own `error` document, else its innermost layout's), and a path no page
// answers uses the error page of the page whose route shares the longest literal prefix with it.
// JSON and API requests keep the JSON envelope; other statuses keep the plain text answer. The
// message is the generic one of the status, never a handler's own words.
import type { IncomingMessage } from 'node:http';
import { parseRoutePattern } from '../route/index.js';
import { renderTemplate, type Template } from '../render/index.js';
import type { AppManifest, PageEntry } from './manifest.js';

/** The HTML of an error answer, or undefined to answer plain text. */
export type ErrorPageRenderer = (status: number) => string | undefined;

const MESSAGES: Readonly<Record<number, string>> = {
  403: 'forbidden',
  404: 'page not found',
  500: 'internal server error',
};

export class ErrorPages {
  private readonly byPage = new Map<string, ErrorPageRenderer>();
  /** Pages with an error page by their route's literal prefix, longest first. */
  private readonly prefixes: { prefix: string[]; render: ErrorPageRenderer }[] = [];

  constructor(manifest: AppManifest) {
    const renderers = new Map<string, ErrorPageRenderer>();
    for (const p of manifest.pages) {
      const key = p.errorPage;
      const template = key === undefined ? undefined : manifest.templates[key];
      if (key === undefined || template === undefined) continue;
      let render = renderers.get(key);
      if (render === undefined) renderers.set(key, (render = renderer(template)));
      this.byPage.set(p.pageId, render);
      this.prefixes.push({ prefix: literalPrefix(p.route), render });
    }
    this.prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  forPage(page: PageEntry): ErrorPageRenderer | undefined {
    return this.byPage.get(page.pageId);
  }

  /** For a path no page answers: the closest page's error page. */
  forPath(segments: readonly string[]): ErrorPageRenderer | undefined {
    for (const p of this.prefixes) if (p.prefix.every((s, i) => segments[i] === s)) return p.render;
    return undefined;
  }
}

function renderer(template: Template): ErrorPageRenderer {
  return (status) => {
    const message = MESSAGES[status];
    return message === undefined ? undefined : renderTemplate(template, { status, message });
  };
}

function literalPrefix(route: string): string[] {
  const out: string[] = [];
  for (const s of parseRoutePattern(route).segments) {
    if (s.kind !== 'static') break;
    out.push(s.value);
  }
  return out;
}

/** Whether the request asks for HTML (a browser navigation), so an error may answer with a page. */
export function acceptsHtml(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  if (typeof accept !== 'string') return false;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    if (type !== 'text/html') continue;
    const q = params.find((x) => x.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}
