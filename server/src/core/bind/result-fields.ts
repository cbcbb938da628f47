// The fields a load declares (`server { => { ... } }`) checked against its result type: a question
// for the type checker, asked once a load is bound.
import type { FieldPath } from '#grammar/index.js';
import type { BindingProgram } from './program.js';
import type { ModuleExport } from './exports.js';
import { typescript, type TS } from './ts.js';

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
