// Cross-file composition: component calls and layouts resolve to declarations and props match
// (the cycles they may form are `composition-cycles.ts`'s).
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diag } from '../../diagnostics/registry.js';
import type { KitEntry } from '../../model/entries.js';
import { didYouMean } from '../../diagnostics/suggest.js';
import { componentKey, layoutKey } from '../../resolve/names.js';
import type { ComponentCall } from '../../model/summary.js';
import { slotOutlet, slotUses, slotValueKind, type SlotOutlet, type SlotUse } from '../../model/slots.js';
import { letBinding, typoDistance, type Attribute } from '#grammar/index.js';
import { bucket, idOf, type BucketKey, type CrossContext, type CrossRule, type Family } from './rule.js';

/** The names a package declares in a definition family (`cdef`, `ldef`): keys `<family>:<pkg>.<name>`. */
function namesInPackage(ctx: CrossContext, family: Family, pkg: string): string[] {
  const names: string[] = [];
  for (const k of ctx.keysOf(family)) {
    const id = idOf(k);
    if (id.lastIndexOf('.') === pkg.length && id.startsWith(pkg)) names.push(id.slice(pkg.length + 1));
  }
  return names;
}

/** What a use bucket is about: `cuse:site.Card` and `ccall:site.Card@site/home.kit` → `site.Card`. */
function useTarget(key: string): string {
  const id = idOf(key);
  const at = id.indexOf('@');
  return at < 0 ? id : id.slice(0, at);
}

/** A definition or use bucket's package: `cdef:site.Card` → `site`. */
function packageOfKey(key: string): string {
  const id = useTarget(key);
  return id.slice(0, id.lastIndexOf('.'));
}

/**
 * Every use bucket of `family` in the package of `key`. A definition joining or leaving a package
 * changes the suggestions of every unresolved use there, not only the uses of its own name.
 */
export function usesInPackage(ctx: CrossContext, family: Family, key: string): BucketKey[] {
  const pkg = packageOfKey(key);
  return [...ctx.keysOf(family)].filter((k) => packageOfKey(k) === pkg);
}

/**
 * What a component definition joining or leaving (`cdef:<pkg>.<Name>`) re-evaluates among the calls:
 * the calls of that name, and the unresolved calls of the package whose name is a typo of it (it
 * may become, or stop being, their suggestion). A call that resolves to another definition reads
 * that definition only: a keystroke in a component's name must not re-check every call of the
 * package.
 */
export function callsTouchedByDefinition(ctx: CrossContext, defKey: string): BucketKey[] {
  const target = idOf(defKey);
  const pkg = packageOfKey(defKey);
  const name = target.slice(pkg.length + 1);
  const out: BucketKey[] = [];
  for (const k of ctx.keysOf('ccall')) {
    const t = useTarget(k);
    if (t === target) out.push(k);
    else if (
      packageOfKey(k) === pkg &&
      typoDistance(t.slice(pkg.length + 1), name) !== undefined &&
      ctx.kitMembers(`cdef:${t}`).length === 0
    )
      out.push(k);
  }
  return out;
}

/**
 * Bucket `ccall:<pkg>.<Name>@<file>`: every call of that component in that file resolves, with
 * matching props. A bucket per calling file, so that an edit of one page re-checks its own calls,
 * not those of every page that calls the same component.
 */
