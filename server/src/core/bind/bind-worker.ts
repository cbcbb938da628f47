// The binding side of `bind-host.ts`, run in a worker thread: a `Binder` of its own over the handler
// modules it is started with. It loads the TypeScript compiler, parses the modules and builds the
// type checker at once, at the lowest priority, while the main thread parses the `.kit` files; then
// it binds the directories it is sent, at its own priority again (`thread-priority.ts`), and
// answers their bindings.
import { parentPort, workerData } from 'node:worker_threads';
import { Binder, type BindOptions, type BindScope, type DirectoryBinding } from './binder.js';
import type { BindTarget } from './targets.js';
import type { BindWorkerData, PlainScope } from './bind-host.js';
import { yieldToMainThread } from './thread-priority.js';

function revive(s: PlainScope): BindScope<PlainScope['kits'][number]> {
  return {
    dir: s.dir,
    packageName: s.packageName,
    kits: s.kits,
    targetsOf: (k): readonly BindTarget[] => k.targets,
    keep: false,
    modules: s.modules,
    packageModules: (name) => s.packages[name] ?? { dirs: [], modules: [] },
  };
}

const ownPriority = yieldToMainThread();
const data = workerData as BindWorkerData;
const options: BindOptions = { strictBindings: data.strictBindings };
const binder = new Binder(data.cwd);
for (const m of data.modules) binder.setModule(m.path, m.text);
binder.warm(data.modules.map((m) => m.path));
parentPort!.on('message', (json: string) => {
  ownPriority();
  const scopes = JSON.parse(json) as PlainScope[];
  const out: DirectoryBinding[] = scopes.map((s) => binder.bindDirectory(revive(s), options));
  // As text: one string crosses the thread faster than the object graph, and ranges become plain.
  parentPort!.postMessage(JSON.stringify(out));
});
