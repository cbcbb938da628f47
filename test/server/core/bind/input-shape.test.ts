// The syntactic reading of `input: T` must agree with the type checker wherever it answers, and
// leave to the checker every declaration it cannot settle from the syntax alone.
import assert from 'node:assert/strict';
import { BindingProgram } from '#core/bind/program.js';
import { checkedInputShape, syntacticInputShape } from '#core/bind/input-shape.js';
import { typescript, type TS } from '#core/bind/ts.js';
import { Workspace } from '#core/workspace/workspace.js';
import { findBinding } from '#core/bind/types.js';

/** Module text → [the handler's declaration, its second parameter, that parameter's type node]. */
function handler(
  prog: BindingProgram,
  path: string,
  text: string,
): { sf: TS.SourceFile; decl: TS.SignatureDeclaration; param: TS.ParameterDeclaration; type: TS.TypeNode } {
  const ts = typescript();
  prog.set(path, text);
  const sf = prog.sourceFile(path)!;
  let decl: TS.SignatureDeclaration | undefined;
  for (const st of sf.statements) {
    if (ts.isFunctionDeclaration(st) && st.name?.text === 'H') decl = st;
    if (ts.isVariableStatement(st)) {
      const init = st.declarationList.declarations[0]?.initializer;
      if (init && ts.isArrowFunction(init)) decl = init;
    }
  }
  assert.ok(decl, 'handler H found');
  const param = decl.parameters[1];
  assert.ok(param?.type, 'typed second parameter');
  return { sf, decl, param, type: param.type };
}

const ANSWERED: [string, string][] = [
  [
    'interface',
    'interface In { name: string; count: number; ok?: boolean; tags: string[] }\nexport function H(ctx: unknown, input: In) {}',
  ],
  [
    'exported interface, readonly and quoted names',
    "export interface In { readonly 'a b': string; 'c'?: number }\nexport function H(ctx: unknown, input: In) {}",
  ],
  ['optional parameter', 'interface In { q: string }\nexport function H(ctx: unknown, input?: In) {}'],
  ['type literal alias', 'type In = { q: string; n?: number }\nexport function H(ctx: unknown, input: In) {}'],
  ['empty interface', 'interface In {}\nexport function H(ctx: unknown, input: In) {}'],
  ['declared after the handler', 'export function H(ctx: unknown, input: In) {}\ninterface In { q: string }'],
  ['const arrow', 'interface In { q: string }\nexport const H = (ctx: unknown, input: In) => input.q;'],
  [
    'a function of the same name elsewhere in the module is unrelated',
    'interface In { q: string }\nfunction other() {}\nexport function H(ctx: unknown, input: In) {}',
  ],
];

const DECLINED: [string, string][] = [
  ['imported type', "import type { In } from './types.js';\nexport function H(ctx: unknown, input: In) {}"],
  [
    'merged interface',
    'interface In { a: string }\ninterface In { b: string }\nexport function H(ctx: unknown, input: In) {}',
  ],
  [
    'interface and a value of the same name',
    'interface In { a: string }\nconst In = 1;\nexport function H(ctx: unknown, input: In) {}',
  ],
  [
    'heritage',
    'interface Base { a: string }\ninterface In extends Base { b: string }\nexport function H(ctx: unknown, input: In) {}',
  ],
  ['generic interface', 'interface In<T> { a: T }\nexport function H(ctx: unknown, input: In<string>) {}'],
  ['type parameter shadows', 'interface In { a: string }\nexport function H<In>(ctx: unknown, input: In) {}'],
  ['method member', 'interface In { a(): void }\nexport function H(ctx: unknown, input: In) {}'],
  ['index signature', 'interface In { [k: string]: string }\nexport function H(ctx: unknown, input: In) {}'],
  ['union field', 'interface In { a: string | undefined }\nexport function H(ctx: unknown, input: In) {}'],
  ['field of another type', 'interface In { a: Date }\nexport function H(ctx: unknown, input: In) {}'],
  ['untyped field', 'interface In { a }\nexport function H(ctx: unknown, input: In) {}'],
  ['Array<string>', 'interface In { a: Array<string> }\nexport function H(ctx: unknown, input: In) {}'],
  ['union alias', 'type In = { a: string } | { b: string }\nexport function H(ctx: unknown, input: In) {}'],
  [
    'namespace in the module',
    'namespace N {}\ninterface In { a: string }\nexport function H(ctx: unknown, input: In) {}',
  ],
  ['global type', 'export function H(ctx: unknown, input: Missing) {}'],
  ['duplicate field', "interface In { a: string; 'a': string }\nexport function H(ctx: unknown, input: In) {}"],
];

describe('binding: input types read from the syntax', () => {
  it('agrees with the type checker on every declaration it reads', () => {
    const prog = new BindingProgram('/ws');
    const cases = ANSWERED.map(([name, text], i) => ({ name, ...handler(prog, `d${i}/handlers.ts`, text) }));
    for (const c of cases) {
      const text = c.type.getText(c.sf);
      const quick = syntacticInputShape(c.sf, c.decl, c.type, text);
      assert.ok(quick, `${c.name}: answered from the syntax`);
      assert.deepEqual(quick, checkedInputShape(prog, c.param, text), c.name);
    }
  });

  it('leaves every other declaration to the type checker', () => {
    const prog = new BindingProgram('/ws');
    DECLINED.forEach(([name, text], i) => {
      const c = handler(prog, `d${i}/handlers.ts`, text);
      assert.equal(syntacticInputShape(c.sf, c.decl, c.type, c.type.getText(c.sf)), undefined, name);
    });
  });

  it('binds a handler whose input is a local interface without building a ts.Program', () => {
    const w = new Workspace({ ssr: true });
    w.setKitFile(
      'a/a.kit',
      'package a\n\npage a\nroute "/a"\nguard public\n\nact Save POST "/a/save"\n\nview {\n  <main></main>\n}\n',
    );
    w.setModule(
      'a/handlers.ts',
      'export interface In { q: string; n?: number }\nexport function Save(ctx: unknown, input: In) {}\n',
    );
    w.flush();
    const b = findBinding(w.bindingFor('a/a.kit'), 'action', 'Save');
    assert.equal(b?.status, 'bound');
    assert.equal(b?.signature, 'action_input');
    assert.deepEqual(b?.inputFields, [
      { name: 'q', type: 'string', optional: false },
      { name: 'n', type: 'number', optional: true },
    ]);
    assert.equal(w.inspection.binding.programs, 0);
  });
});
