// The app config module's guard registrations, read statically, and the `unknown_guard` rule.
import { strict as assert } from 'node:assert';
import { readConfigSettings } from '#core/bind/config-reader.js';
import { isAppConfigPath } from '#core/model/app-config.js';
import { Workspace } from '#core/workspace/workspace.js';

describe('app config: registered guard IDs', () => {
  const cases: { name: string; text: string; ids: string[]; complete: boolean }[] = [
    {
      name: 'exported const with quoted keys',
      text: `export const guards = { 'auth.required': (ctx) => true, "role:admin": () => false };`,
      ids: ['auth.required', 'role:admin'],
      complete: true,
    },
    {
      name: 'type annotation',
      text: `export const guards: Record<string, Guard> = {\n  'a.b': allowAll,\n  plain: (c) => deny(),\n};`,
      ids: ['a.b', 'plain'],
      complete: true,
    },
    {
      name: 'default export with methods and nested objects',
      text: `export default {\n  guards: {\n    'x.y'(ctx) { return { kind: 'allow' }; },\n    async 'z'(ctx) { const o = { inner: 1 }; return o; },\n  },\n};`,
      ids: ['x.y', 'z'],
      complete: true,
    },
    {
      name: 'comments and strings do not count',
      text: `// guards = { 'fake': 1 }\nconst s = "guards = { 'nope': 1 }";\nexport const guards = { /* 'hidden': 1, */ 'real': () => true };`,
      ids: ['real'],
      complete: true,
    },
    { name: 'computed table', text: `export const guards = buildGuards();`, ids: [], complete: false },
    { name: 'spread', text: `export const guards = { ...base, 'own': () => true };`, ids: ['own'], complete: false },
    { name: 'no guards export', text: `export const other = 1;`, ids: [], complete: true },
    {
      name: 'a local table exported by name, satisfies and computed literal keys',
      text: `const table = { ['a.b']: () => true, c: () => false } satisfies Guards;\nexport { table as guards };`,
      ids: ['a.b', 'c'],
      complete: true,
    },
    {
      name: 'default export of a local object',
      text: `const config = { guards: { x: () => true } };\nexport default config;`,
      ids: ['x'],
      complete: true,
    },
    {
      name: 'computed key',
      text: `export const guards = { [name]: () => true, y: () => true };`,
      ids: ['y'],
      complete: false,
    },
    { name: 'default export kit cannot read', text: `export default makeConfig();`, ids: [], complete: false },
    {
      name: 'JavaScript config with a regular expression holding quotes',
      text: `export const guards = { 'r': (ctx) => /'["]/.test(ctx.path), s: () => true };`,
      ids: ['r', 's'],
      complete: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = readConfigSettings('kit.config.ts', c.text).guards;
      assert.deepEqual([...r.ids].sort(), [...c.ids].sort());
      assert.equal(r.complete, c.complete);
    });
  }

  it('knows where each ID is registered: its key, quotes included', () => {
    for (const c of cases) {
      const at = readConfigSettings('kit.config.ts', c.text).guards.at;
      assert.deepEqual([...at.keys()].sort(), [...c.ids].sort(), c.name);
      for (const [id, { start, end }] of at) assert.match(c.text.slice(start, end), new RegExp(`^['"]?${id}['"]?$`));
    }
    // The first registration of an ID that two tables name.
    const twice = `export const guards = { 'a': f };\nexport default { guards: { 'a': g } };`;
    assert.equal(readConfigSettings('kit.config.ts', twice).guards.at.get('a')?.start, twice.indexOf("'a'"));
  });

  it('recognises config module names', () => {
    for (const p of ['kit.config.ts', 'site/kit.config.mjs', 'a\\kit.config.js']) assert.ok(isAppConfigPath(p), p);
    for (const p of ['kit.config.d.ts', 'kitconfig.ts', 'kit.config.json']) assert.ok(!isAppConfigPath(p), p);
  });
});

describe('unknown_guard', () => {
  const page = (guard: string) =>
    `package site\n\nroute "/p"\nguard ${guard}\n\nserver {\n}\n\nview {\n  <main>p</main>\n}\n`;
  const codes = (ws: Workspace) => ws.allDiagnostics().filter((d) => d.code === 'unknown_guard');

  it('warns when no config registers a protective guard, at the guard ID', () => {
    const ws = new Workspace({ ssr: true });
    ws.setKitFile('site/p.kit', page('auth.required'));
    const d = codes(ws);
    assert.equal(d.length, 1);
    assert.equal(d[0].severity, 'warning');
    assert.equal(d[0].file, 'site/p.kit');
    assert.equal(d[0].range.start.line, 3);
    assert.equal(d[0].range.start.column, 6);
    assert.match(
      d[0].message,
      /guard "auth\.required" is not registered \(no kit\.config\.ts \(or \.mts, \.js, \.mjs\) beside the \.kit files or at the project root registers guards\)/,
    );
  });

  it('never warns about public', () => {
    const ws = new Workspace({ ssr: true });
    ws.setKitFile('site/p.kit', page('public'));
    assert.equal(codes(ws).length, 0);
  });

  it('follows config edits incrementally', () => {
    const ws = new Workspace({ ssr: true });
    ws.setKitFile('site/p.kit', page('auth.required'));
    assert.equal(codes(ws).length, 1);
    ws.setModule('site/kit.config.ts', `export const guards = { 'auth.required': () => true };`);
    const affected = ws.flush();
    assert.ok(affected.has('site/p.kit'), 'the page is re-published');
    assert.equal(codes(ws).length, 0);
    ws.setModule('site/kit.config.ts', `export const guards = { 'other': () => true };`);
    assert.equal(codes(ws).length, 1);
    assert.match(codes(ws)[0].message, /kit\.config\.ts does not register it/);
    ws.remove('site/kit.config.ts');
    assert.equal(codes(ws).length, 1);
  });

  it('checks //kit:guard IDs of comment endpoints too', () => {
    const ws = new Workspace({ ssr: true });
    ws.setKitFile('site/p.kit', page('public'));
    ws.setModule(
      'site/handlers.ts',
      `//kit:api GET /api/x\n//kit:guard team.only\nexport function X(ctx, request) { return new Response('x'); }\n`,
    );
    const d = codes(ws);
    assert.equal(d.length, 1);
    assert.equal(d[0].file, 'site/handlers.ts');
    assert.match(d[0].message, /api GET \/api\/x \(X\): guard "team\.only"/);
  });

  it('stays quiet when the guards table cannot be read statically', () => {
    const ws = new Workspace({ ssr: true });
    ws.setKitFile('site/p.kit', page('auth.required'));
    ws.setModule('site/kit.config.ts', `export const guards = makeGuards();`);
    assert.equal(codes(ws).length, 0);
  });
});
