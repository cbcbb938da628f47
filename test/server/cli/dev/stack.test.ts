// Stacks as kit dev shows them: the user's frames first, kit's, Node's and packages' folded into a
// count, whatever order they came in.
import { strict as assert } from 'node:assert';
import { foldStack } from '#cli/dev/stack.js';

describe('foldStack', () => {
  const project = '/home/ada/site';
  it('puts the user frames first and counts the rest, for each stack in the text', () => {
    const text = [
      'kit: load of page contact failed: TypeError: bad value',
      '    at check (/opt/kit/out/bundle/kit.cjs:1:53686)',
      '    at json (/opt/kit/out/bundle/kit.cjs:1:40211)',
      '    at Object.LoadContact (/home/ada/site/site/handlers.ts:12:9)',
      '    at helper (file:///home/ada/site/site/lib/util.ts:3:1)',
      '    at renderPage (/opt/kit/out/bundle/kit.cjs:1195:1)',
      '    at async Promise.all (index 0)',
      '    at dep (/home/ada/site/node_modules/dep/index.js:1:1)',
      '    at AsyncLocalStorage.run (node:async_hooks:346:14)',
      'and a line after',
    ].join('\n');
    assert.equal(
      foldStack(text, project),
      [
        'kit: load of page contact failed: TypeError: bad value',
        '    at Object.LoadContact (/home/ada/site/site/handlers.ts:12:9)',
        '    at helper (file:///home/ada/site/site/lib/util.ts:3:1)',
        '    … 6 frames of kit, Node.js and packages',
        'and a line after',
      ].join('\n'),
    );
  });

  it('a stack with no user frame is its count; text without a stack is left alone', () => {
    assert.equal(
      foldStack('Error: x\n    at f (/opt/kit/kit.cjs:1:2)', project),
      'Error: x\n    … 1 frame of kit, Node.js and packages',
    );
    assert.equal(foldStack('no stack here\n', project), 'no stack here\n');
    // A directory beside the project with the same prefix is not the project.
    assert.equal(
      foldStack('E\n    at f (/home/ada/site-other/x.ts:1:1)', project),
      'E\n    … 1 frame of kit, Node.js and packages',
    );
  });
});
