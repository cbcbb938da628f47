// The handler types of `@kit-lang/kit/app` (shared/app/handler-types.ts) as binding reads them: a
// `const` written to one (`export const X: ApiHandler = ...`, `... satisfies FormAction`, or a
// JSDoc `@type` in JavaScript) is called the way that type says, whatever parameters the function
// itself declares (JavaScript ignores the arguments a function does not name). Recognised from the
// syntax alone, so a typed const binds without building a type checker: the name must be imported
// from the package (named, renamed, through a namespace import, or as an `import('...')` type).
import type { BindTargetKind, SignatureKind } from './types.js';
import { typescript, type TS } from './ts.js';

/** The package subpath the handler types come from. */
export const KIT_APP_MODULE = '@kit-lang/kit/app';

export type KitHandlerType = 'Action' | 'ActionWithInput' | 'FormAction' | 'ApiHandler' | 'Load' | 'Guard';

/** How many arguments kit passes a function of each type: the context, then the input, form or request. */
export const ARGUMENTS_PASSED: Readonly<Record<KitHandlerType, number>> = {
  Action: 1,
  ActionWithInput: 2,
  FormAction: 2,
  ApiHandler: 2,
  Load: 1,
  Guard: 1,
};

/**
 * The signature kind each type binds as, per target. Targets without a type of their own
 * (fragment hooks, commands, queries) take the action types of the same call shape.
 */
export const KIND_OF_TYPE: Readonly<Record<BindTargetKind, Partial<Record<KitHandlerType, SignatureKind>>>> = {
  action: { Action: 'action0', ActionWithInput: 'action_input', FormAction: 'action_form' },
  api: { ApiHandler: 'api' },
  fragment: { Action: 'fragment' },
  load: { Load: 'load' },
  command: { Action: 'command0', ActionWithInput: 'command_input' },
  query: { Action: 'query0', ActionWithInput: 'query_input' },
};

/** What each type is for, as a mismatch message names it. */
export const TYPE_PURPOSE: Readonly<Record<KitHandlerType, string>> = {
  Action: "an action's type",
  ActionWithInput: "an action's type",
  FormAction: "an action's type",
  ApiHandler: "an API handler's type",
  Load: "a page load's type",
  Guard: "a guard's type (guards are registered in kit.config, not bound by name)",
};

export interface NamedKitType {
  type: KitHandlerType;
  /** The annotation as written (`ActionWithInput<ContactInput>`). */
  text: string;
  /** `ActionWithInput`'s type argument: the input type. */
  input?: TS.TypeNode;
}

const TYPES = new Set<string>(Object.keys(ARGUMENTS_PASSED));

interface KitImports {
  /** Local name → the kit type it imports (`import { ApiHandler as Api }` → Api → ApiHandler). */
  named: Map<string, KitHandlerType>;
  /** Local names of `import * as kit from '@kit-lang/kit/app'`. */
  namespaces: Set<string>;
}

const importsOf = new WeakMap<TS.SourceFile, KitImports>();

function kitImports(ts: typeof TS, sf: TS.SourceFile): KitImports {
  let out = importsOf.get(sf);
  if (out) return out;
  out = { named: new Map(), namespaces: new Set() };
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    if (st.moduleSpecifier.text !== KIT_APP_MODULE) continue;
    const b = st.importClause?.namedBindings;
    if (b && ts.isNamespaceImport(b)) out.namespaces.add(b.name.text);
    else if (b) {
      for (const el of b.elements) {
        const imported = (el.propertyName ?? el.name).text;
        if (TYPES.has(imported)) out.named.set(el.name.text, imported as KitHandlerType);
      }
    }
  }
  importsOf.set(sf, out);
  return out;
}

function named(type: KitHandlerType, text: string, args: TS.NodeArray<TS.TypeNode> | undefined): NamedKitType {
  const out: NamedKitType = { type, text };
  if (type === 'ActionWithInput' && args?.length) out.input = args[0];
  return out;
}

/** The kit handler type `node` names in module `sf`, if it names one. */
export function kitHandlerType(sf: TS.SourceFile, node: TS.TypeNode | undefined): NamedKitType | undefined {
  if (!node) return undefined;
  const ts = typescript();
  const text = () => node.getText(sf).replace(/\s+/g, ' ').trim();
  // `import('@kit-lang/kit/app').ApiHandler`, as JSDoc and declaration files write it.
  if (ts.isImportTypeNode(node)) {
    const arg = node.argument;
    const spec = ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal) ? arg.literal.text : undefined;
    const q = node.qualifier;
    if (spec !== KIT_APP_MODULE || !q || !ts.isIdentifier(q) || !TYPES.has(q.text)) return undefined;
    return named(q.text as KitHandlerType, text(), node.typeArguments);
  }
  if (!ts.isTypeReferenceNode(node)) return undefined;
  const imports = kitImports(ts, sf);
  const n = node.typeName;
  if (ts.isIdentifier(n)) {
    const type = imports.named.get(n.text);
    return type ? named(type, text(), node.typeArguments) : undefined;
  }
  if (ts.isIdentifier(n.left) && imports.namespaces.has(n.left.text) && TYPES.has(n.right.text))
    return named(n.right.text as KitHandlerType, text(), node.typeArguments);
  return undefined;
}
