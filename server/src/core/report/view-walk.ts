// The children of view markup as the tree and the endpoint graph number them: elements,
// component calls and text runs (adjacent text and interpolations merged, blank runs and comments
// dropped). Child IDs are `<parent id>:<index>` over this list, so both outputs agree.
import type { Attribute, Element, MarkupNode, Range } from '#grammar/index.js';

export type ViewChild =
  | { kind: 'element' | 'component-call'; el: Element }
  | { kind: 'text'; text: string; range: Range };

const TEXT_LIMIT = 48;
const TEXT_CUT = 45;

function shortText(raw: string): string {
  const t = raw.replace(/\s+/g, ' ').trim();
  const cps = [...t];
  return cps.length > TEXT_LIMIT ? cps.slice(0, TEXT_CUT).join('') + '...' : t;
}

export function viewChildren(nodes: MarkupNode[], source: string): ViewChild[] {
  const out: ViewChild[] = [];
  let run: { start: number; end: number; range: Range } | undefined;
  const flush = () => {
    if (!run) return;
    const text = shortText(source.slice(run.start, run.end));
    if (text) out.push({ kind: 'text', text, range: run.range });
    run = undefined;
  };
  for (const n of nodes) {
    if (n.type === 'comment') continue;
    if (n.type === 'text' || n.type === 'interp') {
      if (!run)
        run = {
          start: n.range.start.offset,
          end: n.range.end.offset,
          range: { start: n.range.start, end: n.range.end },
        };
      else {
        run.end = n.range.end.offset;
        run.range = { start: run.range.start, end: n.range.end };
      }
      continue;
    }
    flush();
    out.push({ kind: n.isComponent ? 'component-call' : 'element', el: n });
  }
  flush();
  return out;
}

/** Attribute value as written: the text inside the quotes, `{expr}` for expressions, `true` when bare. */
export function attrValue(a: Attribute, source: string): string | true {
  if (!a.value) return true;
  if (a.value.type === 'string') return source.slice(a.value.innerRange.start.offset, a.value.innerRange.end.offset);
  return source.slice(a.value.range.start.offset, a.value.range.end.offset);
}

export interface SplitAttributes {
  /** Plain attributes (shorthands merged into `class`/`id`). */
  attributes: Record<string, string | true>;
  /** `g:` directives except `g:on:*`. */
  directives: Record<string, string | true>;
  /** Event names of `g:on:<event>[.modifiers]`. */
  events: string[];
}

export function splitAttributes(el: Element, source: string): SplitAttributes {
  const attributes: Record<string, string | true> = {};
  const directives: Record<string, string | true> = {};
  const events: string[] = [];
  for (const a of el.attrs) {
    const v = attrValue(a, source);
    if (a.name.startsWith('g:on:')) events.push(a.name.slice('g:on:'.length));
    else if (a.name.startsWith('g:')) directives[a.name] = v;
    else if (
      a.name in attributes &&
      typeof attributes[a.name] === 'string' &&
      typeof v === 'string' &&
      a.name === 'class'
    )
      attributes[a.name] = `${attributes[a.name]} ${v}`;
    else attributes[a.name] = v;
  }
  return { attributes, directives, events };
}
