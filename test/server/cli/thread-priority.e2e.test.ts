// One-shot commands lower the process's other threads (V8's compiler and collector helpers) to the
// least priority before their code loads (`cli/thread-priority.ts`): checked in a child process,
// by reading each thread's priority back from /proc, so that this test runner's threads keep theirs.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ONE_SHOT_COMMANDS } from '#cli/commands/names.js';
import { outDir } from '#test/helpers/repo.js';

/** Runs `yieldHelperThreads` in a fresh Node process; what it answered and each thread's nice value. */
function inChild(): { lowered: number; main: number; others: number[] } {
  const module = pathToFileURL(join(outDir, 'server', 'src', 'cli', 'thread-priority.js')).href;
  const script = `
    import { readdirSync, readFileSync } from 'node:fs';
    const { yieldHelperThreads } = await import(${JSON.stringify(module)});
    const lowered = yieldHelperThreads();
    const nice = (t) => Number(readFileSync('/proc/self/task/' + t + '/stat', 'utf8').split(') ')[1].split(' ')[16]);
    const tasks = readdirSync('/proc/self/task').map(Number);
    console.log(JSON.stringify({ lowered, main: nice(process.pid), others: tasks.filter((t) => t !== process.pid).map(nice) }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { lowered: number; main: number; others: number[] };
}

describe('cli: thread priority of one-shot commands', () => {
  it('lowers every thread but the main one (Linux)', function () {
    if (process.platform !== 'linux') this.skip();
    const { lowered, main, others } = inChild();
    assert.ok(lowered > 0, 'Node starts helper threads before any code runs');
    assert.equal(main, 0, 'the main thread keeps its priority');
    // Threads started after the call (none here but what Node starts lazily) keep the main one's.
    assert.ok(others.filter((n) => n === 19).length >= lowered, `priorities ${others.join(' ')}`);
  });

  it('only for commands that run once: the editor server, dev and preview keep the defaults', () => {
    for (const c of ['check', 'build', 'routes', 'endpoints', 'inspect', 'fmt']) assert.ok(ONE_SHOT_COMMANDS.has(c), c);
    for (const c of ['lsp', 'dev', 'preview', 'init']) assert.ok(!ONE_SHOT_COMMANDS.has(c), c);
  });
});