export function componentCalls(view: CrossContext, key: string): Diagnostic[] {
  const target = useTarget(key);
  const def = view.kitMembers(`cdef:${target}`).find((e) => e.summary.kind === 'component');
  const out: Diagnostic[] = [];
  for (const e of view.kitMembers(key)) {
    for (const call of e.summary.componentCalls) {
      if (componentKey(e.summary, call) !== target) continue;
      if (!def) {
        const pkg = target.slice(0, target.lastIndexOf('.'));
        out.push(
          diag(
            'unknown_component',
            e.path,
            call.range,
            `${e.summary.ownerId}: unknown component <${call.name}>; no component ${call.localName} is declared ` +
              `in package ${pkg}` +
              didYouMean(call.localName, namesInPackage(view, 'cdef', pkg), (n) => `<${n}>`),
          ),
        );
        continue;
      }
      const props = def.summary.props?.props ?? [];
      const names = new Set(props.map((p) => p.name.text));
      for (const a of call.element.attrs) {
        if (a.name.startsWith('g:') || a.form !== 'normal') continue;
        if (!names.has(a.name))
          out.push(
            diag(
              'unknown_prop',
              e.path,
              a.nameRange,
              `${e.summary.ownerId}: component ${call.localName} declares no prop "${a.name}"` +
                didYouMean(a.name, names),
              {
                related: [
                  {
                    file: def.path,
                    range: def.summary.props?.range ?? def.summary.component?.range ?? call.range,
                    message: `props of ${call.localName} declared here`,
                  },
                ],
              },
            ),
          );
      }
      slotContent(e, call, def, out);
      for (const p of props) {
        if (p.default || call.element.attrs.some((a) => a.name === p.name.text)) continue;
        out.push(
          diag(
            'missing_prop',
            e.path,
            call.range,
            `${e.summary.ownerId}: <${call.name}> needs prop "${p.name.text}" (${p.type.text})`,
            { related: [{ file: def.path, range: p.range, message: `prop ${p.name.text} declared here` }] },
          ),
        );
      }
    }
  }
  return out;
}

/**
 * `slot_value_not_object`: a field read of a `let:` name (`{value.title}`) where every outlet of
 * the slot passes a value with no fields: a scalar prop (`value={caption}`, `caption string`), a
 * text or a bare boolean. Values read from page data are not known here and not checked.
 */
function valueFields(
  e: KitEntry,
  call: ComponentCall,
  def: KitEntry,
  u: SlotUse,
  outlets: readonly SlotOutlet[],
  out: Diagnostic[],
): void {
  const props = new Map((def.summary.props?.props ?? []).map((p) => [p.name.text, p.type.text]));
  const scalar = (a: Attribute): string | undefined => {
    const k = slotValueKind(a);
    if (k.k === 'text') return 'a text';
    if (k.k === 'bool') return 'a boolean';
    if (k.k === 'prop') {
      const type = props.get(k.prop);
      return type === undefined ? undefined : `${type === 'int' ? 'an' : 'a'} ${type} (prop ${k.prop})`;
    }
    return undefined;
  };
  for (const f of u.fieldReads) {
    const values = outlets.flatMap((o) => o.values.filter((a) => a.name === f.name));
    const kinds = values.map(scalar);
    if (values.length === 0 || kinds.some((k) => k === undefined)) continue;
    out.push(
      diag(
        'slot_value_not_object',
        e.path,
        f.range,
        `${e.summary.ownerId}: {${f.path.join('.')}} reads a field of ${f.name}, but ${call.localName} passes ` +
          `${kinds[0]} as ${f.name}: it has no field ${f.path[1]}`,
        { related: [{ file: def.path, range: values[0].nameRange, message: `${f.name} passed here` }] },
      ),
    );
  }
}

