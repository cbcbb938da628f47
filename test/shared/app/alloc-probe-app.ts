// Run by alloc.e2e.test.ts in a child process with --expose-gc and a large young generation: the heap
// a generated app allocates per static GET with tracing off, over many requests through
// `KitApp.handle` with request and response objects that do nothing (so that what is counted is
// the app's own work, not Node's sockets), and whether any collection ran meanwhile.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KitApp } from '#shared/app/app.js';
import { bytesPerCall } from '../../helpers/alloc.js';
import type { AppManifest } from '#shared/app/manifest.js';

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

const { bytesPerCall: bytesPerRequest, collections } = await bytesPerCall(loop, CALLS);
process.stdout.write(JSON.stringify({ bytesPerRequest, collections, sent }));
