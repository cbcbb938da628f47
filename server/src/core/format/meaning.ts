// What a `.kit` file means, as a comparable string: the AST without positions, with the whitespace
// HTML and CSS collapse collapsed. The formatter compares its input and output with it and refuses
// any output that would mean something else.
import type { Declaration, KitFile, MarkupNode } from '#grammar/index.js';
import { PRESERVE_WHITESPACE } from './block-layout.js';

const POSITION_KEYS = new Set([
  'range',
  'keyword',
  'nameRange',
  'openRange',
  'closeNameRange',
  'bodyRange',
  'cssRange',
  'innerRange',
  'valueOffsets',
]);

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ');
}

function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (!POSITION_KEYS.has(k)) out[k] = strip(x);
  return out;
}

function markup(nodes: MarkupNode[], keep: boolean): unknown[] {
  return nodes.map((n) => {
    if (n.type === 'text') return { type: 'text', value: keep ? n.value : collapse(n.value) };
    if (n.type !== 'element') return strip(n);
    const inner = keep || PRESERVE_WHITESPACE.has(n.name);
    return { ...(strip({ ...n, children: [] }) as object), children: markup(n.children, inner) };
  });
}

/** Whitespace at the very start and end of a body is indentation, never content. */
function trimBody(nodes: MarkupNode[]): MarkupNode[] {
  const out = [...nodes];
  const first = out[0];
  if (first && first.type === 'text') out[0] = { ...first, value: first.value.trimStart() };
  const last = out[out.length - 1];
  if (last && last.type === 'text') out[out.length - 1] = { ...last, value: last.value.trimEnd() };
  return out.filter((n) => n.type !== 'text' || n.value !== '');
}

function declaration(d: Declaration): unknown {
  if (d.kind === 'view' || d.kind === 'fragment')
    return { ...(strip({ ...d, body: [] }) as object), body: markup(trimBody(d.body), false) };
  if (d.kind === 'style') return { kind: 'style', css: collapse(d.css).trim() };
  return strip(d);
}

export function meaningOf(file: KitFile): string {
  return JSON.stringify({
    kind: file.kind,
    declarations: file.declarations.map(declaration),
    comments: file.comments.map((c) => c.text.trimEnd()),
    diagnostics: file.diagnostics.map((d) => d.code),
  });
}
