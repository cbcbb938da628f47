// The handler types of `@kit-lang/kit/app` mean what kit binds and calls: for each type, handlers
// written to it (test/fixtures/handler-types: every parameter count the type allows, as typed
// consts, `satisfies`, function declarations, plain arrows and a renamed function) type-check with
// a strict tsc against the shipped declarations, bind with no diagnostic and the signature the
// type says, and answer 2xx over HTTP, with what their arguments hold, through the built app and
// through `kit dev`.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { findBinding, type BindTargetKind, type SignatureKind } from '#core/bind/types.js';
import { loadProject } from '#core/project/load.js';
import { fixture, repoRoot } from '../../helpers/repo.js';
import { attach, runKit, SECRET, tempDir, type RunningApp } from '../../server/core/app/built-app.js';
import { copyFixture, startDev, type DevProcess } from '../../server/cli/dev/dev-harness.js';

const SITE = fixture('handler-types');

interface Row {
  /** The type the handler is written to. */
  type: 'Action' | 'ActionWithInput' | 'FormAction' | 'ApiHandler' | 'Load' | 'Guard';
  name: string;
  /** How it is written: the form and the parameters it names. */
  form: string;
  method: 'GET' | 'POST';
  path: string;
  /** What is bound (none for guards, which kit.config registers). */
  bound?: { target: BindTargetKind; file: string; signature: SignatureKind };
  /** The body (or, for pages, a part of it) the handler's arguments make. */
  answer: string;
}

const FORM_BODY = 'name=Ada&age=36';

function action(name: string, form: string, path: string, signature: SignatureKind, answer: string): Row {
  const type = name.startsWith('Input') ? 'ActionWithInput' : name.startsWith('Form') ? 'FormAction' : 'Action';
  return {
    type,
    name,
    form,
    method: 'POST',
    path,
    bound: { target: 'action', file: 'actions.kit', signature },
    answer,
  };
}

function api(name: string, form: string, path: string, answer: string, method: 'GET' | 'POST' = 'GET'): Row {
  return {
    type: 'ApiHandler',
    name,
    form,
    method,
    path,
    bound: { target: 'api', file: 'apis.kit', signature: 'api' },
    answer,
  };
}

function load(page: string, name: string, form: string, answer: string): Row {
  return {
    type: 'Load',
    name,
    form,
    method: 'GET',
    path: `/loads/${page}`,
    bound: { target: 'load', file: `load-${page}.kit`, signature: 'load' },
    answer: `<p id="who">${answer}</p>`,
  };
}

function guard(id: string, name: string, form: string): Row {
  const slug = id.replace('.', '-');
  return { type: 'Guard', name, form, method: 'GET', path: `/guards/${slug}`, answer: `Guarded by ${id}` };
}

