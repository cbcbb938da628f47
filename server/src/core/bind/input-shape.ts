// The input type of a handler's second parameter (`input: T`), read into its fields: from the
// syntax alone where that settles it (a plain interface or object type of the same module), else
// with the type checker, which is the reference answer. Fields must be form-decodable.
import type { BindingProgram } from './program.js';
import type { InputField, InputFieldType } from './types.js';
import { typescript, type TS } from './ts.js';

/** What a handler's parameters are, as the signature classification reads them. */
export type Shape =
  | { kind: 'ctx' }
  | { kind: 'request' }
  | { kind: 'form' }
  | { kind: 'untyped' }
  /** Declared `unknown` or `any`: any value may be passed. */
  | { kind: 'opaque'; type: string }
  | { kind: 'input'; type: string; fields: InputField[] }
  | { kind: 'bad'; why: string };

/** Uploaded files: a property typed `File` or `Blob` (the WHATWG types, by name). */
const FILE_TYPES = new Set(['File', 'Blob']);

function isFileType(t: TS.Type): boolean {
  const name = t.aliasSymbol?.name ?? t.getSymbol()?.name;
  return name !== undefined && FILE_TYPES.has(name);
}

function fieldType(ts: typeof TS, checker: TS.TypeChecker, t: TS.Type): InputFieldType | undefined {
  if (t.flags & ts.TypeFlags.String) return 'string';
  if (t.flags & ts.TypeFlags.Number) return 'number';
  if (t.flags & ts.TypeFlags.Boolean) return 'boolean';
  if (isFileType(t)) return 'file';
  if (checker.isArrayType(t)) {
    const [el] = checker.getTypeArguments(t as TS.TypeReference);
    if (el && el.flags & ts.TypeFlags.String) return 'string[]';
    if (el && isFileType(el)) return 'file[]';
  }
  return undefined;
}

function isFileRef(ts: typeof TS, node: TS.TypeNode): boolean {
  return (
    ts.isTypeReferenceNode(node) &&
    ts.isIdentifier(node.typeName) &&
    FILE_TYPES.has(node.typeName.text) &&
    !node.typeArguments?.length
  );
}

/** The field type of a property's type node, when the syntax alone settles it. */
function syntacticFieldType(ts: typeof TS, node: TS.TypeNode | undefined): InputFieldType | undefined {
  switch (node?.kind) {
    case ts.SyntaxKind.StringKeyword:
      return 'string';
    case ts.SyntaxKind.NumberKeyword:
      return 'number';
    case ts.SyntaxKind.BooleanKeyword:
      return 'boolean';
    case ts.SyntaxKind.ArrayType: {
      const el = (node as TS.ArrayTypeNode).elementType;
      return el.kind === ts.SyntaxKind.StringKeyword ? 'string[]' : isFileRef(ts, el) ? 'file[]' : undefined;
    }
    default:
      // `File` / `Blob` name the WHATWG types unless the module declares its own (then the checker decides).
      return node !== undefined && isFileRef(ts, node) ? 'file' : undefined;
  }
}

/** Names a top-level statement declares (in any meaning), for the same-name check below. */
function declaredNames(ts: typeof TS, st: TS.Statement): string[] | 'opaque' {
  if (
    ts.isInterfaceDeclaration(st) ||
    ts.isTypeAliasDeclaration(st) ||
    ts.isClassDeclaration(st) ||
    ts.isEnumDeclaration(st) ||
    ts.isFunctionDeclaration(st)
  ) {
    return st.name ? [st.name.text] : [];
  }
  if (ts.isVariableStatement(st)) {
    const out: string[] = [];
    for (const d of st.declarationList.declarations) {
      if (!ts.isIdentifier(d.name)) return 'opaque';
      out.push(d.name.text);
    }
    return out;
  }
  if (ts.isImportDeclaration(st)) {
    const c = st.importClause;
    if (!c) return [];
    const out: string[] = c.name ? [c.name.text] : [];
    const b = c.namedBindings;
    if (b && ts.isNamespaceImport(b)) out.push(b.name.text);
    else if (b) for (const e of b.elements) out.push(e.name.text);
    return out;
  }
  if (ts.isImportEqualsDeclaration(st)) return [st.name.text];
  // Namespaces and ambient modules merge and augment in ways only the checker follows.
  if (ts.isModuleDeclaration(st)) return 'opaque';
  return [];
}

/**
 * The input shape of `input: T` read from the syntax alone, for the common case: `T` names the
 * one top-level `interface T` (or `type T = { ... }`) of the same module, without type parameters,
 * heritage or merging, whose members are plain properties of type string, number, boolean or
 * string[]. Exactly what the type checker answers for such a declaration, without building a
 * Program and binding every module for it. Anything else returns undefined: the checker decides.
 */
