// Binding's view of kit's handler types agrees with the types `@kit-lang/kit/app` ships: the
// copies in the binding Program's lib take the same parameters, binding passes each type as many
// arguments as it declares, and an annotation is recognised only when it names kit's type.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ARGUMENTS_PASSED, KIND_OF_TYPE, kitHandlerType, type KitHandlerType } from '#core/bind/kit-types.js';
import { MINI_LIB_TEXT } from '#core/bind/mini-lib.js';
import { repoRoot } from '#test/helpers/repo.js';

interface FunctionTypeShape {
  typeParameters: string[];
  parameters: string[];
}

/** Exported function type aliases of `statements`: type parameters and parameter types as written. */
function functionTypes(sf: ts.SourceFile, statements: readonly ts.Statement[]): Map<string, FunctionTypeShape> {
  const out = new Map<string, FunctionTypeShape>();
  for (const st of statements) {
    if (!ts.isTypeAliasDeclaration(st) || !ts.isFunctionTypeNode(st.type)) continue;
    out.set(st.name.text, {
      typeParameters: (st.typeParameters ?? []).map((p) => p.getText(sf)),
      parameters: st.type.parameters.map((p) => p.type?.getText(sf) ?? '?'),
    });
  }
  return out;
}

function parse(name: string, text: string): ts.SourceFile {
  return ts.createSourceFile(name, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

function shipped(): Map<string, FunctionTypeShape> {
  const out = new Map<string, FunctionTypeShape>();
  for (const file of ['handler-types.ts', 'guards.ts']) {
    const sf = parse(file, readFileSync(join(repoRoot, 'shared', 'app', file), 'utf8'));
    for (const [k, v] of functionTypes(sf, sf.statements)) out.set(k, v);
  }
  return out;
}

function bindingLib(): Map<string, FunctionTypeShape> {
  const sf = parse('lib.d.ts', MINI_LIB_TEXT);
  const mod = sf.statements.find(
    (s): s is ts.ModuleDeclaration => ts.isModuleDeclaration(s) && s.name.getText(sf) === "'@kit-lang/kit/app'",
  );
  assert.ok(mod?.body && ts.isModuleBlock(mod.body), 'the binding lib declares @kit-lang/kit/app');
  return functionTypes(sf, mod.body.statements);
}

const TYPES = Object.keys(ARGUMENTS_PASSED) as KitHandlerType[];

describe('binding: kit handler types', () => {
  it('the binding lib declares each handler type with the parameters the package ships', () => {
    const real = shipped();
    const lib = bindingLib();
    for (const name of TYPES) {
      const r = real.get(name);
      const l = lib.get(name);
      assert.ok(r, `${name} is declared in shared/app`);
      assert.ok(l, `${name} is declared in the binding lib`);
      assert.deepEqual(l.typeParameters, r.typeParameters, `${name}: type parameters`);
      assert.deepEqual(l.parameters, r.parameters, `${name}: parameter types`);
      assert.equal(r.parameters.length, ARGUMENTS_PASSED[name], `${name}: arguments kit passes`);
    }
  });

  it('every type binding knows is exported from @kit-lang/kit/app', () => {
    const index = readFileSync(join(repoRoot, 'shared', 'app', 'index.ts'), 'utf8');
    for (const name of TYPES) assert.match(index, new RegExp(`\\b${name}\\b`), name);
    const used = new Set(Object.values(KIND_OF_TYPE).flatMap((m) => Object.keys(m)));
    for (const name of used) assert.ok(TYPES.includes(name as KitHandlerType), name);
  });

  it('recognises kit types imported by name, renamed, through a namespace or an import type', () => {
    const sf = parse(
      'h.ts',
      [
        "import type { ApiHandler, ActionWithInput as Save, Load } from '@kit-lang/kit/app';",
        "import type * as kit from '@kit-lang/kit/app';",
        "import type { Action } from './elsewhere.js';",
        'interface In { q: string }',
        'type FormAction = (ctx: unknown) => void;',
        'export const A: ApiHandler = async () => new Response();',
        'export const B: Save<In> = async (ctx, input) => input.q;',
        'export const C: kit.FormAction = async () => "";',
        "export const D: import('@kit-lang/kit/app').Load<{ t: string }> = () => ({ t: '' });",
        'export const E: Action = () => "";',
        'export const F: FormAction = () => undefined;',
        'export const G: kit.Other = () => undefined;',
      ].join('\n'),
    );
    const annotation = (name: string) => {
      for (const st of sf.statements) {
        if (!ts.isVariableStatement(st)) continue;
        const d = st.declarationList.declarations[0];
        if (ts.isIdentifier(d.name) && d.name.text === name) return d.type;
      }
      assert.fail(name);
    };
    const found = (name: string) => kitHandlerType(sf, annotation(name));
    assert.equal(found('A')?.type, 'ApiHandler');
    assert.equal(found('B')?.type, 'ActionWithInput');
    assert.equal(found('B')?.input?.getText(sf), 'In');
    assert.equal(found('C')?.type, 'FormAction');
    assert.equal(found('D')?.type, 'Load');
    assert.equal(found('E'), undefined, 'a type of the same name from another module is not kit’s');
    assert.equal(found('F'), undefined, 'nor is a local type of the same name');
    assert.equal(found('G'), undefined, 'nor another name of the package');
  });
});
