// Signature help for component props: inside the opening tag of a component call, past its name,
// the props the component declares (name, type, default) as the parameters of a signature, with
// the prop being typed (or the first required one not given yet) active. The component is found
// the way validation finds it (`componentKey`, the `cdef:` bucket), so an alias `ui.Button` works.
import { MarkupKind, type ParameterInformation, type Position, type SignatureHelp } from 'vscode-languageserver';
import type { Attribute, Element, PropDecl } from '#grammar/index.js';
import { componentKey } from '#core/resolve/names.js';
import { contains, offsetOf } from '../convert.js';
import type { FeatureContext } from './context.js';
import { inAttributes, markupPathAt } from './markup-path.js';

export interface SignatureOptions {
  /** The client shows "no parameter active" for `activeParameter: null` (LSP 3.18); else it is left out. */
  noActiveParameter: boolean;
}

function defaultText(p: PropDecl): string {
  const v = p.default?.value;
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** Is `a` a prop of the call (not a directive, a `let:` binding or a class or id shorthand)? */
function isPropAttribute(a: Attribute): boolean {
  return a.form === 'normal' && !a.name.startsWith('g:');
}

/** The index of the prop the cursor is on or typing, else of the first one still to give. */
function activeProp(el: Element, props: readonly PropDecl[], offset: number): number | undefined {
  const given = new Set(el.attrs.filter(isPropAttribute).map((a) => a.name));
  const at = el.attrs.find((a) => contains(a.range, offset));
  if (at) {
    if (!isPropAttribute(at)) return undefined;
    const exact = props.findIndex((p) => p.name.text === at.name);
    if (exact >= 0) return exact;
    // A name being typed: the first prop it begins, among those not given yet.
    if (at.value || !contains(at.nameRange, offset)) return undefined;
    const typed = at.name.slice(0, offset - at.nameRange.start.offset);
    const i = props.findIndex((p) => p.name.text.startsWith(typed) && !given.has(p.name.text));
    return i >= 0 ? i : undefined;
  }
  const required = props.findIndex((p) => !p.default && !given.has(p.name.text));
  if (required >= 0) return required;
  const optional = props.findIndex((p) => !given.has(p.name.text));
  return optional >= 0 ? optional : undefined;
}

export function signatureHelp(
  ctx: FeatureContext,
  path: string,
  position: Position,
  opts: SignatureOptions,
): SignatureHelp | null {
  const entry = ctx.ws.kit(path);
  if (!entry) return null;
  const offset = offsetOf(entry.ast, position);
  const el = markupPathAt(entry, offset)?.elements.at(-1);
  if (!el?.isComponent || !inAttributes(entry.text, el, offset)) return null;
  const key = componentKey(entry.summary, el);
  const def = key ? ctx.ws.kitMembers(`cdef:${key}`).find((e) => e.summary.kind === 'component') : undefined;
  if (!def) return null;
  const props = def.summary.props?.props ?? [];
  let label = `<${el.name}`;
  const parameters: ParameterInformation[] = [];
  props.forEach((p, i) => {
    label += i === 0 ? ' ' : ', ';
    const start = label.length;
    label += p.default ? `${p.name.text}?: ${p.type.text} = ${defaultText(p)}` : `${p.name.text}: ${p.type.text}`;
    parameters.push({
      label: [start, label.length],
      documentation: p.default ? `optional, default ${defaultText(p)}` : 'required',
    });
  });
  label += '>';
  const active = activeProp(el, props, offset);
  const required = props.filter((p) => !p.default).map((p) => `\`${p.name.text}\``);
  const documentation =
    `Props of component **${def.summary.ownerId}** (\`${def.path}\`)` +
    (props.length === 0 ? ': none.' : required.length ? `; required: ${required.join(', ')}.` : '; all optional.');
  return {
    signatures: [
      {
        label,
        documentation: { kind: MarkupKind.Markdown, value: documentation },
        parameters,
        ...(active !== undefined
          ? { activeParameter: active }
          : opts.noActiveParameter
            ? { activeParameter: null }
            : {}),
      },
    ],
    activeSignature: 0,
    ...(active !== undefined ? { activeParameter: active } : opts.noActiveParameter ? { activeParameter: null } : {}),
  };
}