/** The slot content of one call against the component's `<slot>` outlets: slot names and `let:` names. */
function slotContent(e: KitEntry, call: ComponentCall, def: KitEntry, out: Diagnostic[]): void {
  const outlets = def.summary.slotElements.map(slotOutlet);
  const owner = e.summary.ownerId;
  for (const u of slotUses(call.element)) {
    const shown = u.name === '' ? 'default slot' : `slot "${u.name}"`;
    const mine = outlets.filter((o) => o.name === u.name);
    if (mine.length === 0) {
      const named = outlets.map((o) => o.name).filter((n) => n !== '');
      const guess = u.name === '' ? '' : didYouMean(u.name, named);
      out.push(
        diag(
          'unknown_slot',
          e.path,
          u.range,
          `${owner}: component ${call.localName} has no ${shown}` +
            (guess || (named.length ? ` (its slots: ${[...new Set(named)].join(', ')})` : '')),
          {
            related: [
              { file: def.path, range: def.summary.component?.range ?? call.range, message: 'component declared here' },
            ],
          },
        ),
      );
      continue;
    }
    const passed = new Set(mine.flatMap((o) => o.values.map((a) => a.name)));
    valueFields(e, call, def, u, mine, out);
    for (const a of u.lets) {
      const name = letBinding(a) ?? '';
      if (passed.has(name)) continue;
      const guess = didYouMean(name, passed, (n) => `let:${n}`);
      out.push(
        diag(
          'unknown_slot_value',
          e.path,
          a.nameRange,
          `${owner}: the ${shown} of ${call.localName} passes no value "${name}"` +
            (guess || (passed.size ? ` (it passes ${[...passed].join(', ')})` : ' (it passes none)')),
          { related: [{ file: def.path, range: mine[0].element.nameRange, message: `${shown} declared here` }] },
        ),
      );
    }
  }
}

/** Bucket `luse:<pkg>.<id>`: every `layout` reference names a layout file. */
export function layoutRefs(view: CrossContext, key: string): Diagnostic[] {
  const target = key.slice('luse:'.length);
  const exists = view.kitMembers(`ldef:${target}`).some((e) => e.summary.kind === 'layout');
  if (exists) return [];
  const out: Diagnostic[] = [];
  const pkg = target.slice(0, target.lastIndexOf('.'));
  const near = didYouMean(target.slice(pkg.length + 1), namesInPackage(view, 'ldef', pkg));
  for (const e of view.kitMembers(key)) {
    for (const w of e.summary.layoutDecl?.layouts ?? []) {
      if (layoutKey(e.summary, w.text) !== target) continue;
      if (e.summary.kind === 'layout' && w.text === e.summary.ownerId) continue; // layout_self_reference
      out.push(
        diag(
          'unknown_layout_id',
          e.path,
          w.range,
          `${e.summary.ownerId}: unknown layout "${w.text}"; no ${w.text}.layout.kit exists in package ${pkg}${near}`,
        ),
      );
    }
  }
  return out;
}

/** The components a file calls, as `<pkg>.<Name>` (once each). */
function calledComponents(e: KitEntry): Set<string> {
  const out = new Set<string>();
  for (const c of e.summary.componentCalls) {
    const k = componentKey(e.summary, c);
    if (k) out.add(k);
  }
  return out;
}

/**
 * Bucket `cuse:<pkg>.<Name>`: the files that call a component. Nothing is checked per bucket (the
 * calls are, per file, in `ccall`); the language server reads it (references, hover).
 */
export const componentUseRule: CrossRule = {
  family: 'cuse',
  kitKeys: (e) => [...calledComponents(e)].map((k) => bucket('cuse', k)),
};

/**
 * `unknown_component`, `unknown_prop`, `missing_prop`, `unknown_slot`, `unknown_slot_value`: the
 * calls of one component in one file, against its declaration.
 */
export const componentCallRule: CrossRule = {
  family: 'ccall',
  kitKeys: (e) => [...calledComponents(e)].map((k) => bucket('ccall', `${k}@${e.path}`)),
  evaluate: componentCalls,
};

/** Layout declarations: no diagnostics of their own; the uses of a layout resolve against them. */
export const layoutDefRule: CrossRule = {
  family: 'ldef',
  kitKeys: (e) =>
    e.summary.kind === 'layout' ? [bucket('ldef', `${e.summary.packageName}.${e.summary.ownerId}`)] : [],
  touches: (key, ctx) => usesInPackage(ctx, 'luse', key),
};

/** `unknown_layout` and friends: the uses of one layout name. */
export const layoutUseRule: CrossRule = {
  family: 'luse',
  kitKeys: (e) => {
    const keys: BucketKey[] = [];
    for (const l of e.summary.layouts) {
      const k = layoutKey(e.summary, l);
      if (k) keys.push(bucket('luse', k));
    }
    return keys;
  },
  evaluate: layoutRefs,
};
