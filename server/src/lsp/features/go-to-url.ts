// Go to URL: which page or endpoint serves a request path, as the generated app decides it
// (`core/report/url-routing.ts`: the app's router, precedence and trailing-slash rules). A
// workspace-symbol query starting with `/` lists the answers first, with the matched params; the
// `kit/resolveUrl` request gives them to clients as data (the VS Code command "kit: Go to URL…").
import { SymbolKind, type SymbolInformation } from 'vscode-languageserver';
import { answersAt, finalAnswer, type RequestAnswer } from '#core/report/url-routing.js';
import { toRange } from '../convert.js';
import type { ResolvedUrl, ResolveUrlAnswer } from '#shared/protocol/protocol.js';
import type { FeatureContext } from './context.js';
import { answerPlace, paramsText } from './url-links.js';

interface Site {
  ctx: FeatureContext;
  name: string;
}

function resolved(site: Site, a: RequestAnswer): ResolvedUrl {
  const out: ResolvedUrl = {
    method: a.method,
    outcome: a.outcome,
    status: a.status,
    params: a.params,
    folder: site.name,
  };
  const r = a.registration;
  if (r) Object.assign(out, { kind: r.kind, owner: r.owner, route: r.route.pattern });
  const place = answerPlace(a, true);
  if (place) out.location = { uri: site.ctx.uriOf(place.file), range: toRange(place.range) };
  if (a.location !== undefined) out.redirect = a.location;
  const note = a.note ?? (a.near ? `nearest: ${a.near.owner} ("${a.near.route.pattern}")` : undefined);
  if (note !== undefined) out.note = note;
  return out;
}

/**
 * `kit/resolveUrl`: what each site answers at `url` to `method` (else to GET and to every other
 * method something answers with there), past a trailing-slash redirect. Sites that answer come
 * first; a site where nothing answers gives its reason.
 */
export function resolveUrl(sites: Site[], url: string, method?: string): ResolveUrlAnswer {
  const answering: ResolvedUrl[] = [];
  const rest: ResolvedUrl[] = [];
  for (const site of sites) {
    let answers = method ? [finalAnswer(site.ctx.ws, method.toUpperCase(), url)] : answersAt(site.ctx.ws, url);
    const to = answers[0].outcome === 'redirect' ? answers[0].location : undefined;
    // A GET redirected for its trailing slash: the answers at the path it leads to, the GET's marked.
    if (!method && to !== undefined)
      answers = answersAt(site.ctx.ws, to).map((a) => (a.method === 'GET' ? { ...a, location: to } : a));
    for (const a of answers) (a.outcome === 'none' ? rest : answering).push(resolved(site, a));
  }
  return { url, answers: answering.length > 0 ? answering : rest.slice(0, 1) };
}

/**
 * Workspace symbols for a query that is a request path: the page or endpoint each method reaches,
 * named `GET /blog/hello-kit` (what the user typed, so that clients filtering by name keep it),
 * with the matched params and the owner as the container.
 */
export function urlSymbols(sites: Site[], query: string): SymbolInformation[] {
  const out: SymbolInformation[] = [];
  for (const a of resolveUrl(sites, query).answers) {
    if (!a.location || a.outcome !== 'route') continue;
    const params = paramsText(a.params);
    const via = a.redirect !== undefined ? `, after 308 to ${a.redirect}` : '';
    out.push({
      name: `${a.method} ${query}`,
      kind: a.kind === 'page' ? SymbolKind.Key : SymbolKind.Method,
      location: a.location,
      containerName: `${a.owner} · ${a.route}${params ? ` · ${params}` : ''}${via}`,
    });
  }
  return out;
}
