// Handler binding over real TypeScript/JavaScript modules: each accepted shape, refused shapes,
// re-exports, default exports, overloads, `export const` arrows, ambiguity, loads, fragments,
// comment endpoints, strict bindings, and incremental re-binding per directory.
import assert from 'node:assert/strict';
import { loadProject } from '#core/project/load.js';
import { Workspace } from '#core/workspace/workspace.js';
import { importPathFrom } from '#core/bind/binder.js';
import { findBinding, type BindTargetKind, type HandlerBinding } from '#core/bind/types.js';
import type { Diagnostic } from '#core/diagnostics/diagnostic.js';
import { fixture } from '#test/helpers/repo.js';

const root = fixture('bind');
const project = loadProject(['.'], { ssr: true }, root);
const ws = project.workspace;
const PAGE = 'signatures/page.kit';

function b(target: BindTargetKind, name: string, file = PAGE): HandlerBinding {
  const found = findBinding(ws.bindingFor(file), target, name);
  assert.ok(found, `no binding for ${target} ${name} in ${file}`);
  return found;
}

function diagsAbout(name: string, file = PAGE): Diagnostic[] {
  return ws.diagnosticsFor(file).filter((d) => d.message.includes(name));
}

describe('handler binding', () => {
  describe('accepted shapes', () => {
    const CASES: [BindTargetKind, string, string, string | undefined][] = [
      ['action', 'Plain', 'action0', undefined],
      ['action', 'NoCtx', 'action0', undefined],
      ['action', 'WithInput', 'action_input', 'Input'],
      ['action', 'WithForm', 'action_form', 'FormValues'],
      ['action', 'Untyped', 'action_form', 'FormValues'],
      ['action', 'ArrowInput', 'action_input', '{ q: string; page?: number }'],
      ['action', 'FnExpr', 'action0', undefined],
      ['action', 'Annotated', 'action_input', 'Input'],
      ['action', 'LocalList', 'action0', undefined],
      ['action', 'ImportedInput', 'action_input', 'Shared'],
      ['api', 'Raw', 'api', undefined],
      ['api', 'JsApi', 'api', undefined],
      ['api', 'NoRequest', 'api', undefined],
      ['api', 'UnknownApi', 'api', undefined],
      ['api', 'BodyApi', 'api', undefined],
      ['fragment', 'Rows', 'fragment', undefined],
      // Written to kit's handler types: the type decides, whatever parameters the function names.
      ['api', 'TypedApi', 'api', undefined],
      ['action', 'TypedInput', 'action_input', 'Input'],
      ['action', 'AliasInput', 'action_input', 'Input'],
      ['action', 'TypedForm', 'action_form', 'FormValues'],
      ['api', 'SatisfiesApi', 'api', undefined],
      ['action', 'NsAction', 'action0', undefined],
      ['api', 'JsTyped', 'api', undefined],
    ];
    for (const [target, name, kind, input] of CASES) {
      it(`${target} ${name} binds as ${kind}`, () => {
        const x = b(target, name);
        assert.equal(x.status, 'bound', x.message);
        assert.equal(x.signature, kind);
        assert.equal(x.inputType, input);
        assert.equal(diagsAbout(` ${name}`).length, 0, 'a bound handler has no diagnostic');
      });
    }

    it('reads input fields with their TypeScript types and optionality', () => {
      assert.deepEqual(b('action', 'WithInput').inputFields, [
        { name: 'name', type: 'string', optional: false },
        { name: 'count', type: 'number', optional: false },
        { name: 'subscribe', type: 'boolean', optional: true },
        { name: 'tags', type: 'string[]', optional: false },
        { name: 'note', type: 'string', optional: true },
      ]);
      assert.deepEqual(b('action', 'ArrowInput').inputFields, [
        { name: 'q', type: 'string', optional: false },
        { name: 'page', type: 'number', optional: true },
      ]);
      // Declared in a sibling module and imported relatively.
      assert.deepEqual(b('action', 'ImportedInput').inputFields, [
        { name: 'id', type: 'number', optional: false },
        { name: 'labels', type: 'string[]', optional: true },
        { name: 'done', type: 'boolean', optional: false },
      ]);
      // Contextually typed from `const Annotated: Handler = async (ctx, input) => ...`.
      assert.equal(b('action', 'Annotated').inputFields?.length, 5);
      // From ActionWithInput<Input>'s argument, directly or through a local alias.
      assert.deepEqual(b('action', 'TypedInput').inputFields, b('action', 'WithInput').inputFields);
      assert.deepEqual(b('action', 'AliasInput').inputFields, b('action', 'WithInput').inputFields);
    });

    it('records the module, import path, signature text and declared result type', () => {
      const x = b('action', 'WithInput');
      assert.equal(x.module, 'signatures/handlers.ts');
      assert.equal(x.importPath, './handlers.js');
      assert.equal(x.signatureText, 'WithInput(ctx: unknown, input: Input): Promise<Response>');
      assert.equal(x.resultType, 'Promise<Response>');
      assert.equal(x.packageName, 'sigs');
      assert.equal(b('api', 'JsApi').importPath, './legacy.js');
      assert.ok(x.functionRange && x.functionRange.start.line > 0);
    });

    it('binds an overload set through its one accepted overload', () => {
      const x = b('action', 'Overloaded');
      assert.equal(x.status, 'bound');
      assert.equal(x.signature, 'action0');
      assert.equal(x.signatureText, 'Overloaded(ctx: unknown): Response');
    });

    it('binds Load<PageID> for pages with server {}', () => {
      const load = b('load', 'LoadLoaded', 'signatures/loaded.kit');
      assert.equal(load.status, 'bound');
      assert.equal(load.signature, 'load');
    });

    it('binds //kit: comment endpoints to the function below the comment', () => {
      const x = b('api', 'CommentApi', 'signatures/handlers.ts');
      assert.equal(x.status, 'bound');
      assert.equal(x.ownerId, 'sigs.CommentApi');
      assert.equal(x.importPath, './handlers.js');
    });
  });

  describe('refused shapes', () => {
    const CASES: [string, RegExp][] = [
      ['ThreeParams', /takes 3 parameters/],
      ['BadField', /field "when" of \{ when: Date \} has type Date/],
      ['UnionInput', /is a union/],
      ['IndexInput', /index signature/],
      ['RestParams', /rest parameter/],
      ['TakesRequest', /actions receive the decoded form, not the raw Request/],
      ['NotAFunction', /is a const whose value is not an arrow function/],
      ['LetArrow', /let binding/],
      ['Generator', /generator function/],
      ['UnresolvedInput', /input type Missing cannot be resolved/],
      ['OverloadedTwice', /2 of its overloads have accepted shapes/],
      ['WrongType', /it is declared as ApiHandler, an API handler's type/],
      ['TooMany', /it declares 2 parameters where Action passes 1/],
    ];
    for (const [name, why] of CASES) {
      it(`${name}: unsupported_signature with an error that explains and lists the accepted shapes`, () => {
        const x = b('action', name);
        assert.equal(x.status, 'unsupported_signature');
        assert.match(x.message ?? '', why);
        const d = diagsAbout(` ${name}`);
        assert.equal(d.length, 1, JSON.stringify(d));
        assert.equal(d[0].code, 'unsupported_backend_signature');
        assert.equal(d[0].severity, 'error');
        if (!['NotAFunction', 'LetArrow'].includes(name))
          assert.match(d[0].message, /accepted: Action \(ctx\), ActionWithInput<T> \(ctx, input: T\)/);
        assert.match(d[0].message, /^sigs: /);
        // The function, beside the endpoint: where the fix goes.
        assert.equal(d[0].related?.[0].file, 'signatures/handlers.ts');
        assert.equal(d[0].related?.[0].message, `${name} declared here`);
      });
    }

    it('an API handler whose second parameter is not a request is unsupported', () => {
      const x = b('api', 'ApiInput');
      assert.equal(x.status, 'unsupported_signature');
      assert.match(x.message ?? '', /it takes an input of type Input; API handlers take the raw request/);
      assert.match(x.message ?? '', /accepted: ApiHandler \(ctx, request: Request\)/);
    });

    it('does not bind re-exports, and says why', () => {
      const x = b('action', 'Reexported');
      assert.equal(x.status, 'unsupported_signature');
      assert.match(
        x.message ?? '',
        /only re-exported by more\.ts \(from "\.\/lib\/impl\.js"\); kit binds functions declared in the directory's own modules/,
      );
      const [d] = diagsAbout('Reexported');
      assert.equal(d.code, 'unsupported_backend_signature');
      assert.equal(d.related?.[0].file, 'signatures/more.ts');
    });

    it('does not bind default exports, and says why', () => {
      const x = b('action', 'DefaultOnly');
      assert.equal(x.status, 'unsupported_signature');
      assert.match(x.message ?? '', /default export of more\.ts; kit binds named exports only/);
    });

    it('reports a name exported by two modules as ambiguous, pointing at both', () => {
      const x = b('action', 'Twice');
      assert.equal(x.status, 'unsupported_signature');
      const [d] = diagsAbout(' Twice');
      assert.equal(d.code, 'ambiguous_backend_handler');
      assert.equal(d.severity, 'warning');
      assert.deepEqual(
        d.related?.map((r) => r.file),
        ['signatures/handlers.ts', 'signatures/more.ts'],
      );
    });

    it('flags a comment endpoint with a bad signature in its module', () => {
      const x = b('action', 'CommentAction', 'signatures/handlers.ts');
      assert.equal(x.status, 'unsupported_signature');
      const d = ws.diagnosticsFor('signatures/handlers.ts').filter((y) => y.code === 'unsupported_backend_signature');
      assert.equal(d.length, 1);
      assert.match(d[0].message, /^sigs\.CommentAction: /);
    });
  });

  describe('missing handlers', () => {
    it('ignores test and declaration files, and names the file where the stub belongs', () => {
      const x = b('action', 'Absent');
      assert.equal(x.status, 'missing');
      assert.equal(x.stubFile, 'signatures/handlers.ts');
      const [d] = diagsAbout(' Absent');
      assert.equal(d.code, 'missing_backend_handler');
      assert.equal(d.severity, 'warning');
      assert.match(d.message, /add it to handlers\.ts with the shape/);
    });

    it('a missing load is a note naming Load<PageID>', () => {
      const x = b('load', 'LoadUnloadedPage', 'signatures/unloaded.kit');
      assert.equal(x.status, 'missing');
      const d = ws.diagnosticsFor('signatures/unloaded.kit').filter((y) => y.code === 'missing_backend_handler');
      assert.equal(d.length, 1);
      assert.match(d[0].message, /load function LoadUnloadedPage is not implemented/);
    });

    it('a fragment without a hook is missing but silent (its static body is served)', () => {
      const x = b('fragment', 'Plainfrag');
      assert.equal(x.status, 'missing');
      assert.match(x.message ?? '', /static body is served/);
      assert.equal(diagsAbout('Plainfrag').length, 0);
    });
  });

  it('builds one ts.Program for all directories of a run', () => {
    assert.ok(project.modules.length >= 5);
    assert.equal(ws.inspection.binding.programs, 1);
    assert.equal(b('action', 'Plain', 'other/other.kit').status, 'bound');
  });

  it('strictBindings turns missing and unusable handlers into backend_binding_required errors', () => {
    const strict = loadProject(['.'], { ssr: true, strictBindings: true }, root).workspace;
    const errs = strict.diagnosticsFor(PAGE).filter((d) => d.code === 'backend_binding_required');
    for (const n of ['Absent', 'ThreeParams', 'Twice', 'Reexported']) {
      assert.ok(
        errs.some((d) => d.message.startsWith(`sigs: action handler ${n} must be bound for a production build`)),
        `${n}: ${errs.map((d) => d.message).join('\n')}`,
      );
    }
    assert.ok(errs.every((d) => d.severity === 'error'));
    assert.equal(strict.diagnosticsFor(PAGE).filter((d) => d.code === 'missing_backend_handler').length, 0);
    assert.ok(!errs.some((d) => d.message.includes('Plainfrag')), 'fragment hooks are optional');
  });

  it('importPathFrom spells ES import specifiers', () => {
    const table: [string, string, string][] = [
      ['site', 'site/handlers.ts', './handlers.js'],
      ['site', 'site/h.mts', './h.mjs'],
      ['site', 'site/h.js', './h.js'],
      ['site/blog', 'site/lib/h.ts', '../lib/h.js'],
      ['.', 'handlers.ts', './handlers.js'],
    ];
    for (const [dir, mod, want] of table) assert.equal(importPathFrom(dir, mod), want, `${dir} → ${mod}`);
  });
});

describe('incremental binding in a workspace', () => {
  const page = (dir: string, extra = '') =>
    `package ${dir}\n\npage ${dir}\nroute "/${dir}"\nguard public\n\nact Save POST "/${dir}/save"\n${extra}\nview {\n  <main><h1>${dir}</h1></main>\n}\n`;
  const mod = (name: string) =>
    `export interface In { q: string }\nexport function ${name}(ctx: unknown, input: In): void {\n  void input;\n}\n`;

  it('re-binds only the directory of a changed module, re-parsing that module alone', () => {
    const w = new Workspace({ ssr: true });
    w.setKitFile('a/a.kit', page('a'));
    w.setKitFile('b/b.kit', page('b'));
    w.setModule('a/handlers.ts', mod('Save'));
    w.setModule('b/handlers.ts', mod('Save'));
    w.flush();
    assert.equal(findBinding(w.bindingFor('a/a.kit'), 'action', 'Save')?.status, 'bound');
    const bBefore = w.bindingFor('b/b.kit');
    const stats = w.inspection.binding;
    // A local interface input is read from the syntax: no ts.Program is needed at all.
    assert.ok(stats.programs <= 1);
    assert.equal(stats.parsed, 2);

    w.setModule('a/handlers.ts', mod('Other'));
    const affected = w.flush();
    assert.ok(affected.has('a/a.kit'));
    assert.ok(!affected.has('b/b.kit'), 'the other directory is not re-validated');
    assert.equal(findBinding(w.bindingFor('a/a.kit'), 'action', 'Save')?.status, 'missing');
    assert.equal(w.bindingFor('b/b.kit'), bBefore, 'the other directory keeps its binding object');
    assert.equal(w.inspection.binding.parsed, 3, 'only the edited module is parsed again');
    assert.ok(w.diagnosticsFor('a/a.kit').some((d) => d.code === 'missing_backend_handler'));

    w.setModule('a/handlers.ts', mod('Save'));
    w.flush();
    assert.equal(findBinding(w.bindingFor('a/a.kit'), 'action', 'Save')?.status, 'bound');
    assert.ok(!w.diagnosticsFor('a/a.kit').some((d) => d.code === 'missing_backend_handler'));
  });

  it('re-binds when a .kit file gains an endpoint or a server {} block', () => {
    const w = new Workspace({ ssr: true });
    w.setKitFile('a/a.kit', page('a'));
    w.setModule('a/handlers.ts', `${mod('Save')}export function Load${'A'}(ctx: unknown) { return {}; }\n`);
    w.flush();
    assert.equal(findBinding(w.bindingFor('a/a.kit'), 'load', 'LoadA'), undefined);
    w.setKitFile('a/a.kit', page('a', 'server {\n  => { title }\n}\n'));
    w.flush();
    assert.equal(findBinding(w.bindingFor('a/a.kit'), 'load', 'LoadA')?.status, 'bound');
    w.setKitFile('a/a.kit', page('a', 'act Extra POST "/a/extra"\n'));
    w.flush();
    assert.equal(findBinding(w.bindingFor('a/a.kit'), 'action', 'Extra')?.status, 'missing');
  });

  it("re-binds a contract of another package when that package's module changes", () => {
    const w = new Workspace({ ssr: true });
    w.setKitFile(
      'notes/notes.kit',
      'package notes\n\npage notes\nroute "/notes"\nguard public\nuse lib "lib"\n\nview {\n  <p g:query="lib.Count">n</p>\n}\n',
    );
    w.setKitFile('lib/counter.cmp.kit', 'package lib\n\ncomponent Counter\n\nview {\n  <span>0</span>\n}\n');
    w.setModule('lib/handlers.ts', 'export function Count(ctx: unknown) {\n  return 1;\n}\n');
    w.flush();
    const before = findBinding(w.bindingFor('notes/notes.kit'), 'query', 'lib.Count');
    assert.equal(before?.status, 'bound');
    assert.equal(before?.importPath, '../lib/handlers.js');
    w.setModule('lib/handlers.ts', 'export function Total(ctx: unknown) {\n  return 1;\n}\n');
    w.flush();
    assert.equal(findBinding(w.bindingFor('notes/notes.kit'), 'query', 'lib.Count')?.status, 'missing');
  });

  it('removing a module re-binds its directory', () => {
    const w = new Workspace({ ssr: true });
    w.setKitFile('a/a.kit', page('a'));
    w.setModule('a/handlers.ts', mod('Save'));
    w.flush();
    w.remove('a/handlers.ts');
    w.flush();
    assert.equal(findBinding(w.bindingFor('a/a.kit'), 'action', 'Save')?.status, 'missing');
  });

  it('after releaseBinder, edits re-bind with the same results as a fresh load', () => {
    // The fixture's bindings read input types through relative imports and result types through the
    // type checker: everything the released state held.
    const fresh = (edit: (w: Workspace) => void) => {
      const p = loadProject(['.'], { ssr: true }, root);
      edit(p.workspace);
      return p.workspace;
    };
    const facts = (w: Workspace) =>
      JSON.stringify([w.allDiagnostics(), [...w.kitPaths(), ...w.modulePaths()].map((f) => w.bindingFor(f))]);
    const w = fresh(() => undefined);
    w.flush();
    assert.ok(w.inspection.binding.held > 0);
    w.releaseBinder();
    assert.equal(w.inspection.binding.held, 0);
    assert.equal(facts(w), facts(fresh(() => undefined)), 'results survive the release');
    const handlers = w.module('signatures/handlers.ts')!.text;
    const edits = (x: Workspace) => {
      // The load's result loses its field (the checker's part), a handler gains a bad parameter.
      x.setModule('signatures/handlers.ts', handlers.replace('{ title: string }', '{ name: string }'));
      x.setModule('other/handlers.ts', `${x.module('other/handlers.ts')!.text}\nexport const late = 1;\n`);
    };
    edits(w);
    const after = facts(w);
    assert.match(after, /load_missing_field/);
    assert.equal(after, facts(fresh(edits)));
    assert.ok(w.inspection.binding.held > 0, 'the modules binding read are parsed again');
  });

  it('a workspace without handler modules never loads the compiler', () => {
    const w = new Workspace({ ssr: true });
    w.setKitFile('a/a.kit', page('a'));
    w.flush();
    assert.equal(findBinding(w.bindingFor('a/a.kit'), 'action', 'Save')?.status, 'missing');
    assert.deepEqual(w.inspection.binding, { compilerMs: 0, programs: 0, parsed: 0, held: 0 });
  });
});
