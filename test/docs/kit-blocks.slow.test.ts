// Every fenced `kit` block of README.md and docs/ is checked with the core and reports exactly what
// its info string says (docs/contributing.md, "Documentation"). The drift cases change a copy of a
// page in memory and expect the checker to say what went wrong.
import { strict as assert } from 'node:assert';
import { checkKitBlocks } from '../../docs/tools/check-kit.js';
import { docPages, type Page } from '../../docs/tools/pages.js';

function page(path: string): Page {
  const found = docPages().find((p) => p.path === path);
  assert.ok(found, `${path} exists`);
  return found;
}

describe('docs: kit blocks', function () {
  this.timeout(60_000);

  it('every kit block of the README and docs/ checks as its info string says', () => {
    const pages = docPages();
    const blocks = pages.flatMap((p) => p.text.split('\n').filter((l) => l.startsWith('```kit')));
    assert.ok(blocks.length > 100, `${blocks.length} kit blocks`);
    assert.deepEqual(checkKitBlocks(pages), []);
  });

  it('catches a block that no longer shows the error it names', () => {
    const routing = page('docs/routing.md');
    const drifted = routing.text.replace('route "/blog/{id}"', 'route "/news/{id}"');
    assert.notEqual(drifted, routing.text);
    const problems = checkKitBlocks([{ path: routing.path, text: drifted }]);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(
      problems[0],
      /^docs\/routing\.md:\d+: kit block: expected error duplicate_route, but the block does not report it$/,
    );
  });

  it('catches an error in a block meant to be valid, at its line', () => {
    const language = page('docs/language.md');
    const drifted = language.text.replace('<h1>{slug}</h1>', '<h1>{slgu}</h1>');
    assert.notEqual(drifted, language.text);
    const problems = checkKitBlocks([{ path: language.path, text: drifted }]);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(
      problems[0],
      /^docs\/language\.md:\d+: kit block: unexpected error unknown_name at example\.kit:\d+:\d+: .*did you mean \{slug\}\?/,
    );
  });

  it('refuses an unknown attribute, a code that does not exist and a wrong severity', () => {
    const text = [
      '```kit erorr=duplicate_route',
      'route "/"',
      '```',
      '```kit error=no_such_code',
      'route "/"',
      '```',
      '```kit error=missing_page_guard',
      'route "/"',
      '```',
    ].join('\n');
    assert.deepEqual(checkKitBlocks([{ path: 'x.md', text }]), [
      'x.md:2: kit block: unknown attribute erorr (known: error,warning,fragment,ssr,file)',
      'x.md:5: kit block: no_such_code is not a diagnostic code',
      'x.md:8: kit block: missing_page_guard is a warning, not an error',
    ]);
  });

  it('checks fragments for syntax only', () => {
    const good = ['```kit fragment=view', '<p>{unknownName}</p>', '```'].join('\n');
    assert.deepEqual(checkKitBlocks([{ path: 'x.md', text: good }]), []);
    const bad = ['```kit fragment=view', '<p>{#if x}</p>', '```'].join('\n');
    assert.match(
      checkKitBlocks([{ path: 'x.md', text: bad }]).join('\n'),
      /unexpected error unsupported_markup_syntax/,
    );
  });
});
