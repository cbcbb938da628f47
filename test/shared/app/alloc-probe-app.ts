// Run by alloc.test.ts in a child process with --expose-gc and a large young generation: the heap
// a generated app allocates per static GET with tracing off, over many requests through
// `KitApp.handle` with request and response objects that do nothing (so that what is counted is
// the app's own work, not Node's sockets), and whether any collection ran meanwhile.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GCProfiler } from 'node:v8';
import { KitApp } from '../../../shared/app/app.js';
import type { AppManifest } from '../../../shared/app/manifest.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('alloc-probe-app needs --expose-gc');

const manifest: AppManifest = {
  version: 1,
  app: 'probe',
  pages: [
    {
      pageId: 'home',
      package: 'site',
      route: '/',
      render: 'spa',
      guards: ['public'],
      layouts: [],
      files: { '/': 'index.html' },
      serverFields: [],
    },
  ],
  endpoints: [],
  static: { 'index.html': { file: 'index.html', type: 'text/html; charset=utf-8', cache: 'no-cache' } },
  templates: {},
};
const body = Buffer.from('<!doctype html><title>probe</title><h1>Home</h1>');
const app = new KitApp({ manifest, static: { kind: 'dir', read: () => body }, csrfSecret: 'x'.repeat(40) });

let sent = 0;
const req = { method: 'GET', url: '/', headers: {} } as unknown as IncomingMessage;
const res = {
  writeHead: () => res,
  end: () => {
    sent++;
    return res;
  },
} as unknown as ServerResponse;

const CALLS = 500_000;
function loop(n: number): void {
  for (let i = 0; i < n; i++) app.handle(req, res);
}

for (let k = 0; k < 100; k++) loop(5_000);
await new Promise((r) => setTimeout(r, 50));
let best = Infinity;
let collectionsSeen = 0;
for (let round = 0; round < 5 && best > 0.01; round++) {
  gc();
  const profiler = new GCProfiler();
  profiler.start();
  const before = process.memoryUsage().heapUsed;
  loop(CALLS);
  const after = process.memoryUsage().heapUsed;
  const collections = profiler.stop().statistics.length;
  if (collections > 0) collectionsSeen = collections;
  else if ((after - before) / CALLS < best) best = (after - before) / CALLS;
}
process.stdout.write(
  JSON.stringify({ bytesPerRequest: best, collections: best === Infinity ? collectionsSeen : 0, sent }),
);
