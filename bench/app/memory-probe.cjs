// Preloaded into the app server of the resilience benchmark (`node --expose-gc --require
// memory-probe.cjs server.js`): answers `GET /` on KIT_PROBE_PORT with the process's memory after a
// full garbage collection, so the benchmark can read retained heap between phases. Never part of an app.
'use strict';
const http = require('node:http');
const port = Number(process.env.KIT_PROBE_PORT);
const turn = () => new Promise((resolve) => setImmediate(resolve));
http
  .createServer(async (req, res) => {
    // Several collections with turns between them: objects released by finalization callbacks
    // (undici's request bookkeeping, for one) go only after the callback has run.
    for (let i = 0; i < 4; i++) {
      global.gc?.();
      await turn();
    }
    const m = process.memoryUsage();
    res.end(JSON.stringify({ heapUsed: m.heapUsed, rss: m.rss, external: m.external, arrayBuffers: m.arrayBuffers }));
  })
  .listen(port, '127.0.0.1')
  .unref();
