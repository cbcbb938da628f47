// Reading a workspace folder into its model: `.kit` files first (module package names come from
// their `package` declarations; on loading threads with `KIT_WORKERS`), a batch per event-loop
// turn so that requests are answered meanwhile, then every diagnostic but handler binding is
// published (`kit/status` ready), then binding, the TypeScript compiler's part (`kit/status` bound).
import type { Connection } from 'vscode-languageserver/node';
import { growYoungGenerationAtOnce, reduceMemory } from './memory.js';
import { discoverSources } from '#core/project/discover.js';
import { ParsePool } from '#core/project/parse-pool.js';
import { threadSettings } from '#core/project/load.js';
import { ReadAhead } from '#core/project/read-ahead.js';
import { BindWorker, useBindWorker } from '#core/bind/bind-host.js';
import type { OpenDocuments } from './documents.js';
import type { KitProject, ProjectSet } from './projects.js';
import { readText } from './projects.js';
import type { Publisher } from './publishing.js';
import { isKitPath, syncDocument } from './sync.js';
import { KIT_NOTIFICATIONS, type StatusParams } from '#shared/protocol/protocol.js';

/** Files read from disk per event-loop turn while indexing, so requests are answered meanwhile. */
const INDEX_BATCH = 250;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface IndexingHost {
  connection: Connection;
  projects: ProjectSet;
  docs: OpenDocuments;
  publisher: Publisher;
  /** Publishes whatever changed in any model (binding results included). */
  settle(): void;
  log(message: string): void;
}

export class Indexer {
  private readonly running = new Set<Promise<void>>();
  /** Loading threads and the binding worker: the language server reads them from its environment. */
  private readonly threads = threadSettings(process.env);

  constructor(private readonly host: IndexingHost) {}

  index(p: KitProject): void {
    p.indexing = true;
    const job = this.indexProject(p)
      .catch((e: unknown) => this.host.log(`kit: indexing ${p.root} failed: ${(e as Error).message}`))
      .finally(() => {
        p.indexing = false;
        this.running.delete(job);
      });
    this.running.add(job);
  }

  /**
   * For a large folder with handler modules, once everything but binding is published: binding on a
   * worker thread (`bind-host.ts`) with the modules' texts as the model has them, so that this
   * thread answers requests meanwhile and never loads the TypeScript compiler for it. Not earlier:
   * on two cores a worker busy during indexing delays the first diagnostics more than it saves
   * (measured again with the worker at the lowest thread priority: first diagnostics 15% later,
   * binding done 5–20% sooner; the two cores slow each other down on this kind of work).
   */
  private async bindOnWorker(p: KitProject): Promise<void> {
    const paths = p.ws.modulePaths();
    // From `BIND_WORKER_MIN_FILES` on whatever the cores, unlike a one-shot load: here the worker
    // is what keeps this thread answering requests while a large folder binds.
    const settings = this.threads.bindWorker;
    if (!useBindWorker(p.ws.kitPaths().length, paths.length, settings)) return;
    const modules = paths.map((path) => ({ path, text: p.ws.module(path)!.text }));
    const strictBindings = p.ws.options.strictBindings;
    const worker = BindWorker.start({ cwd: p.root!, heapMb: settings?.heapMb, strictBindings, modules });
    if (!worker) return;
    try {
      const job = p.ws.prebindJob();
      const results = await worker.bind(job.scopes);
      if (results) job.accept(results);
    } finally {
      void worker.close();
    }
  }

  /**
   * Loading threads for a folder's `.kit` files (`KIT_WORKERS`), as `kit check` has them; the
   * documents open in the editor keep their own trees (their files are skipped as they come).
   */
  private startPool(p: KitProject, kitFiles: string[]): ParsePool | undefined {
    const { threads, minFiles, test } = this.threads.pool;
    if (threads < 2 || kitFiles.length < minFiles || p.ws.policy.checked !== 'drop') return undefined;
    const files = kitFiles.map((path) => ({ path, abs: p.fsPathOf(path) }));
    return ParsePool.start({ files, options: p.ws.options, cwd: p.root!, test }, threads);
  }

