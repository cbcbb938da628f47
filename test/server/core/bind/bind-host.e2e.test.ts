// Binding on a worker thread (`bind-host.ts`): a load whose binding a worker did gives exactly what a
// load bound in its own thread gives (diagnostics, bindings, reports, build output); a directory
// whose files changed after the worker was asked binds again here; a worker that dies answers
// nothing and the load binds in its own thread.
import assert from 'node:assert/strict';
import { loadProject, loadProjectAsync } from '#core/project/load.js';
import {
  BIND_WORKER_MIN_FILES,
  BIND_WORKER_MIN_FILES_TWO_CORES,
  BindWorker,
  bindWorkerSettings,
  loadBindWorkerMinFiles,
  useBindWorker,
} from '#core/bind/bind-host.js';
import { Workspace } from '#core/workspace/workspace.js';
import type { LoadedProject } from '#core/project/load.js';
import { fixture } from '#test/helpers/repo.js';
import { runProcess, TempTree } from '../../cli/cli-harness.js';
import { treeHashes } from '#test/helpers/tree-hashes.js';

/** Everything binding decides, as text: every diagnostic, and each file's bindings. */
function bindingView(p: LoadedProject): string {
  const ws = p.workspace;
  const files = [...ws.kitPaths(), ...ws.modulePaths()].sort();
  return JSON.stringify({
    diagnostics: ws.allDiagnostics(),
    bindings: files.map((f) => ws.bindingFor(f) ?? null),
  });
}

/** `KIT_BIND_WORKER=1` as a front door reads it. */
const ON_WORKER = { bindWorker: bindWorkerSettings({ KIT_BIND_WORKER: '1' }) };