const ROWS: Row[] = [
  action('ActionTyped0', 'typed const, ()', '/actions/typed0', 'action0', 'ActionTyped0'),
  action('ActionTyped1', 'typed const, (ctx)', '/actions/typed1', 'action0', 'ActionTyped1:ActionTyped1'),
  action(
    'ActionTypedFn1',
    'typed function expression, (ctx)',
    '/actions/typed-fn1',
    'action0',
    'ActionTypedFn1:ActionTypedFn1',
  ),
  action('ActionSatisfies1', 'satisfies, (ctx)', '/actions/satisfies1', 'action0', 'ActionSatisfies1:ActionSatisfies1'),
  action('ActionFunction0', 'function, ()', '/actions/function0', 'action0', 'ActionFunction0'),
  action('ActionFunction1', 'function, (ctx)', '/actions/function1', 'action0', 'ActionFunction1:ActionFunction1'),
  action('ActionArrow1', 'arrow, (ctx)', '/actions/arrow1', 'action0', 'ActionArrow1:ActionArrow1'),
  action('ActionRenamed1', 'export { f as X }, (ctx)', '/actions/renamed1', 'action0', 'ActionRenamed1:ActionRenamed1'),
  action('InputTyped0', 'typed const, ()', '/inputs/typed0', 'action_input', 'InputTyped0'),
  action('InputTyped1', 'typed const, (ctx)', '/inputs/typed1', 'action_input', 'InputTyped1:InputTyped1'),
  action(
    'InputTyped2',
    'typed const, (ctx, input)',
    '/inputs/typed2',
    'action_input',
    'InputTyped2:InputTyped2:Ada:36:number',
  ),
  action(
    'InputTypedFn2',
    'typed function expression, (ctx, input)',
    '/inputs/typed-fn2',
    'action_input',
    'InputTypedFn2:InputTypedFn2:Ada:36:number',
  ),
  action(
    'InputSatisfies2',
    'satisfies, (ctx, input)',
    '/inputs/satisfies2',
    'action_input',
    'InputSatisfies2:InputSatisfies2:Ada:36:number',
  ),
  action(
    'InputFunction2',
    'function, (ctx, input: Signup)',
    '/inputs/function2',
    'action_input',
    'InputFunction2:InputFunction2:Ada:36:number',
  ),
  action(
    'InputArrow2',
    'arrow, (ctx, input: Signup)',
    '/inputs/arrow2',
    'action_input',
    'InputArrow2:InputArrow2:Ada:36:number',
  ),
  action('FormTyped0', 'typed const, ()', '/forms/typed0', 'action_form', 'FormTyped0'),
  action('FormTyped1', 'typed const, (ctx)', '/forms/typed1', 'action_form', 'FormTyped1:FormTyped1'),
  action('FormTyped2', 'typed const, (ctx, form)', '/forms/typed2', 'action_form', 'FormTyped2:FormTyped2:Ada'),
  action(
    'FormTypedFn2',
    'typed function expression, (ctx, form)',
    '/forms/typed-fn2',
    'action_form',
    'FormTypedFn2:FormTypedFn2:Ada',
  ),
  action(
    'FormFunction2',
    'function, (ctx, form: FormValues)',
    '/forms/function2',
    'action_form',
    'FormFunction2:FormFunction2:Ada',
  ),
  action('FormArrow2', 'arrow, (ctx, form: FormValues)', '/forms/arrow2', 'action_form', 'FormArrow2:FormArrow2:Ada'),
  api('ApiTyped0', 'typed const, ()', '/api/typed0', 'ApiTyped0'),
  api('ApiTyped1', 'typed const, (ctx)', '/api/typed1', 'ApiTyped1:ApiTyped1'),
  api('ApiTyped2', 'typed const, (ctx, request)', '/api/typed2', 'ApiTyped2:ApiTyped2:GET /api/typed2'),
  api(
    'ApiTypedFn2',
    'typed function expression, (ctx, request)',
    '/api/typed-fn2',
    'ApiTypedFn2:ApiTypedFn2:GET /api/typed-fn2',
  ),
  api('ApiSatisfies1', 'satisfies, (ctx)', '/api/satisfies1', 'ApiSatisfies1:ApiSatisfies1'),
  api('ApiFunction0', 'function, ()', '/api/function0', 'ApiFunction0'),
  api('ApiFunction1', 'function, (ctx)', '/api/function1', 'ApiFunction1:ApiFunction1'),
  api(
    'ApiFunction2',
    'function, (ctx, request: Request)',
    '/api/function2',
    'ApiFunction2:ApiFunction2:GET /api/function2',
  ),
  api('ApiArrow2', 'arrow, (ctx, request: Request)', '/api/arrow2', 'ApiArrow2:ApiArrow2:GET /api/arrow2'),
  api('ApiPost2', 'typed const, (ctx, request), POST with a body', '/api/post2', 'ApiPost2:ApiPost2:hello', 'POST'),
  load('typed0', 'LoadTyped0', 'typed const, ()', 'LoadTyped0'),
  load('typed1', 'LoadTyped1', 'typed const, (ctx)', 'LoadTyped1:typed1'),
  load('typedfn1', 'LoadTypedfn1', 'typed function expression, (ctx)', 'LoadTypedfn1:typedfn1'),
  load('satisfies1', 'LoadSatisfies1', 'satisfies, (ctx)', 'LoadSatisfies1:satisfies1'),
  load('function0', 'LoadFunction0', 'function, ()', 'LoadFunction0'),
  load('function1', 'LoadFunction1', 'function, (ctx)', 'LoadFunction1:function1'),
  load('arrow1', 'LoadArrow1', 'arrow, (ctx)', 'LoadArrow1:arrow1'),
  guard('typed.zero', 'typedZero', 'typed const, ()'),
  guard('typed.one', 'typedOne', 'typed const, (ctx)'),
  guard('function.one', 'functionOne', 'function, (ctx)'),
  guard('inline.zero', "guards['inline.zero']", 'inline arrow typed by Record<string, Guard>, ()'),
  guard('inline.one', "guards['inline.one']", 'inline arrow typed by Record<string, Guard>, (ctx)'),
];

