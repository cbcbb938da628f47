// Signature classification: does an exported function have one of the call shapes kit can call
// for this kind of target (typescript.md, "User code and binding")? Parameter shapes are read from
// the declaration; the input type of `(ctx, input: T)` is read into its fields by input-shape.ts.
import type { BindingProgram } from './program.js';
import type { ModuleExport } from './exports.js';
import { checkedInputShape, syntacticInputShape, type Shape } from './input-shape.js';
import type { BindTargetKind, InputField, SignatureKind } from './types.js';
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
