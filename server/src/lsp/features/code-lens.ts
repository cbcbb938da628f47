// Live route figures in the editor: a CodeLens above each route and endpoint declaration of a `.kit`
// file (`12 req · p95 4 ms · 1 error`), and the same figures in hover on those lines, with the last
// error's message and a link to its trace in the viewer. Silent when no server is running.
import type { CodeLens, Position } from 'vscode-languageserver';
import type { Range } from '#grammar/index.js';
import { toRange } from '../convert.js';
import type { FeatureContext } from './context.js';
import { type DeclFigures, figuresOf, formatMs, lensTitle, type LiveReport } from './route-figures.js';

interface Decl {
  range: Range;
  figures: DeclFigures | undefined;
}

/** The route and endpoint declarations of `path` with their figures. */
function declarations(ctx: FeatureContext, path: string, live: LiveReport): Decl[] {
  const model = ctx.reportModel();
  const out: Decl[] = [];
  for (const p of model.pages)
    if (p.file === path) out.push({ range: p.range, figures: figuresOf(live.report, 'page', p.pageId, '') });
  for (const e of model.endpoints)
    if (e.file === path) out.push({ range: e.range, figures: figuresOf(live.report, e.kind, e.pageId, e.symbol) });
  return out;
}

export function codeLenses(ctx: FeatureContext, path: string, live: LiveReport | undefined): CodeLens[] {
  if (live === undefined) return [];
  return declarations(ctx, path, live).map((d) => {
    const range = toRange(d.range);
    const title = d.figures === undefined ? 'no requests yet' : lensTitle(d.figures);
    // An empty command renders the title as text.
    return { range, command: { title, command: '' } };
  });
}

/** Markdown for hover on a declaration's line, or undefined when it has no figures. */
export function figuresHover(
  ctx: FeatureContext,
  path: string,
  position: Position,
  live: LiveReport | undefined,
): string | undefined {
  if (live === undefined) return undefined;
  const d = declarations(ctx, path, live).find((x) => x.range.start.line === position.line);
  if (d === undefined) return undefined;
  const f = d.figures;
  if (f === undefined) return '**Live** — no requests yet';
  const errors = f.errors === 1 ? '1 error' : `${f.errors} errors`;
  const lines = [`**Live** — ${f.count} requests · p50 ${formatMs(f.p50Ms)} · p95 ${formatMs(f.p95Ms)} · ${errors}`];
  if (f.lastError !== undefined) {
    const message = f.lastError.message.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`).slice(0, 300);
    const editor = live.editorLink === '' ? '' : `&editor=${encodeURIComponent(live.editorLink)}`;
    const link = `${live.traces}/viewer/#trace=${f.lastError.traceId}${editor}`;
    lines.push(`Last error: ${message} — [open trace](${link})`);
  }
  return lines.join('\n\n');
}
