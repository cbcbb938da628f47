// What other files can see of a `.kit` file, for the workspace's summary firewall: its shape (names,
// kinds, patterns, bucket keys) and the ranges other files' diagnostics may point at. Equal shapes
// mean no bucket needs re-validation; if only ranges moved (an edit above them), only the buckets
// whose diagnostics mention the file are re-validated.
//
// An edit in a long view changes neither, yet the fingerprint is taken on every edit; so the ranges
// are a flat list of numbers (no string per range), and the shape of a component call, which only
// depends on its element, is remembered per element (the incremental parser reuses the element
// objects an edit did not touch; only their positions move, and those are in the ranges).
import type { Element, Range } from '../../../../grammar/src/ast.js';
import { Span } from '../../../../grammar/src/index.js';
import type { KitEntry } from './entries.js';

export class CrossFingerprint {
  constructor(
    readonly shape: string,
    /** Every range as six numbers (offset, line, column of start and end), -1 for an absent one. */
    readonly ranges: readonly number[],
  ) {}

  sameShape(other: CrossFingerprint): boolean {
    return this.shape === other.shape;
  }

  equals(other: CrossFingerprint): boolean {
    if (this.shape !== other.shape) return false;
    const a = this.ranges;
    const b = other.ranges;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
}

const callShapes = new WeakMap<Element, string>();

/** A component call's part of the shape: its name and attributes, both fixed for an element object. */
function callShape(el: Element): string {
  let shape = callShapes.get(el);
  if (shape === undefined) {
    shape = `call ${el.name} ${el.attrs.map((a) => `${a.name}:${a.form}`).join(',')}`;
    callShapes.set(el, shape);
  }
  return shape;
}

export function crossFingerprint(e: KitEntry): CrossFingerprint {
  const s = e.summary;
  const ranges: number[] = [];
  // Offsets alone miss an edit of the same length that adds or removes a line break before a range:
  // other files' diagnostics point at lines and columns, so those are part of the key.
  const r = (x: Range | undefined): void => {
    if (!x) ranges.push(-1);
    else if (x instanceof Span) ranges.push(x.so, x.sl, x.sc, x.eo, x.el, x.ec);
    else ranges.push(x.start.offset, x.start.line, x.start.column, x.end.offset, x.end.line, x.end.column);
  };
  const parts: string[] = [s.kind, s.packageName, s.ownerId, e.keys.join('\u0001')];
  r(e.ast.declarations[0]?.range);
  r(s.pageIdDecl?.range);
  r(s.route?.decl.range);
  r(s.component?.range);
  r(s.props?.range);
  r(s.server?.keyword);
  for (const g of e.registrations) {
    parts.push(`${g.kind} ${g.method} ${g.route.pattern} ${g.owner} ${g.contract ?? ''}`);
    r(g.range);
  }
  for (const p of s.props?.props ?? []) {
    parts.push(`prop ${p.name.text} ${p.type.text} ${p.default ? 'd' : ''}`);
    r(p.range);
  }
  for (const c of s.componentCalls) {
    parts.push(callShape(c.element));
    r(c.range);
    for (const a of c.element.attrs) r(a.nameRange);
  }
  for (const l of s.layoutDecl?.layouts ?? []) {
    parts.push(`layout ${l.text}`);
    r(l.range);
  }
  // Binding (bucket `bind:<dir>`) reads every handler symbol and contract, registered or not (an
  // invalid page route registers none), and points its diagnostics at them.
  for (const a of s.actions) {
    parts.push(`handler act ${a.symbol.text}`);
    r(a.symbol.range);
  }
  for (const a of s.apis) {
    parts.push(`handler api ${a.symbol.text}`);
    r(a.symbol.range);
  }
  for (const f of s.fragments) {
    parts.push(`handler fragment ${f.name.text}`);
    r(f.name.range);
  }
  for (const c of s.contractRefs) {
    parts.push(`contract ${c.kind} ${c.name}`);
    r(c.range);
  }
  // unknown_guard (bucket `guard:<id>`, in the keys) points at each guard ID.
  const guards = s.guardDecl?.guards ?? [];
  parts.push(`guards ${guards.length}`);
  for (const g of guards) r(g.range);
  for (const [alias, u] of s.uses) parts.push(`use ${alias} ${u.pkg.value}`);
  // Binding looks up `Load<PageID>` only for pages with `server {}`.
  if (s.server) parts.push('server');
  return new CrossFingerprint(parts.join('\n'), ranges);
}