const TYPE_MODULES: Record<Row['type'], string> = {
  Action: 'action.ts',
  ActionWithInput: 'action-with-input.ts',
  FormAction: 'form-action.ts',
  ApiHandler: 'api-handler.ts',
  Load: 'load.ts',
  Guard: 'kit.config.ts',
};

interface Session {
  token: string;
  cookie: string;
}

/** The CSRF cookie and token a visitor gets with the page that holds a form. */
async function session(base: string): Promise<Session> {
  const r = await fetch(`${base}/actions`);
  assert.equal(r.status, 200);
  const token = /kit-csrf=([A-Za-z0-9_-]+)/.exec(r.headers.get('set-cookie') ?? '')?.[1];
  assert.ok(token, 'GET /actions sets a CSRF cookie');
  return { token, cookie: `kit-csrf=${token}` };
}

/** kit dev's addition to HTML answers, removed before comparing (as the same-answers suite does). */
const DEV_CLIENT_TAG = '<script type="module" src="/_kit/dev/client.js"></script>';

async function call(base: string, s: Session, row: Row, dev = false): Promise<void> {
  const init: RequestInit = { method: row.method, redirect: 'manual' };
  if (row.method === 'POST') {
    const api = row.type === 'ApiHandler';
    init.headers = {
      cookie: s.cookie,
      'x-kit-csrf': s.token,
      'content-type': api ? 'text/plain' : 'application/x-www-form-urlencoded',
    };
    init.body = api ? 'hello' : FORM_BODY;
  }
  const res = await fetch(base + row.path, init);
  const text = await res.text();
  const body = dev ? text.split(DEV_CLIENT_TAG).join('') : text;
  assert.ok(res.status >= 200 && res.status < 300, `${row.method} ${row.path} → ${res.status}: ${body}`);
  if (row.type === 'Load' || row.type === 'Guard') assert.ok(body.includes(row.answer), body);
  else assert.equal(body, row.answer);
}

/** A project beside the fixture's copy with kit installed as npm lays it out. */
function projectCopy(): string {
  const root = tempDir('kit-handler-types-');
  const site = join(root, 'site');
  cpSync(SITE, site, { recursive: true });
  mkdirSync(join(root, 'node_modules', '@kit-lang'), { recursive: true });
  symlinkSync(repoRoot, join(root, 'node_modules', '@kit-lang', 'kit'), 'dir');
  return site;
}