  private async indexProject(p: KitProject): Promise<void> {
    const { connection, projects, docs, publisher } = this.host;
    const started = performance.now();
    const root = p.root!;
    let found: { kitFiles: string[]; modules: string[] };
    try {
      found = discoverSources([root], root);
    } catch (e) {
      this.host.log(`kit: cannot index ${root}: ${(e as Error).message}`);
      return;
    }
    const pool = this.startPool(p, found.kitFiles);
    // With loading threads the `.kit` files come from the pool, the modules are read here.
    const keys = pool ? found.modules : [...found.kitFiles, ...found.modules];
    const ahead = new ReadAhead(keys.map((k) => p.fsPathOf(k)));
    try {
      let taken = 0;
      for (let more = pool !== undefined; more; ) {
        if (!projects.folderProjects().includes(p)) return; // the folder was removed meanwhile
        more = pool!.step((i, pooled) => {
          const key = found.kitFiles[i];
          const fsPath = p.fsPathOf(key);
          if (docs.has(fsPath)) return; // the open buffer wins
          if (pooled) p.ws.setAnalysedKitFile(key, pooled.text, pooled.analysis);
          else {
            const source = readText(fsPath);
            if (source) p.ws.setKitFile(key, source.text, undefined, source.diagnostics);
          }
          taken++;
        });
        if (taken >= INDEX_BATCH) {
          taken = 0;
          await turn();
        }
      }
      for (let i = 0; i < keys.length; i += INDEX_BATCH) {
        if (!projects.folderProjects().includes(p)) return; // the folder was removed meanwhile
        for (let j = i; j < Math.min(keys.length, i + INDEX_BATCH); j++) {
          const key = keys[j];
          const fsPath = p.fsPathOf(key);
          if (docs.has(fsPath)) {
            // The open buffer wins. An open `.kit` document is in the model already; a module opened
            // before its directory's `.kit` files were read belonged nowhere then, so it comes in now
            // (from the disk only when the buffer cannot be taken: too large, binary).
            if (isKitPath(key)) continue;
            syncDocument(p, docs, fsPath);
            if (p.ws.has(key)) continue;
          }
          const early = ahead.take(j);
          const source = early !== undefined ? { text: early.text, diagnostics: [] } : readText(fsPath);
          if (source === undefined) continue;
          if (isKitPath(key)) p.ws.setKitFile(key, source.text, undefined, source.diagnostics);
          else p.ws.setModule(key, source.text, source.diagnostics);
        }
        await turn();
      }
    } finally {
      pool?.close();
      p.pooled += pool?.received ?? 0;
      ahead.close();
    }
    this.host.settle(); // the open documents, and the other projects
    for (const key of p.ws.takeAffected({ defer: (k) => k.startsWith('bind:') })) publisher.publish(p, key);
    p.indexing = false;
    const status = (state: StatusParams['state']): StatusParams => ({
      state,
      root: p.uri,
      files: p.ws.kitPaths().length,
      modules: p.ws.modulePaths().length,
      ms: Math.round(performance.now() - started),
    });
    // Written out (with the diagnostics before it) before binding takes the thread.
    await connection.sendNotification(KIT_NOTIFICATIONS.status.method, status('ready'));
    p.types?.schedule(p.ws, 'all');
    await this.bindOnWorker(p);
    await turn();
    this.host.settle();
    // The compiler's state is most of the memory binding took; edits re-bind a directory at a time,
    // re-parsing just its modules.
    if (!p.ws.hasPendingWork) p.ws.releaseBinder();
    await connection.sendNotification(KIT_NOTIFICATIONS.status.method, status('bound'));
    // Indexing leaves a lot of garbage; give it back once everything is published.
    if (await reduceMemory()) growYoungGenerationAtOnce();
  }
}