describe('binding on a worker thread', function () {
  this.timeout(60000);

  it('is used for large workspaces with modules, never without modules, and as KIT_BIND_WORKER says', () => {
    assert.equal(useBindWorker(5000, 10, {}), true);
    assert.equal(useBindWorker(10, 10, {}), false);
    assert.equal(useBindWorker(5000, 0, bindWorkerSettings({ KIT_BIND_WORKER: '1' })), false);
    assert.equal(useBindWorker(10, 1, bindWorkerSettings({ KIT_BIND_WORKER: '1' })), true);
    assert.equal(useBindWorker(5000, 10, bindWorkerSettings({ KIT_BIND_WORKER: '0' })), false);
  });

  it('starts for a one-shot load from 7,500 files on two cores or fewer, from 200 on more', () => {
    assert.equal(loadBindWorkerMinFiles(1), BIND_WORKER_MIN_FILES_TWO_CORES);
    assert.equal(loadBindWorkerMinFiles(2), 7500);
    assert.equal(loadBindWorkerMinFiles(4), BIND_WORKER_MIN_FILES);
    assert.equal(useBindWorker(5000, 10, {}, loadBindWorkerMinFiles(2)), false);
    assert.equal(useBindWorker(7500, 10, {}, loadBindWorkerMinFiles(2)), true);
    assert.equal(useBindWorker(200, 10, {}, loadBindWorkerMinFiles(8)), true);
    assert.equal(useBindWorker(10, 1, bindWorkerSettings({ KIT_BIND_WORKER: '1' }), loadBindWorkerMinFiles(2)), true);
  });

  for (const name of ['bind', 'conformance/multi']) {
    it(`gives the diagnostics and bindings of an own-thread load (${name})`, async () => {
      const root = fixture(name);
      const here = loadProject(['.'], { ssr: true }, root);
      const there = await loadProjectAsync(['.'], { ssr: true }, root, ON_WORKER);
      assert.ok(there.workspace.allDiagnostics().length > 0, 'the fixture has binding diagnostics');
      assert.ok(there.workspace.inspection.prebound > 0, 'the worker bound');
      assert.equal(bindingView(there), bindingView(here));
      const strictHere = loadProject(['.'], { ssr: true, strictBindings: true }, root);
      const strictThere = await loadProjectAsync(['.'], { ssr: true, strictBindings: true }, root, ON_WORKER);
      assert.equal(bindingView(strictThere), bindingView(strictHere));
    });
  }

  it('a directory changed after the worker was asked binds again here; the others take its answer', async () => {
    const root = fixture('bind');
    const ws = new Workspace({ ssr: true }, root);
    const fresh = new Workspace({ ssr: true }, root);
    const base = loadProject(['.'], { ssr: true }, root).workspace;
    const modules = base.modulePaths().map((path) => ({ path, text: base.module(path)!.text }));
    for (const w of [ws, fresh]) {
      for (const k of base.kitPaths()) w.setKitFile(k, base.kit(k)!.text);
      for (const m of modules) w.setModule(m.path, m.text);
    }
    const job = ws.prebindJob();
    assert.ok(job.scopes.length > 0);
    const worker = BindWorker.start({ cwd: root, modules });
    assert.ok(worker, 'a worker starts');
    const results = await worker.bind(job.scopes);
    await worker.close();
    assert.ok(results, 'the worker answers');
    // The page loses an action after the worker bound it: its directory's answer no longer holds.
    const page = 'signatures/page.kit';
    const edited = base.kit(page)!.text.replace(/^act Plain .*$/m, '');
    assert.notEqual(edited, base.kit(page)!.text);
    ws.setKitFile(page, edited);
    fresh.setKitFile(page, edited);
    job.accept(results);
    ws.flush();
    fresh.flush();
    assert.equal(ws.inspection.prebound, job.scopes.length - 1, 'every other directory took its answer');
    assert.equal(JSON.stringify(ws.allDiagnostics()), JSON.stringify(fresh.allDiagnostics()));
    assert.equal(JSON.stringify(ws.bindingFor(page)), JSON.stringify(fresh.bindingFor(page)));
    assert.ok(!JSON.stringify(ws.bindingFor(page)).includes('"Plain"'), 'the removed action is not bound');
  });

  it('a module changed after the worker was asked: no answer is taken', async () => {
    const root = fixture('bind');
    const base = loadProject(['.'], { ssr: true }, root).workspace;
    const modules = base.modulePaths().map((path) => ({ path, text: base.module(path)!.text }));
    const ws = new Workspace({ ssr: true }, root);
    for (const k of base.kitPaths()) ws.setKitFile(k, base.kit(k)!.text);
    for (const m of modules) ws.setModule(m.path, m.text);
    const job = ws.prebindJob();
    const worker = BindWorker.start({ cwd: root, modules })!;
    const results = (await worker.bind(job.scopes))!;
    await worker.close();
    const mod = 'signatures/handlers.ts';
    const text = base.module(mod)!.text.replace('export function Plain(', 'export function Plain2(');
    assert.notEqual(text, base.module(mod)!.text);
    ws.setModule(mod, text);
    job.accept(results);
    ws.flush();
    const plain = ws.bindingFor('signatures/page.kit')?.handlers.find((h) => h.name === 'Plain');
    assert.equal(plain?.status, 'missing', 'bound against the module as it is now');
    assert.equal(ws.inspection.prebound, 0);
  });

  it('a worker that dies (out of memory) answers nothing, and the load binds in its own thread', async () => {
    const root = fixture('bind');
    const worker = BindWorker.start({ cwd: root, modules: [{ path: 'x.ts', text: '' }], heapMb: 1 });
    assert.ok(worker);
    const ws = loadProject(['.'], { ssr: true }, root).workspace;
    assert.equal(await worker.bind(ws.prebindJob().scopes), undefined);
    await worker.close();
    const here = loadProject(['.'], { ssr: true }, root);
    const env = { ...process.env, KIT_BIND_WORKER: '1', KIT_BIND_WORKER_HEAP_MB: '1' };
    const viaCli = await runProcess(['check', '--ssr', '--json', '.'], root, { env });
    const own = await runProcess(['check', '--ssr', '--json', '.'], root, { env: { ...env, KIT_BIND_WORKER: '0' } });
    assert.equal(viaCli.code, own.code, viaCli.stderr);
    assert.equal(viaCli.stdout, own.stdout);
    assert.ok(here.workspace.allDiagnostics().length > 0);
  });

  it('kit check, kit routes and kit build answer the same through a worker', async () => {
    const tree = new TempTree();
    try {
      tree.write(
        'site/home.kit',
        'page home\nroute "/"\nguard public\nrender ssr\n\nserver {\n  => { title }\n}\n\n' +
          'act Save POST "/save"\n\nview {\n  <h1>{title}</h1>\n}\n',
      );
      tree.write(
        'site/handlers.ts',
        'export function LoadHome(ctx: unknown) { return { title: "Home" }; }\n' +
          'export function Save(ctx: unknown, input: { q: string }) { return input.q; }\n',
      );
      const run = (worker: string, args: string[]) =>
        runProcess(args, tree.root, { env: { ...process.env, KIT_BIND_WORKER: worker } });
      for (const args of [
        ['check', '--ssr', '--json', 'site'],
        ['routes', '--ssr', '--json', 'site'],
        ['endpoints', '--ssr', '--json', 'site'],
      ]) {
        const [a, b] = [await run('0', args), await run('1', args)];
        assert.equal(a.code, 0, a.stderr);
        assert.equal(b.stdout.replace(/"ms":\s*[\d.]+/g, ''), a.stdout.replace(/"ms":\s*[\d.]+/g, ''));
      }
      const built = await Promise.all(['0', '1'].map((w) => run(w, ['build', '--ssr', '--out', `out${w}`, 'site'])));
      for (const r of built) assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(treeHashes(tree.path('out1')), treeHashes(tree.path('out0')));
    } finally {
      tree.dispose();
    }
  });
});