export function syntacticInputShape(
  sf: TS.SourceFile,
  decl: TS.SignatureDeclaration,
  typeNode: TS.TypeNode,
  typeText: string,
): Shape | undefined {
  const ts = typescript();
  // JavaScript modules carry their types in JSDoc, which only the checker reads.
  if (/\.m?js$/.test(sf.fileName)) return undefined;
  // Type parameters of the function are in scope in its parameter list and could shadow the name.
  if (decl.typeParameters?.length) return undefined;
  if (!ts.isTypeReferenceNode(typeNode) || !ts.isIdentifier(typeNode.typeName) || typeNode.typeArguments?.length)
    return undefined;
  const name = typeNode.typeName.text;
  let found: TS.InterfaceDeclaration | TS.TypeAliasDeclaration | undefined;
  let ownFileType = false;
  for (const st of sf.statements) {
    const names = declaredNames(ts, st);
    if (names === 'opaque') return undefined;
    if (names.some((n) => FILE_TYPES.has(n))) ownFileType = true;
    if (!names.includes(name)) continue;
    if (found || !(ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st))) return undefined;
    found = st;
  }
  if (!found || found.typeParameters?.length) return undefined;
  let members: TS.NodeArray<TS.TypeElement>;
  if (ts.isInterfaceDeclaration(found)) {
    if (found.heritageClauses?.length) return undefined;
    members = found.members;
  } else {
    if (!ts.isTypeLiteralNode(found.type)) return undefined;
    members = found.type.members;
  }
  const fields: InputField[] = [];
  const seen = new Set<string>();
  for (const m of members) {
    if (!ts.isPropertySignature(m) || !(ts.isIdentifier(m.name) || ts.isStringLiteral(m.name))) return undefined;
    const type = syntacticFieldType(ts, m.type);
    if (!type || seen.has(m.name.text) || (ownFileType && type.startsWith('file'))) return undefined;
    seen.add(m.name.text);
    fields.push({ name: m.name.text, type, optional: m.questionToken !== undefined });
  }
  return { kind: 'input', type: typeText, fields };
}

/** The input shape from the type checker (the reference answer; builds the Program on first use). */
export function checkedInputShape(
  prog: BindingProgram,
  param: TS.ParameterDeclaration,
  typeText: string | undefined,
): Shape {
  const ts = typescript();
  const checker = prog.typeChecker();
  return prog.timed(() =>
    typeShape(ts, checker, checker.getTypeAtLocation(ts.isIdentifier(param.name) ? param.name : param), typeText),
  );
}

/** The input shape of a type written as a type argument (`ActionWithInput<ContactInput>`), from the checker. */
export function checkedTypeNodeShape(prog: BindingProgram, node: TS.TypeNode, typeText: string): Shape {
  const ts = typescript();
  const checker = prog.typeChecker();
  return prog.timed(() => typeShape(ts, checker, checker.getTypeFromTypeNode(node), typeText));
}

/**
 * Whether a WHATWG Request can be passed for `param` (an API handler's second parameter typed
 * `unknown`, `object`, `Body` or any type Request satisfies), asked of the checker.
 */
export function acceptsRequest(prog: BindingProgram, param: TS.ParameterDeclaration): boolean {
  const ts = typescript();
  const checker = prog.typeChecker();
  return prog.timed(() => {
    const declared = checker.getTypeAtLocation(ts.isIdentifier(param.name) ? param.name : param);
    const request = checker.resolveName('Request', undefined, ts.SymbolFlags.Interface, false);
    return request !== undefined && checker.isTypeAssignableTo(checker.getDeclaredTypeOfSymbol(request), declared);
  });
}

/** What a handler's second parameter of type `declared` is. */
function typeShape(ts: typeof TS, checker: TS.TypeChecker, declared: TS.Type, typeText: string | undefined): Shape {
  const t = checker.getNonNullableType(declared);
  const shown = typeText ?? checker.typeToString(t);
  if (t.flags & ts.TypeFlags.Any) {
    return typeText
      ? {
          kind: 'bad',
          why:
            `input type ${shown} cannot be resolved (kit reads types from the directory's modules and their ` +
            `relative imports)`,
        }
      : { kind: 'untyped' };
  }
  if (t.flags & ts.TypeFlags.Unknown) return { kind: 'opaque', type: shown };
  const symbolName = t.aliasSymbol?.name ?? t.getSymbol()?.name;
  if (symbolName === 'Request') return { kind: 'request' };
  if (symbolName === 'FormValues') return { kind: 'form' };
  if (t.flags & ts.TypeFlags.Union)
    return { kind: 'bad', why: `input type ${shown} is a union; declare one object type` };
  const isObject = (t.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) !== 0;
  if (!isObject || checker.isArrayType(t) || checker.isTupleType(t) || t.getCallSignatures().length > 0) {
    return { kind: 'bad', why: `input type ${shown} is not an object type` };
  }
  if (checker.getIndexInfosOfType(t).length > 0) {
    return { kind: 'bad', why: `input type ${shown} has an index signature; input types declare each field` };
  }
  const fields: InputField[] = [];
  for (const prop of checker.getPropertiesOfType(t)) {
    if (prop.flags & ts.SymbolFlags.Method)
      return { kind: 'bad', why: `input type ${shown} declares method ${prop.name}; input fields must be data` };
    const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
    const pt = checker.getNonNullableType(checker.getTypeOfSymbol(prop));
    const ft = fieldType(ts, checker, pt);
    if (!ft) {
      return {
        kind: 'bad',
        why:
          `field "${prop.name}" of ${shown} has type ${checker.typeToString(pt)}; input fields must be ` +
          `string, number, boolean, string[], File or File[] (optional allowed)`,
      };
    }
    fields.push({ name: prop.name, type: ft, optional });
  }
  return { kind: 'input', type: shown, fields };
}
