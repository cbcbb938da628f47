// Signature classification: does an exported function have one of the call shapes kit can call
// for this kind of target (typescript.md, "User code and binding")? Parameter shapes are read from
// the declaration; object input types are resolved with the type checker into their fields.
import type { FieldPath } from '../../../../grammar/src/ast.js';
import type { BindingProgram } from './program.js';
import type { ModuleExport } from './exports.js';
import type { BindTargetKind, InputField, InputFieldType, SignatureKind } from './types.js';
import { typescript, type TS } from './ts.js';

/** The accepted shapes per target, as messages show them. */
export const ACCEPTED_SHAPES: Record<BindTargetKind, string> = {
  action:
    '(ctx), (ctx, input: T) with T an object type of string, number, boolean, string[], File or File[] fields, ' +
    'or (ctx, form: FormValues)',
  api: '(ctx, request: Request)',
  fragment: '(ctx)',
  load: '(ctx)',
  command: '(ctx) or (ctx, input: T) with T an object type of string, number, boolean or string[] fields',
  query: '(ctx) or (ctx, input: T) with T an object type of string, number, boolean or string[] fields',
};

export interface Classification {
  ok: boolean;
  signature?: SignatureKind;
  signatureText: string;
  inputType?: string;
  inputFields?: InputField[];
  resultType?: string;
  /** Why the signature is not accepted (without the list of accepted shapes). */
  problem?: string;
}

export type Shape =
  | { kind: 'ctx' }
  | { kind: 'request' }
  | { kind: 'form' }
  | { kind: 'untyped' }
  | { kind: 'input'; type: string; fields: InputField[] }
  | { kind: 'bad'; why: string };

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function signatureText(sf: TS.SourceFile, name: string, decl: TS.SignatureDeclaration): string {
  const ts = typescript();
  const typeParams = decl.typeParameters?.length
    ? `<${decl.typeParameters.map((t) => collapse(t.getText(sf))).join(', ')}>`
    : '';
  const params = decl.parameters.map((p) => collapse(p.getText(sf))).join(', ');
  const ret = decl.type ? `: ${collapse(decl.type.getText(sf))}` : '';
  const star = ts.isFunctionLike(decl) && 'asteriskToken' in decl && decl.asteriskToken ? '*' : '';
  return `${star}${name}${typeParams}(${params})${ret}`;
}

/** Rightmost name of a type reference (`Request`, `kit.FormValues` → `FormValues`). */
function typeRefName(ts: typeof TS, node: TS.TypeNode | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isTypeReferenceNode(node))
    return ts.isIdentifier(node.typeName) ? node.typeName.text : node.typeName.right.text;
  return undefined;
}

const SHAPE_TO_KIND: Record<BindTargetKind, Partial<Record<Shape['kind'], SignatureKind>>> = {
  action: { ctx: 'action0', input: 'action_input', form: 'action_form', untyped: 'action_form' },
  api: { request: 'api', untyped: 'api' },
  fragment: { ctx: 'fragment' },
  load: { ctx: 'load' },
  command: { ctx: 'command0', input: 'command_input' },
  query: { ctx: 'query0', input: 'query_input' },
};

function mismatch(target: BindTargetKind, shape: Shape): string {
  switch (shape.kind) {
    case 'bad':
      return shape.why;
    case 'ctx':
      return target === 'api' ? 'an API handler takes the request as its second parameter' : 'it takes only ctx';
    case 'request':
      return target === 'action'
        ? 'actions receive the decoded form, not the raw Request (APIs take (ctx, request: Request))'
        : 'it takes a Request, which only API handlers receive';
    case 'form':
      return 'it takes FormValues, which only actions receive';
    case 'untyped':
      return 'its second parameter has no type; declare it';
    case 'input':
      return target === 'api'
        ? `it takes an input of type ${shape.type}; API handlers take the raw request`
        : `it takes a second parameter (${shape.type})`;
  }
}

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
  return prog.timed((): Shape => {
    const declared = checker.getTypeAtLocation(ts.isIdentifier(param.name) ? param.name : param);
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
  });
}

