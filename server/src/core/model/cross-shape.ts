// What other files can see of a `.kit` file, in two halves. Its shape (names, kinds, patterns,
// bucket keys: no position) is the workspace's summary firewall: equal shapes mean no cross-file
// bucket needs re-validation. Its visible ranges are the places other files' diagnostics may point
// at, in a fixed order: cross-file diagnostics are kept as indices into that list (anchors) and
// resolved against the current version of the file when read, so an edit that only moves positions
// re-validates nothing.
//
// The shape is taken lazily, after an incremental re-parse may have shifted the old tree's
// positions: it reads names only, and those never change in a reused node.
import type { Element, Range } from '#grammar/index.js';
import type { KitEntry } from './entries.js';
import { slotOutlet, slotUses, slotValueKind, type SlotValueKind } from './slots.js';

const callShapes = new WeakMap<Element, string>();

/**
 * A component call's part of the shape: its name, attributes and the slots its content names with
 * their `let:` names, all fixed for an element object.
 */
function callShape(el: Element): string {
  let shape = callShapes.get(el);
  if (shape === undefined) {
    // Field reads of `let:` names in slot content are checked against the component's slot values.
    const slots = slotUses(el).map(
      (u) => `${u.name}=${u.lets.map((a) => a.name).join('+')}/${u.fieldReads.map((f) => f.path.join('.')).join('+')}`,
    );
    shape = `call ${el.name} ${el.attrs.map((a) => `${a.name}:${a.form}`).join(',')} slots ${slots.join(',')}`;
    callShapes.set(el, shape);
  }
  return shape;
}

function kindShape(k: SlotValueKind): string {
  return k.k === 'prop' ? `prop:${k.prop}` : k.k;
}

const shapes = new WeakMap<KitEntry, string>();

/** The entry's shape, computed on first use. */
export function crossShape(e: KitEntry): string {
  let shape = shapes.get(e);
  if (shape === undefined) {
    const parts: string[] = [];
    walk(e, parts, undefined);
    shape = parts.join('\n');
    shapes.set(e, shape);
  }
  return shape;
}

/**
 * Visible ranges of the files asked about lately (`visibleRanges`), by path: the last two versions
 * asked about each (a file's facts are anchored in the version being replaced and read in the new
 * one, in turns). Keyed by entry alone, every version a file went through stayed until 64 others
 * were asked about, each holding its whole tree: a file re-read from disk 64 times (the language
 * server on a watched file, a generator writing it) kept 64 trees, 1.8 GB for a 10,000-line view.
 */
const recent = new Map<string, { entry: KitEntry; list: (Range | undefined)[] }[]>();
const RECENT = 64;

/**
 * The entry's visible ranges; index n means the same item in any version of the same shape. Kept
 * for the last few files asked about only: anchoring a bucket's facts asks about its few files many
 * times over, and a list per file would be held as long as the file.
 */
export function visibleRanges(e: KitEntry): readonly (Range | undefined)[] {
  const versions = recent.get(e.path);
  if (versions !== undefined) {
    if (versions[0].entry === e) return versions[0].list;
    if (versions[1]?.entry === e) return versions[1].list;
  }
  const list: (Range | undefined)[] = [];
  walk(e, undefined, list);
  if (versions !== undefined) {
    // The newest first; the oldest of three goes.
    versions.unshift({ entry: e, list });
    versions.length = Math.min(versions.length, 2);
  } else {
    if (recent.size >= RECENT) recent.delete(recent.keys().next().value as string);
    recent.set(e.path, [{ entry: e, list }]);
  }
  return list;
}

/**
 * Walks what other files can see, in a fixed order, into `parts` (the position-free facts) and
 * `ranges` (the places; absent ones too, so that the n-th range always means the same item). Either
 * may be left out, and what only it needs is then not computed.
 */
function walk(e: KitEntry, parts: string[] | undefined, ranges: (Range | undefined)[] | undefined): void {
  const s = e.summary;
  const r = (x: Range | undefined) => {
    if (ranges) ranges.push(x);
  };
  if (parts) parts.push(s.kind, s.packageName, s.ownerId, e.keys.join('\u0001'));
  r(e.ast.declarations[0]?.range);
  r(s.pageIdDecl?.range);
  r(s.route?.decl.range);
  r(s.component?.range);
  r(s.props?.range);
  r(s.server?.keyword);
  for (const g of e.registrations) {
    if (parts) parts.push(`${g.kind} ${g.method} ${g.route.pattern} ${g.owner} ${g.contract ?? ''}`);
    r(g.range);
  }
  for (const p of s.props?.props ?? []) {
    if (parts) parts.push(`prop ${p.name.text} ${p.type.text} ${p.default ? 'd' : ''}`);
    r(p.range);
  }
  for (const c of s.componentCalls) {
    if (parts) parts.push(callShape(c.element));
    r(c.range);
    for (const a of c.element.attrs) r(a.nameRange);
    if (ranges)
      for (const u of slotUses(c.element)) {
        r(u.range);
        for (const a of u.lets) r(a.nameRange);
        for (const f of u.fieldReads) r(f.range);
      }
  }
  // Calls of a component check their slot content against its `<slot>` outlets.
  if (s.kind === 'component')
    for (const el of s.slotElements) {
      const o = slotOutlet(el);
      if (parts)
        parts.push(`slot ${o.name} ${o.values.map((a) => `${a.name}=${kindShape(slotValueKind(a))}`).join(',')}`);
      r(el.nameRange);
    }
  for (const l of s.layoutDecl?.layouts ?? []) {
    if (parts) parts.push(`layout ${l.text}`);
    r(l.range);
  }
  // Binding (bucket `bind:<dir>`) reads every handler symbol and contract, registered or not (an
  // invalid page route registers none), and points its diagnostics at them.
  for (const a of s.actions) {
    if (parts) parts.push(`handler act ${a.symbol.text}`);
    r(a.symbol.range);
  }
  for (const a of s.apis) {
    if (parts) parts.push(`handler api ${a.symbol.text}`);
    r(a.symbol.range);
  }
  for (const f of s.fragments) {
    if (parts) parts.push(`handler fragment ${f.name.text}`);
    r(f.name.range);
  }
  for (const c of s.contractRefs) {
    if (parts) parts.push(`contract ${c.kind} ${c.name}`);
    r(c.range);
  }
  // broken_internal_link (buckets `link:<first segment>`) matches each literal link against the routes.
  for (const l of s.links) {
    if (parts) parts.push(`link ${l.method} ${l.href}`);
    r(l.range);
  }
  // unknown_guard (bucket `guard:<id>`, in the keys) points at each guard ID.
  const guards = s.guardDecl?.guards ?? [];
  if (parts) parts.push(`guards ${guards.length}`);
  for (const g of guards) r(g.range);
  if (parts) for (const [alias, u] of s.uses) parts.push(`use ${alias} ${u.pkg.value}`);
  // Binding looks up `Load<PageID>` only for pages with `server {}`, checks its result against the
  // declared fields and points at a missing one.
  const fields = s.server?.fields;
  if (fields) {
    if (parts) parts.push(`server ${fields.map((f) => f.text).join(',')}`);
    for (const f of fields) r(f.range);
  }
}
