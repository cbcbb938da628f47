// Reading a workspace folder into its model: `.kit` files first (module package names come from
// their `package` declarations), a batch per event-loop turn so that requests are answered
// meanwhile, then every diagnostic but handler binding is published (`kit/status` ready), then
// binding, the TypeScript compiler's part (`kit/status` bound).
import type { Connection } from 'vscode-languageserver/node';
import { growYoungGenerationAtOnce, reduceMemory } from './memory.js';
import { discoverSources } from '../core/project/discover.js';
import { ReadAhead } from '../core/project/read-ahead.js';
import { BindWorker, useBindWorker } from '../core/bind/bind-host.js';
import type { SourceText } from '../core/project/read-source.js';
import type { OpenDocuments } from './documents.js';
import type { KitProject, ProjectSet } from './projects.js';
import { readText } from './projects.js';
import type { Publisher } from './publishing.js';
import { isKitPath } from './sync.js';

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
   * For a large folder with handler modules: reads the modules first and starts a binding worker on
   * them (`bind-host.ts`), which loads the TypeScript compiler and the modules while this thread
   * parses the `.kit` files. An open module is taken as its buffer reads.
   */
  private startBinding(
    p: KitProject,
    found: { kitFiles: string[]; modules: string[] },
  ): { worker: BindWorker; texts: Map<string, SourceText> } | undefined {
    if (!useBindWorker(found.kitFiles.length, found.modules.length)) return undefined;
    const texts = new Map<string, SourceText>();
    const modules: { path: string; text: string }[] = [];
    for (const m of found.modules) {
      const fsPath = p.fsPathOf(m);
      const open = this.host.docs.has(fsPath) ? p.ws.module(m)?.text : undefined;
      const source = open === undefined ? readText(fsPath) : { text: open, diagnostics: [] };
      if (source === undefined) return undefined; // the loop reports it as it always has
      if (open === undefined) texts.set(m, source);
      modules.push({ path: m, text: source.text });
    }
    const worker = BindWorker.start({ cwd: p.root!, strictBindings: p.ws.options.strictBindings, modules });
    return worker && { worker, texts };
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
    const keys = [...found.kitFiles, ...found.modules];
    const early = this.startBinding(p, found);
    const ahead = new ReadAhead((early ? found.kitFiles : keys).map((k) => p.fsPathOf(k)));
    let read = false;
    try {
      for (let i = 0; i < keys.length; i += INDEX_BATCH) {
        if (!projects.folderProjects().includes(p)) return; // the folder was removed meanwhile
        for (let j = i; j < Math.min(keys.length, i + INDEX_BATCH); j++) {
          const key = keys[j];
          const fsPath = p.fsPathOf(key);
          if (docs.has(fsPath)) continue; // the open buffer wins
          const taken = ahead.take(j);
          const source =
            early?.texts.get(key) ?? (taken !== undefined ? { text: taken, diagnostics: [] } : readText(fsPath));
          if (source === undefined) continue;
          if (isKitPath(key)) p.ws.setKitFile(key, source.text, undefined, source.diagnostics);
          else p.ws.setModule(key, source.text, source.diagnostics);
        }
        await turn();
      }
      read = true;
    } finally {
      ahead.close();
      if (!read) void early?.worker.close();
    }
    const job = early && p.ws.prebindJob();
    const bound = job && early.worker.bind(job.scopes);
    this.host.settle(); // the open documents, and the other projects
    for (const key of p.ws.takeAffected({ defer: (k) => k.startsWith('bind:') })) publisher.publish(p, key);
    p.indexing = false;
    const status = (state: 'ready' | 'bound') => ({
      state,
      root: p.uri,
      files: p.ws.kitPaths().length,
      modules: p.ws.modulePaths().length,
      ms: Math.round(performance.now() - started),
    });
    // Written out (with the diagnostics before it) before binding takes the thread.
    await connection.sendNotification('kit/status', status('ready'));
    if (bound) {
      const results = await bound;
      void early.worker.close();
      if (results) job.accept(results);
    }
    await turn();
    this.host.settle();
    // The compiler's state is most of the memory binding took; edits re-bind a directory at a time,
    // re-parsing just its modules.
    if (!p.ws.hasPendingWork) p.ws.releaseBinder();
    await connection.sendNotification('kit/status', status('bound'));
    // Indexing leaves a lot of garbage; give it back once everything is published.
    if (await reduceMemory()) growYoungGenerationAtOnce();
  }
}