function paramShape(
  prog: BindingProgram,
  sf: TS.SourceFile,
  decl: TS.SignatureDeclaration,
  contextual: boolean,
): Shape {
  const ts = typescript();
  const params = decl.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'));
  const rest = params.find((p) => p.dotDotDotToken);
  if (rest) return { kind: 'bad', why: `it has a rest parameter (${collapse(rest.getText(sf))})` };
  if (params.length > 2) return { kind: 'bad', why: `it takes ${params.length} parameters` };
  if (params.length < 2) return { kind: 'ctx' };
  const p = params[1];
  const isJs = /\.m?js$/.test(sf.fileName);
  const typeNode = p.type ?? (isJs ? ts.getJSDocType(p) : undefined);
  const ref = typeRefName(ts, typeNode);
  if (ref === 'Request') return { kind: 'request' };
  if (ref === 'FormValues') return { kind: 'form' };
  if (!typeNode && !contextual) return { kind: 'untyped' };
  const typeText = typeNode ? collapse(typeNode.getText(sf)) : undefined;
  if (typeNode && typeText !== undefined && !isJs) {
    const quick = syntacticInputShape(sf, decl, typeNode, typeText);
    if (quick) return quick;
  }
  return checkedInputShape(prog, p, typeText);
}

function classifyOne(
  prog: BindingProgram,
  sf: TS.SourceFile,
  name: string,
  decl: TS.SignatureDeclaration,
  target: BindTargetKind,
  contextual: boolean,
): Classification {
  const ts = typescript();
  const text = signatureText(sf, name, decl);
  const resultType = decl.type ? collapse(decl.type.getText(sf)) : undefined;
  if ((ts.isFunctionDeclaration(decl) || ts.isFunctionExpression(decl)) && decl.asteriskToken) {
    return { ok: false, signatureText: text, problem: 'it is a generator function' };
  }
  const shape = paramShape(prog, sf, decl, contextual);
  const kind = SHAPE_TO_KIND[target][shape.kind];
  if (!kind) return { ok: false, signatureText: text, resultType, problem: mismatch(target, shape) };
  const out: Classification = { ok: true, signature: kind, signatureText: text };
  if (shape.kind === 'input') {
    out.inputType = shape.type;
    out.inputFields = shape.fields;
  } else if (shape.kind === 'form' || shape.kind === 'untyped') {
    if (target === 'action') out.inputType = 'FormValues';
  }
  if (resultType) out.resultType = resultType;
  return out;
}

/**
 * Classifies an exported function for a target. Overload sets: callers only see the overload
 * signatures, so exactly one of them must have an accepted shape (kit decodes into one input type).
 */
export function classifyExport(
  prog: BindingProgram,
  sf: TS.SourceFile,
  exp: ModuleExport,
  target: BindTargetKind,
): Classification {
  // A `const X: Handler = (ctx, input) => ...` takes its parameter types from the annotation.
  const contextual = exp.variable !== undefined;
  if (exp.signatures.length === 1) return classifyOne(prog, sf, exp.name, exp.signatures[0], target, contextual);
  const all = exp.signatures.map((d) => classifyOne(prog, sf, exp.name, d, target, contextual));
  const ok = all.filter((c) => c.ok);
  if (ok.length === 1) return ok[0];
  const texts = all.map((c) => c.signatureText).join('; ');
  if (ok.length === 0) {
    return {
      ok: false,
      signatureText: texts,
      problem: `none of its ${all.length} overloads has an accepted shape (${all.map((c) => c.problem).join('; ')})`,
    };
  }
  return {
    ok: false,
    signatureText: texts,
    problem:
      `${ok.length} of its overloads have accepted shapes (${ok.map((c) => c.signatureText).join('; ')}); ` +
      `kit calls one shape, so keep exactly one`,
  };
}

/**
 * The declared fields (`server { => { a, b.c } }`) that the result type of a load lacks, read with
 * the type checker: the awaited return type of its signature, property by property. A result kit
 * cannot see into (`any`, `unknown`, an index signature) lacks nothing.
 */
export function missingResultFields(
  prog: BindingProgram,
  exp: ModuleExport,
  fields: readonly FieldPath[],
): FieldPath[] {
  const decl = exp.signatures[0];
  if (!decl || fields.length === 0) return [];
  const ts = typescript();
  const checker = prog.typeChecker();
  const sig = checker.getSignatureFromDeclaration(decl);
  if (!sig) return [];
  const result = checker.getAwaitedType(checker.getReturnTypeOfSignature(sig));
  const opaque = (t: TS.Type) =>
    (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0 || checker.getIndexInfosOfType(t).length > 0;
  if (!result || opaque(result)) return [];
  const missing: FieldPath[] = [];
  for (const field of fields) {
    let t: TS.Type = result;
    for (const name of field.path) {
      if (opaque(t)) break;
      const prop = checker.getPropertyOfType(checker.getNonNullableType(t), name);
      if (!prop) {
        missing.push(field);
        break;
      }
      t = checker.getNonNullableType(checker.getTypeOfSymbol(prop));
    }
  }
  return missing;
}