function typeErrors(project: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(project, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  );
  assert.ok(config);
  assert.equal(config.options.strict, true);
  const program = ts.createProgram(config.fileNames, config.options);
  const resolved = program.getSourceFiles().map((f) => f.fileName);
  assert.ok(
    resolved.some((f) => f.endsWith('out/shared/app/handler-types.d.ts')),
    'the shipped declarations',
  );
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('handler types: what type-checks binds and answers', function () {
  this.timeout(120000);

  it('the table covers every handler of the fixture, each type in its own module', () => {
    for (const [type, module] of Object.entries(TYPE_MODULES)) {
      const text = readFileSync(join(SITE, module), 'utf8');
      const exported = [...text.matchAll(/export (?:const|async function|function) ([A-Z]\w*)/g)].map((m) => m[1]);
      const rows = ROWS.filter((r) => r.type === type);
      if (type === 'Guard') assert.equal(rows.length, 5);
      else
        for (const name of exported)
          assert.ok(
            rows.some((r) => r.name === name),
            `${name} has a row`,
          );
      assert.ok(rows.length >= 5, `${type}: ${rows.length} rows`);
    }
    assert.ok(
      ROWS.some((r) => r.name === 'ActionRenamed1'),
      'export { f as X }',
    );
  });

  it('type-check with a strict tsc against the shipped declarations, which refuse wrong uses', () => {
    const errors = typeErrors(projectCopy());
    assert.deepEqual(errors, []);
    const wrong = readFileSync(join(SITE, 'wrong-uses.ts'), 'utf8');
    // Each `@ts-expect-error` line must meet an error, or tsc reports the directive itself.
    assert.equal(wrong.match(/@ts-expect-error/g)?.length, 6);
  });

  it('bind with no diagnostic, each with the signature its type says', () => {
    const check = runKit(['check', '--ssr', '--json', SITE]);
    assert.equal(check.status, 0, check.stderr);
    assert.deepEqual(JSON.parse(check.stdout).diagnostics, []);
    const p = loadProject(['.'], { ssr: true }, SITE);
    const ws = p.workspace;
    assert.deepEqual(
      ws.allDiagnostics().map((d) => `${d.file}: ${d.code}: ${d.message}`),
      [],
    );
    for (const row of ROWS) {
      if (!row.bound) continue;
      const b = findBinding(ws.bindingFor(row.bound.file), row.bound.target, row.name);
      assert.equal(b?.status, 'bound', `${row.name}: ${b?.message}`);
      assert.equal(b.signature, row.bound.signature, row.name);
      if (row.bound.signature === 'action_input') {
        assert.deepEqual(b.inputFields, [
          { name: 'name', type: 'string', optional: false },
          { name: 'age', type: 'number', optional: true },
        ]);
      }
    }
    const kitFiles = readdirSync(SITE).filter((f) => f.endsWith('.kit'));
    assert.equal(kitFiles.length, 2 + 7 + 5);
  });

  describe('through the built app', () => {
    let app: RunningApp;
    let s: Session;
    before(async () => {
      const dir = tempDir('kit-handler-types-app-');
      const r = runKit([
        'build',
        '--ssr',
        '--strict-bindings',
        '--out',
        join(dir, 'dist'),
        '--app',
        join(dir, 'app'),
        SITE,
      ]);
      assert.equal(r.status, 0, r.stderr + r.stdout);
      const proc = spawn(process.execPath, [join(dir, 'app', 'server.js'), '--addr', '127.0.0.1:0'], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', KIT_CSRF_SECRET: SECRET },
      });
      app = await attach(proc);
      s = await session(app.url);
    });
    after(async () => {
      await app?.stop();
    });
    for (const row of ROWS) {
      it(`${row.type} ${row.name} (${row.form}) answers ${row.method} ${row.path}`, () => call(app.url, s, row));
    }
  });

  describe('through kit dev', () => {
    let dev: DevProcess;
    let s: Session;
    before(async () => {
      dev = await startDev(copyFixture('handler-types'), ['--ssr', '--no-trace']);
      s = await session(dev.url);
    });
    after(async () => {
      await dev?.stop();
    });
    for (const row of ROWS) {
      it(`${row.type} ${row.name} (${row.form}) answers ${row.method} ${row.path}`, () => call(dev.url, s, row, true));
    }
  });
});
