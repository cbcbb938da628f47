// The light scan of handler modules: exports and `//kit:` endpoint comments with their guards.
import { strict as assert } from 'node:assert';
import { isHandlerModulePath, scanHandlerModule } from '#core/model/handler-modules.js';
import { commentEndpointDiagnostics } from '#core/validate/comment-endpoints.js';

describe('core/model/handler-modules', () => {
  it('knows which files are handler modules', () => {
    for (const ok of ['handlers.ts', 'a/b.mts', 'x.js', 'x.mjs']) assert.equal(isHandlerModulePath(ok), true, ok);
    for (const bad of ['types.d.ts', 'x.test.ts', 'x.spec.js', 'x.kit', 'x.json', 'x.tsx'])
      assert.equal(isHandlerModulePath(bad), false, bad);
  });

  it('reads exports and endpoint comments directly above them, with guards', () => {
    const text = [
      '// a module',
      'export async function Send(ctx: unknown) {}',
      '//kit:api get /api/a',
      '//kit:guard auth.required, role:x',
      'export function A() {}',
      '//kit:act POST /b',
      'export const B = () => 1;',
      '',
      'export function* Gen() {}',
    ].join('\n');
    const s = scanHandlerModule('m.ts', text);
    assert.deepEqual(
      s.exports.map((e) => e.name),
      ['Send', 'A', 'B', 'Gen'],
    );
    assert.deepEqual(s.diagnostics, []);
    assert.deepEqual(
      s.endpoints.map((e) => ({ kind: e.kind, method: e.method, path: e.path, fn: e.functionName, guards: e.guards })),
      [
        { kind: 'api', method: 'GET', path: '/api/a', fn: 'A', guards: ['auth.required', 'role:x'] },
        { kind: 'act', method: 'POST', path: '/b', fn: 'B', guards: undefined },
      ],
    );
    const a = s.endpoints[0];
    assert.deepEqual(
      [a.range.start.line, a.range.start.column, a.range.end.column],
      [2, 0, '//kit:api get /api/a'.length],
    );
    assert.deepEqual([a.functionRange.start.line, a.functionRange.start.column], [4, 'export function '.length]);
  });

  it('ignores //kit: text inside block comments and lines that only look alike', () => {
    const s = scanHandlerModule('m.ts', '/*\n//kit:api GET /x\n*/\n//kitx:api GET /y\nexport function F() {}\n');
    assert.deepEqual(s.endpoints, []);
    assert.deepEqual(s.diagnostics, []);
  });

  it('checks comment endpoints like their .kit counterparts', () => {
    const text = [
      '//kit:act GET /ok',
      '//kit:guard public',
      'export function GetAct() {}',
      '//kit:api TRACE /t',
      '//kit:guard public',
      'export function Trace() {}',
      '//kit:api GET /p/{id:uuid}',
      '//kit:guard public',
      'export function Typed() {}',
      '//kit:api GET /r/{rest...}',
      'export function Rest() {}',
    ].join('\n');
    const s = scanHandlerModule('m.ts', text);
    const ds = commentEndpointDiagnostics('m.ts', text, 'pkg', s.endpoints);
    assert.deepEqual(
      ds.map((d) => d.code),
      [
        'unsupported_action_method',
        'unsupported_api_method',
        'malformed_route',
        'malformed_route',
        'missing_endpoint_guard',
      ],
    );
    const typed = ds[2];
    // The range is the offending param inside the comment, as for routes in .kit files.
    assert.equal(
      text.split('\n')[typed.range.start.line].slice(typed.range.start.column, typed.range.end.column),
      '{id:uuid}',
    );
    assert.match(typed.message, /^pkg\.Typed declares invalid \/\/kit:api endpoint path: /);
    const rest = ds[3];
    assert.equal(
      text.split('\n')[rest.range.start.line].slice(rest.range.start.column, rest.range.end.column),
      '{rest...}',
    );
    assert.equal(ds[4].severity, 'warning');
  });
});
