// Signature classification: does an exported function have one of the call shapes kit can call
// for this kind of target (typescript.md, "User code and binding")? A function can be called when
// it is assignable to one of the handler types of `@kit-lang/kit/app`: a `const` written to such a
// type is called as the type says (kit-types.ts); otherwise the shape is read from the declared
// parameters, where trailing ones may be left out (kit passes them; JavaScript ignores them). The
// input type of `(ctx, input: T)` is read into its fields by input-shape.ts.
import type { BindingProgram } from './program.js';
import type { ModuleExport } from './exports.js';
import {
  acceptsRequest,
  checkedInputShape,
  checkedTypeNodeShape,
  syntacticInputShape,
  type Shape,
} from './input-shape.js';
import { ARGUMENTS_PASSED, KIND_OF_TYPE, kitHandlerType, TYPE_PURPOSE, type NamedKitType } from './kit-types.js';
import type { BindTargetKind, InputField, SignatureKind } from './types.js';
import { typescript, type TS } from './ts.js';

/** The accepted shapes per target, as messages show them: the handler type, then its call shape. */
export const ACCEPTED_SHAPES: Record<BindTargetKind, string> = {
  action:
    'Action (ctx), ActionWithInput<T> (ctx, input: T) with T an object type of string, number, boolean, ' +
    'string[], File or File[] fields, or FormAction (ctx, form: FormValues)',
  api: 'ApiHandler (ctx, request: Request), (ctx) or ()',
  fragment: '(ctx)',
  load: 'Load<Data> (ctx)',
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
  action: { ctx: 'action0', input: 'action_input', form: 'action_form', untyped: 'action_form', opaque: 'action_form' },
  api: { ctx: 'api', request: 'api', untyped: 'api', opaque: 'api' },
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
      return 'it takes only ctx';
    case 'opaque':
      return `it takes an input of type ${shape.type}; declare an object type of the fields it reads`;
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

/** The declared parameters a caller passes arguments to (a `this` parameter is not one). */
function parametersOf(ts: typeof TS, decl: TS.SignatureDeclaration): TS.ParameterDeclaration[] {
  return decl.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'));
}

/** The type a parameter declares: its annotation, or its JSDoc type in JavaScript. */
function parameterType(ts: typeof TS, sf: TS.SourceFile, p: TS.ParameterDeclaration): TS.TypeNode | undefined {
  return p.type ?? (/\.m?js$/.test(sf.fileName) ? ts.getJSDocType(p) : undefined);
}

/** What a type written for the input (a second parameter, or `ActionWithInput`'s argument) is. */
function typeNodeShape(
  prog: BindingProgram,
  sf: TS.SourceFile,
  decl: TS.SignatureDeclaration,
  typeNode: TS.TypeNode,
  param: TS.ParameterDeclaration | undefined,
): Shape {
  const ts = typescript();
  const ref = typeRefName(ts, typeNode);
  if (ref === 'Request') return { kind: 'request' };
  if (ref === 'FormValues') return { kind: 'form' };
  const k = typeNode.kind;
  if (k === ts.SyntaxKind.UnknownKeyword || k === ts.SyntaxKind.AnyKeyword || k === ts.SyntaxKind.JSDocAllType)
    return { kind: 'opaque', type: collapse(typeNode.getText(sf)) };
  const typeText = collapse(typeNode.getText(sf));
  const quick = syntacticInputShape(sf, decl, typeNode, typeText);
  if (quick) return quick;
  return param ? checkedInputShape(prog, param, typeText) : checkedTypeNodeShape(prog, typeNode, typeText);
}

function paramShape(
  prog: BindingProgram,
  sf: TS.SourceFile,
  decl: TS.SignatureDeclaration,
  contextual: boolean,
): Shape {
  const ts = typescript();
  const params = parametersOf(ts, decl);
  const rest = params.find((p) => p.dotDotDotToken);
  if (rest) return { kind: 'bad', why: `it has a rest parameter (${collapse(rest.getText(sf))})` };
  if (params.length > 2) return { kind: 'bad', why: `it takes ${params.length} parameters` };
  if (params.length < 2) return { kind: 'ctx' };
  const p = params[1];
  const typeNode = parameterType(ts, sf, p);
  if (typeNode) return typeNodeShape(prog, sf, decl, typeNode, p);
  return contextual ? checkedInputShape(prog, p, undefined) : { kind: 'untyped' };
}

/** Whether `decl` is a generator, which kit cannot call as a handler. */
function isGenerator(ts: typeof TS, decl: TS.SignatureDeclaration): boolean {
  return (ts.isFunctionDeclaration(decl) || ts.isFunctionExpression(decl)) && decl.asteriskToken !== undefined;
}

function accepted(
  target: BindTargetKind,
  kind: SignatureKind,
  shape: Shape,
  text: string,
  resultType: string | undefined,
): Classification {
  const out: Classification = { ok: true, signature: kind, signatureText: text };
  if (shape.kind === 'input') {
    out.inputType = shape.type;
    out.inputFields = shape.fields;
  } else if (shape.kind === 'form' || shape.kind === 'untyped' || shape.kind === 'opaque') {
    if (target === 'action') out.inputType = 'FormValues';
  }
  if (resultType) out.resultType = resultType;
  return out;
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
  if (isGenerator(ts, decl)) return { ok: false, signatureText: text, problem: 'it is a generator function' };
  let shape = paramShape(prog, sf, decl, contextual);
  // An API handler's request parameter may be declared with any type a Request satisfies.
  if (target === 'api' && (shape.kind === 'input' || shape.kind === 'bad')) {
    const p = parametersOf(ts, decl);
    if (p.length === 2 && !p[1].dotDotDotToken && acceptsRequest(prog, p[1])) shape = { kind: 'request' };
  }
  const kind = SHAPE_TO_KIND[target][shape.kind];
  if (!kind) return { ok: false, signatureText: text, resultType, problem: mismatch(target, shape) };
  return accepted(target, kind, shape, text, resultType);
}

/**
 * A `const` written to a kit handler type: called as the type says. Its parameters may be fewer
 * than the type passes, never more (a strict `tsc` refuses those too).
 */
function classifyTyped(
  prog: BindingProgram,
  sf: TS.SourceFile,
  name: string,
  decl: TS.SignatureDeclaration,
  target: BindTargetKind,
  declared: NamedKitType,
): Classification {
  const ts = typescript();
  const text = signatureText(sf, name, decl);
  const resultType = decl.type ? collapse(decl.type.getText(sf)) : undefined;
  const fail = (problem: string): Classification => ({ ok: false, signatureText: text, resultType, problem });
  if (isGenerator(ts, decl)) return fail('it is a generator function');
  const kind = KIND_OF_TYPE[target][declared.type];
  if (!kind) return fail(`it is declared as ${declared.text}, ${TYPE_PURPOSE[declared.type]}`);
  const named = parametersOf(ts, decl).filter((p) => !p.dotDotDotToken).length;
  const passed = ARGUMENTS_PASSED[declared.type];
  if (named > passed) {
    return fail(`it declares ${named} parameters where ${declared.text} passes ${passed}`);
  }
  if (declared.type !== 'ActionWithInput') {
    return accepted(
      target,
      kind,
      declared.type === 'FormAction' ? { kind: 'form' } : { kind: 'ctx' },
      text,
      resultType,
    );
  }
  if (!declared.input) return fail('ActionWithInput names no input type; write ActionWithInput<T>');
  const shape = typeNodeShape(prog, sf, decl, declared.input, undefined);
  // `ActionWithInput<FormValues>` is a FormAction.
  const inputKind = shape.kind === 'input' ? kind : shape.kind === 'form' ? SHAPE_TO_KIND[target].form : undefined;
  if (!inputKind) return fail(mismatch(target, shape));
  return accepted(target, inputKind, shape, text, resultType);
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
  const declared = kitHandlerType(sf, exp.annotation);
  if (declared && exp.signatures.length === 1)
    return classifyTyped(prog, sf, exp.name, exp.signatures[0], target, declared);
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
