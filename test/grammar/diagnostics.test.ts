// One row per syntax diagnostic: the code, the exact range, the message where it matters, and
// recovery (the declaration after the broken one is still parsed).
import assert from 'node:assert/strict';
import { parseKit, type Element, type Interpolation } from '#grammar/index.js';
import { assertRangesConsistent, decl, elements, lc, slice } from './helpers.js';

interface Row {
  name: string;
  source: string;
  code: string;
  /** Exact range of the (first) diagnostic with this code. */
  range: [number, number, number, number];
  /** The text under the range, as a readable double check. */
  covers: string;
  message?: string | RegExp;
  /** Declaration kinds expected in the result, in order (recovery). */
  kinds?: string[];
  path?: string;
}

const rows: Row[] = [
  {
    name: 'act with a missing method',
    source: 'act Save\nguard public\n',
    code: 'parse_error',
    range: [0, 0, 0, 8],
    covers: 'act Save',
    message: 'act declaration needs a symbol, a method and optionally a path: act <Symbol> POST "/path"',
    kinds: ['guard'],
  },
  {
    name: 'unexpected token after a complete declaration',
    source: 'act Save POST "/x" junk\nguard public\n',
    code: 'parse_error',
    range: [0, 19, 0, 23],
    covers: 'junk',
    message: /^unexpected `junk`; act declaration needs/,
    kinds: ['guard'],
  },
  {
    name: 'unquoted path',
    source: 'api Ping GET /api/ping\nroute "/x"\n',
    code: 'parse_error',
    range: [0, 13, 0, 22],
    covers: '/api/ping',
    message: 'unexpected `/api/ping`; paths are quoted strings: "/api/ping"',
    kinds: ['route'],
  },
  {
    name: 'route without a quoted pattern',
    source: 'route /x\nguard public\n',
    code: 'parse_error',
    range: [0, 6, 0, 8],
    covers: '/x',
    message: 'route declaration needs a quoted pattern: route "/path"',
    kinds: ['guard'],
  },
  {
    name: 'fragment header without a target',
    source: 'fragment Row GET "/rows" {\n  <tr></tr>\n}\nguard public\n',
    code: 'parse_error',
    range: [0, 0, 0, 26],
    covers: 'fragment Row GET "/rows" {',
    message: /^fragment declaration needs a name, a method, a quoted route and a quoted "#target"/,
    kinds: ['guard'],
  },
  {
    name: 'unknown cors option',
    source: 'api Ping GET "/p" cors origin "x"\nguard public\n',
    code: 'parse_error',
    range: [0, 23, 0, 29],
    covers: 'origin',
    message: /^unknown cors option `origin`/,
    kinds: ['guard'],
  },
  {
    name: 'paths record with a missing comma',
    source: 'paths {\n  => { a: "1" b: "2" }\n  => { a: "3" }\n}\nguard public\n',
    code: 'parse_error',
    range: [1, 14, 1, 15],
    covers: 'b',
    message: 'expected `,` between fields',
    kinds: ['paths', 'guard'],
  },
  {
    name: 'prop without a type',
    source: 'props {\n  caption\n  size int = 3\n}\n',
    code: 'parse_error',
    range: [1, 2, 1, 9],
    covers: 'caption',
    kinds: ['props'],
  },
  {
    name: 'unterminated string',
    source: 'route "/x\nguard public\n',
    code: 'unterminated_string',
    range: [0, 6, 0, 9],
    covers: '"/x',
    kinds: ['route', 'guard'],
  },
  {
    name: 'unterminated string in a view attribute',
    source: 'view {\n  <a href="/x>go</a>\n}\nguard public\n',
    code: 'unterminated_string',
    range: [1, 10, 1, 20],
    covers: '"/x>go</a>',
    kinds: ['view', 'guard'],
  },
  {
    name: 'view block not closed at the end of the file',
    source: 'route "/x"\nview {\n  <p>x</p>\n',
    code: 'unterminated_block',
    range: [1, 0, 1, 6],
    covers: 'view {',
    kinds: ['route', 'view'],
  },
  {
    name: 'paths block cut short by a declaration at column 0',
    source: 'paths {\n  => { a: "b" }\nact Save POST "/s"\n',
    code: 'unterminated_block',
    range: [0, 0, 0, 7],
    covers: 'paths {',
    message: '`paths {` block is not closed: add the `}` that ends it',
    kinds: ['paths', 'act'],
  },
  {
    name: 'view cut short by a declaration at column 0',
    source: 'view {\n  <p>x</p>\nroute "/next"\n',
    code: 'unterminated_block',
    range: [0, 0, 0, 6],
    covers: 'view {',
    message: '`view {` block is not closed: end it with a line that is exactly `}`',
    kinds: ['view', 'route'],
  },
  {
    name: 'misspelled keyword',
    source: 'rout "/x"\nguard public\n',
    code: 'unknown_declaration',
    range: [0, 0, 0, 4],
    covers: 'rout',
    message: 'unknown declaration "rout"; did you mean "route"?',
    kinds: ['guard'],
  },
  {
    name: 'unknown word with no close keyword',
    source: 'whatever 1\nguard public\n',
    code: 'unknown_declaration',
    range: [0, 0, 0, 8],
    covers: 'whatever',
    message: /^unknown declaration "whatever"; expected a declaration keyword/,
    kinds: ['guard'],
  },
  {
    name: 'a word that is also an Object.prototype member',
    source: 'constructor "x"\nvalueOf\nguard public\n',
    code: 'unknown_declaration',
    range: [0, 0, 0, 11],
    covers: 'constructor',
    kinds: ['guard'],
  },
  {
    name: 'load block (renamed server)',
    source: 'load {\n  => { a }\n}\nguard public\n',
    code: 'unsupported_top_level_block',
    range: [0, 0, 0, 4],
    covers: 'load',
    message: /renamed `server \{\}`/,
    kinds: ['guard'],
  },
  ...(['build', 'client', 'exports', 'emits'] as const).map(
    (kw): Row => ({
      name: `${kw} block`,
      source: `${kw} {\n  x\n}\nguard public\n`,
      code: 'unsupported_top_level_block',
      range: [0, 0, 0, kw.length],
      covers: kw,
      message: /not supported by kit/,
      kinds: ['guard'],
    }),
  ),
  {
    name: 'go block',
    source: 'go {\n}\nguard public\n',
    code: 'unsupported_top_level_block',
    range: [0, 0, 0, 2],
    covers: 'go',
    kinds: ['guard'],
  },
  {
    name: 'go client block',
    source: 'go client {\n}\nguard public\n',
    code: 'unsupported_top_level_block',
    range: [0, 0, 0, 9],
    covers: 'go client',
    message: /not supported by kit/,
    kinds: ['guard'],
  },
  {
    name: 'state declaration',
    source: 'state ui.State = ui.Init()\nguard public\n',
    code: 'unsupported_top_level_block',
    range: [0, 0, 0, 5],
    covers: 'state',
    message: /not supported by kit/,
    kinds: ['guard'],
  },
  {
    name: 'unknown block with a close keyword',
    source: 'veiw {\n  <p></p>\n}\nguard public\n',
    code: 'unsupported_top_level_block',
    range: [0, 0, 0, 4],
    covers: 'veiw',
    message: 'unknown block `veiw {`; did you mean "view"?',
    kinds: ['guard'],
  },
  {
    name: 'legacy @ metadata',
    source: '@route "/x"\nguard public\n',
    code: 'malformed_legacy_metadata',
    range: [0, 0, 0, 6],
    covers: '@route',
    message: /write `route \.\.\.` without `@`/,
    kinds: ['guard'],
  },
  {
    name: 'old action block',
    source: 'act Save {\n  method POST\n}\nguard public\n',
    code: 'old_action_block_syntax',
    range: [0, 0, 0, 10],
    covers: 'act Save {',
    message: /act Save POST "\/path"/,
    kinds: ['guard'],
  },
  {
    name: 'old api block',
    source: 'api Ping {\n}\nguard public\n',
    code: 'old_api_block_syntax',
    range: [0, 0, 0, 10],
    covers: 'api Ping {',
    kinds: ['guard'],
  },
  {
    name: 'unclosed element (range on the open tag name)',
    source: 'view {\n  <div><p>x</p>\n}\nguard public\n',
    code: 'view_parse_error',
    range: [1, 3, 1, 6],
    covers: 'div',
    message: '`<div>` is not closed: add `</div>` or write `<div />`',
    kinds: ['view', 'guard'],
  },
  {
    name: 'mismatched close tag',
    source: 'view {\n  <section><p>x</section>\n}\n',
    code: 'view_parse_error',
    range: [1, 12, 1, 13],
    covers: 'p',
    message: '`<p>` is not closed: add `</p>` or write `<p />`',
    kinds: ['view'],
  },
  {
    name: 'close tag without an opener',
    source: 'view {\n  <p>x</p></span>\n}\n',
    code: 'view_parse_error',
    range: [1, 10, 1, 17],
    covers: '</span>',
    message: '`</span>` has no matching `<span>`',
    kinds: ['view'],
  },
  {
    name: 'dynamic tag',
    source: 'view {\n  <{tag} />\n}\n',
    code: 'view_parse_error',
    range: [1, 2, 1, 8],
    covers: '<{tag}',
    message: /dynamic tag names/,
    kinds: ['view'],
  },
  {
    name: 'mixed-case tag name',
    source: 'view {\n  <dIv></dIv>\n}\n',
    code: 'view_parse_error',
    range: [1, 3, 1, 6],
    covers: 'dIv',
    message: /^invalid tag name `<dIv>`/,
    kinds: ['view'],
  },
  {
    name: 'closing tag of a void element',
    source: 'view {\n  <br></br>\n}\n',
    code: 'view_parse_error',
    range: [1, 6, 1, 11],
    covers: '</br>',
    message: /void element/,
    kinds: ['view'],
  },
  {
    name: 'unclosed markup comment',
    source: 'view {\n  <!-- note\n}\n',
    code: 'view_parse_error',
    range: [1, 2, 1, 6],
    covers: '<!--',
    kinds: ['view'],
  },
  {
    name: '{#if} block',
    source: 'view {\n  {#if user}<p>x</p>{/if}\n}\n',
    code: 'unsupported_markup_syntax',
    range: [1, 2, 1, 12],
    covers: '{#if user}',
    message: /g:if=\{condition\}.*g:lane="server"/,
    kinds: ['view'],
  },
  {
    name: '{#each} block',
    source: 'view {\n  {#each items as item}<li></li>{/each}\n}\n',
    code: 'unsupported_markup_syntax',
    range: [1, 2, 1, 23],
    covers: '{#each items as item}',
    message: /g:for=\{item in items\}.*g:lane="server"/,
    kinds: ['view'],
  },
  {
    name: '{@html}',
    source: 'view {\n  <div>{@html body}</div>\n}\n',
    code: 'unsupported_markup_syntax',
    range: [1, 7, 1, 19],
    covers: '{@html body}',
    message: /g:unsafe-html.*not supported/,
    kinds: ['view'],
  },
  ...(['{#snippet row()}', '{@const x = 1}', '{@debug x}', '{:else}', '{/if}'] as const).map(
    (syntax): Row => ({
      name: syntax,
      source: `view {\n  ${syntax}\n}\n`,
      code: 'unsupported_markup_syntax',
      range: [1, 2, 1, 2 + syntax.length],
      covers: syntax,
      message: /is not supported/,
      kinds: ['view'],
    }),
  ),
  {
    name: 'spread attribute',
    source: 'view {\n  <Card {...props} />\n}\n',
    code: 'unsupported_markup_syntax',
    range: [1, 8, 1, 18],
    covers: '{...props}',
    kinds: ['view'],
  },
  {
    name: 'unreadable interpolation',
    source: 'view {\n  <p>{a b}</p>\n}\nguard public\n',
    code: 'invalid_expression',
    range: [1, 8, 1, 9],
    covers: 'b',
    message: 'cannot read the expression `{a b}`: unexpected `b`',
    kinds: ['view', 'guard'],
  },
  {
    name: 'call other than param()',
    source: 'view {\n  <p title={fetch("x")}></p>\n}\n',
    code: 'invalid_expression',
    range: [1, 12, 1, 17],
    covers: 'fetch',
    message: /only param\("name"\) calls are allowed/,
    kinds: ['view'],
  },
  {
    name: 'unterminated interpolation',
    source: 'view {\n  <p>{name</p>\n}\n',
    code: 'invalid_expression',
    range: [1, 5, 1, 6],
    covers: '{',
    message: /unterminated `\{`/,
    kinds: ['view'],
  },
];

