// kit.config settings read from the module's syntax tree: the forms a config may write them in,
// and a diagnostic on the value of a setting that is no literal or not of its type.
import { strict as assert } from 'node:assert';
import { readConfigSettings } from '#core/bind/config-reader.js';

const read = (text: string, path = 'kit.config.ts') => readConfigSettings(path, text);
const settings = (text: string, path?: string) => {
  const { ssr, sources, out, app, diagnostics } = read(text, path);
  assert.deepEqual(diagnostics, [], 'no diagnostics');
  return Object.fromEntries(Object.entries({ ssr, sources, out, app }).filter(([, v]) => v !== undefined));
};

describe('kit.config settings', () => {
  it('reads named exports', () => {
    assert.deepEqual(
      settings(
        "export const ssr = true;\nexport const sources = 'pages';\nexport const out = `build/www`;\nexport let app = false;\n",
      ),
      { ssr: true, sources: 'pages', out: 'build/www', app: false },
    );
  });

  it('reads the default export object, through satisfies, as, parentheses and a local const', () => {
    assert.deepEqual(settings("export default ({ ssr: false, app: 'srv' }) satisfies KitConfig;"), {
      ssr: false,
      app: 'srv',
    });
    assert.deepEqual(settings('const config = { ssr: true } as const;\nexport default config;'), { ssr: true });
    assert.deepEqual(settings("const ssr = true;\nexport default { ssr, 'sources': 'src' };"), {
      ssr: true,
      sources: 'src',
    });
  });

  it('reads allowedHosts as an array of names in quotes, named or in the default object', () => {
    assert.deepEqual(read("export const allowedHosts = ['dev.test', `.example.test`];").allowedHosts, [
      'dev.test',
      '.example.test',
    ]);
    assert.deepEqual(read("export default { allowedHosts: ['a.test'] as const };").allowedHosts, ['a.test']);
    const notLiteral = read("export const allowedHosts = ['a.test', process.env.HOST];");
    assert.equal(notLiteral.allowedHosts, undefined);
    assert.deepEqual(
      notLiteral.diagnostics.map((d) => [d.code, d.range.start.column]),
      [['config_not_literal', 39]],
    );
    const wrongType = read("export const allowedHosts = 'a.test';");
    assert.deepEqual(
      wrongType.diagnostics.map((d) => d.code),
      ['config_invalid_setting'],
    );
    assert.match(wrongType.diagnostics[0].message, /must be an array of host names in quotes/);
  });

  it('reads `export { x as ssr }` and prefers named exports to the default object, as the app does', () => {
    assert.deepEqual(settings('const on = true;\nexport { on as ssr };\nexport default { ssr: false };'), {
      ssr: true,
    });
  });

  it('reads JavaScript configs, and settings beside guards and types', () => {
    const text =
      "import { allow } from '@kit-lang/kit/app';\n/** @type {boolean} */\nexport const ssr = true;\n" +
      "export const guards = { 'a.b': () => allow() };\n";
    assert.deepEqual(settings(text, 'site/kit.config.mjs'), { ssr: true });
    assert.deepEqual([...read(text, 'site/kit.config.mjs').guards.ids], ['a.b']);
  });

  it('says nothing of a config without settings', () => {
    assert.deepEqual(settings('export const guards = {};\nexport const uploads = { maxFiles: 2 };\n'), {});
    assert.deepEqual(settings(''), {});
  });

  it('reports a value that is no literal on its own line and column, and leaves the setting out', () => {
    const text = "// settings\nexport const ssr = process.env.KIT_SSR === '1';\n";
    const r = read(text);
    assert.equal(r.ssr, undefined);
    assert.equal(r.diagnostics.length, 1);
    const d = r.diagnostics[0];
    assert.equal(d.code, 'config_not_literal');
    assert.equal(d.severity, 'error');
    assert.equal(d.file, 'kit.config.ts');
    assert.deepEqual([d.range.start.line, d.range.start.column], [1, 19]);
    assert.equal(text.slice(d.range.start.offset, d.range.end.offset), "process.env.KIT_SSR === '1'");
    assert.match(
      d.message,
      /^ssr in kit\.config\.ts is not a literal \(process\.env\.KIT_SSR === '1'\): kit reads the settings without running the config, so write true or false itself/,
    );
  });

  it('reports settings that are functions, imports, re-exports or a default export it cannot read', () => {
    const cases: [string, RegExp][] = [
      ['export function ssr() { return true; }', /ssr in kit\.config\.ts is not a literal \(a function\)/],
      ["import { on } from './env.js';\nexport default { ssr: on };", /\(imported from '\.\/env\.js'\)/],
      [
        "export { out } from './paths.js';",
        /out in kit\.config\.ts is not a literal \(re-exported from '\.\/paths\.js'\)/,
      ],
      ['export default { get ssr() { return true; } };', /ssr in kit\.config\.ts is not a literal \(an accessor\)/],
      [
        'export default defineConfig({ ssr: true });',
        /the default export of kit\.config\.ts is not an object literal \(defineConfig\(\{ ssr: true \}\)\)/,
      ],
    ];
    for (const [text, message] of cases) {
      const r = read(text);
      assert.deepEqual(
        r.diagnostics.map((d) => d.code),
        ['config_not_literal'],
        text,
      );
      assert.match(r.diagnostics[0].message, message);
    }
  });

  it('reports a literal of the wrong type with config_invalid_setting', () => {
    const r = read("export default {\n  ssr: 'yes',\n  sources: '',\n  out: 42,\n  app: true,\n};\n");
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.range.start.line, d.message]),
      [
        ['config_invalid_setting', 1, "ssr in kit.config.ts must be true or false, not 'yes'"],
        ['config_invalid_setting', 2, "sources in kit.config.ts must be a directory path in quotes, not ''"],
        ['config_invalid_setting', 3, 'out in kit.config.ts must be a directory path in quotes, not 42'],
        [
          'config_invalid_setting',
          4,
          'app in kit.config.ts must be a directory path in quotes, or false for no app server, not true',
        ],
      ],
    );
    assert.deepEqual([r.ssr, r.sources, r.out, r.app], [undefined, undefined, undefined, undefined]);
  });
});