describe('grammar: syntax diagnostics', () => {
  for (const row of rows) {
    it(`${row.code}: ${row.name}`, () => {
      const file = parseKit(row.source, row.path ?? 'test.page.kit');
      assertRangesConsistent(row.source, file);
      const d = file.diagnostics.find((x) => x.code === row.code);
      assert.ok(d, `no ${row.code} in ${JSON.stringify(file.diagnostics.map((x) => [x.code, x.message]))}`);
      assert.deepEqual(lc(d.range), row.range, `range of ${row.code}: ${d.message}`);
      assert.equal(slice(row.source, d.range), row.covers);
      assert.equal(d.severity, 'error');
      if (typeof row.message === 'string') assert.equal(d.message, row.message);
      else if (row.message) assert.match(d.message, row.message);
      if (row.kinds)
        assert.deepEqual(
          file.declarations.map((x) => x.kind),
          row.kinds,
        );
    });
  }

  it('every syntax code of the table is exercised', () => {
    const codes = new Set(rows.map((r) => r.code));
    for (const c of [
      'parse_error',
      'unterminated_string',
      'unterminated_block',
      'unknown_declaration',
      'unsupported_top_level_block',
      'malformed_legacy_metadata',
      'old_action_block_syntax',
      'old_api_block_syntax',
      'view_parse_error',
      'unsupported_markup_syntax',
      'invalid_expression',
    ]) {
      assert.ok(codes.has(c), c);
    }
  });

  it('an unreadable interpolation becomes an InvalidExpr node', () => {
    const source = 'view {\n  <p>{a b}</p>\n}\n';
    const file = parseKit(source, 'x.page.kit');
    const p = elements(decl(file, 'view').body)[0];
    const interp = p.children[0] as Interpolation;
    assert.equal(interp.type, 'interp');
    assert.equal(interp.expr.type, 'invalid');
    assert.equal(interp.expr.type === 'invalid' && interp.expr.text, 'a b');
    assert.equal(slice(source, interp.expr.range), 'a b');
    assert.equal(slice(source, interp.range), '{a b}');
  });

  it('act with any method and symbol parses (the core judges them)', () => {
    const file = parseKit('act Save GET "/x"\nact lower PATCH\napi X FETCH "/y" error "/e.html"\n', 'x.page.kit');
    assert.deepEqual(file.diagnostics, []);
    const act = decl(file, 'act');
    assert.deepEqual([act.symbol.text, act.method.text, act.path?.value], ['Save', 'GET', '/x']);
    const bare = decl(file, 'act', 1);
    assert.deepEqual([bare.symbol.text, bare.method.text, bare.path], ['lower', 'PATCH', undefined]);
    const api = decl(file, 'api');
    assert.deepEqual([api.method.text, api.error?.value], ['FETCH', '/e.html']);
  });

  it('text after a closing brace is reported and the block keeps its own range', () => {
    const source = 'style {\n  a { color: red } } junk\nguard public\n';
    const file = parseKit(source, 'x.page.kit');
    assert.deepEqual(
      file.diagnostics.map((d) => [d.code, slice(source, d.range)]),
      [['parse_error', 'junk']],
    );
    const style = decl(file, 'style');
    assert.deepEqual(lc(style.range), [0, 0, 1, 25]);
    assert.equal(style.css, '  a { color: red } ');
    assert.deepEqual(
      file.declarations.map((d) => d.kind),
      ['style', 'guard'],
    );
  });

  it('a broken line is reported once and the file keeps going', () => {
    const source = 'package site\nroute "/a" "/b"\nguard public,\nlayout frame\nview {\n  <p>ok</p>\n}\n';
    const file = parseKit(source, 'x.page.kit');
    assert.deepEqual(
      file.diagnostics.map((d) => [d.code, slice(source, d.range)]),
      [
        ['parse_error', '"/b"'],
        ['parse_error', ','],
      ],
    );
    assert.deepEqual(
      file.declarations.map((d) => d.kind),
      ['package', 'layout', 'view'],
    );
    const view = decl(file, 'view');
    assert.equal((elements(view.body)[0] as Element).name, 'p');
  });
});
