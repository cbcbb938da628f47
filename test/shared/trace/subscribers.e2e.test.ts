// Live-trace subscribers that do not read cannot pin the collector's memory: with about 58 MiB of
// spans stored (1,024 spans near the 64 KiB span limit, as a busy `kit dev` holds), ten raw
// sockets that ask for `GET /_kit/traces/events` and never read are handed only what their
// connections buffer, within the shared cap, and are dropped after the stall budget, while a
// subscriber that reads gets every stored span and every new one, in order.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import {
  background,
  newCollector,
  newTracer,
  withAttributes,
  withExportQueueSize,
  withSink,
  type Collector,
} from '#shared/trace/index.js';
import { waitFor } from '../../helpers/wait.js';
import { close, listen } from './helpers.js';

const MOUNT = '/_kit/traces';
const STORED = 1024;

/** Attributes of one span near the span size limit, distinct per span as real ones are. */
function bigAttributes(i: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let k = 0; k < 28; k++) out[`a${k}`] = `${i}.${k}.`.padEnd(2000, 'x');
  return out;
}

/** A subscriber that reads everything and keeps only each event's span name. */
function reader(url: string): Promise<{ names: string[]; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    const names: string[] = [];
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        // Each event is one chunk of the chunked encoding, so its data line arrives whole.
        const m = /^data: \{"traceId":"\w+","spanId":"\w+",(?:"parentSpanId":"\w*",)?"name":"([^"]+)"/.exec(line);
        if (m) names.push(m[1]);
      }
    });
    socket.on('error', reject);
    socket.write(`GET ${MOUNT}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    socket.once('data', () => resolve({ names, socket }));
  });
}

/** A subscriber that sends its request and then never reads a byte. */
function paused(url: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${MOUNT}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
      resolve(socket);
    });
    socket.pause();
    socket.on('error', reject);
  });
}

async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
  await waitFor(cond, { timeout: ms, what, every: 20 });
}

describe('trace: collector subscribers that do not read', function () {
  this.timeout(120_000);
  let collector: Collector;
  let server: Server;
  let url: string;
  const sockets: Socket[] = [];

  beforeEach(async () => {
    collector = newCollector(STORED, { subscriberStallMs: 1500, sseLimit: 40 });
    const handler = collector.handler({ prefix: MOUNT });
    server = createServer(handler);
    url = await listen(server);
    const tracer = newTracer(withSink(collector), withExportQueueSize(4096));
    for (let i = 0; i < STORED; i++)
      tracer.start(background(), `stored ${i}`, withAttributes(bigAttributes(i)))[1].end();
    await tracer.flush();
  });
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    collector.close();
    await close(server);
  });

  it('ten paused subscribers: bounded memory, dropped after the stall budget; a reader gets every span in order', async () => {
    const stored = collector.spans().reduce((n, s) => n + Buffer.byteLength(s.json()), 0);
    assert.ok(stored > 55 * 1024 * 1024, `${stored} bytes stored`);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sample = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 10);
    try {
      const stalled = await Promise.all(Array.from({ length: 10 }, () => paused(url)));
      sockets.push(...stalled);
      const normal = await reader(url);
      sockets.push(normal.socket);
      await until(() => collector.health().subscribers === 11, 10_000, 'eleven subscribers');
      // New spans while the paused ones are stuck: the reader gets them after the stored ones.
      const tracer = newTracer(withSink(collector));
      for (let i = 0; i < 20; i++) {
        tracer.start(background(), `live ${i}`)[1].end();
        await tracer.flush();
        await new Promise((r) => setImmediate(r)); // the sockets' writes run between spans
      }
      // The process did not grow by anything like one copy of the backlog per subscriber (ten
      // paused subscribers took the dev server from 247 MB to 1,656 MB when each got its own copy).
      const grew = () => (rssPeak - rssBefore) / 1024 / 1024;
      assert.ok(grew() < 200, `RSS grew by ${grew().toFixed(0)} MB`);
      // The paused subscribers hold their connections' buffers and no more; all of it within the cap.
      const h = collector.health();
      assert.ok(
        h.subscriberBytes <= h.subscriberMemory + 64 * 1024,
        `${h.subscriberBytes} bytes handed out and not read (cap ${h.subscriberMemory})`,
      );
      await until(() => normal.names.length === STORED + 20, 60_000, 'the reader to get every span');
      assert.deepEqual(normal.names, [
        ...Array.from({ length: STORED }, (_, i) => `stored ${i}`),
        ...Array.from({ length: 20 }, (_, i) => `live ${i}`),
      ]);
      // The stall budget drops the ten that never read; their connections are closed.
      await until(() => collector.health().subscribersDropped === 10, 20_000, 'the paused subscribers to be dropped');
      // Their connections are closed on the server's side: only the reader's is left.
      const open = () => new Promise<number>((resolve) => server.getConnections((_e, n) => resolve(n)));
      await waitFor(async () => (await open()) === 1, { what: 'the server to close the paused connections' });
      await until(() => collector.health().subscribers === 1, 5_000, 'the paused subscribers to be forgotten');
      assert.equal(collector.health().subscriberBytes, 0);
      assert.ok(grew() < 200, `RSS grew by ${grew().toFixed(0)} MB`);
      // A reader connecting now still gets the whole backlog: the ring's 1,024 newest spans.
      const late = await reader(url);
      sockets.push(late.socket);
      await until(() => late.names.length === STORED, 60_000, 'a late reader to get the backlog');
      assert.deepEqual(late.names, normal.names.slice(20));
    } finally {
      clearInterval(sample);
    }
  });

  it('the shared cap holds many paused subscribers to it, and a drop frees room for the others', async () => {
    const c = newCollector(STORED, { subscriberMemory: 256 * 1024, subscriberStallMs: 60_000, sseLimit: 40 });
    const s = createServer(c.handler({ prefix: MOUNT }));
    const u = await listen(s);
    try {
      // The same spans as the other collector: more than the kernel buffers of thirty connections.
      for (const span of collector.spans()) c.write(span);
      const stalled = await Promise.all(Array.from({ length: 30 }, () => paused(u)));
      sockets.push(...stalled);
      await until(() => c.health().subscribers === 30, 10_000, 'thirty subscribers');
      // Until the kernel buffers are full and the collector has stopped sending (nothing moved between
      // two looks); the bytes Node holds for them stay within the cap all along.
      let most = 0;
      let last = '';
      await waitFor(
        () => {
          const h = c.health();
          most = Math.max(most, h.subscriberBytes);
          const now = `${h.subscriberBytes} ${h.subscriberQueueDepth}`;
          const still = h.subscriberBytes > 0 && now === last;
          last = now;
          return still;
        },
        { what: 'the paused subscribers to stop taking bytes', every: 20 },
      );
      assert.ok(most > 0, 'some subscribers hold bytes');
      assert.ok(most <= 256 * 1024 + 64 * 1024, `${most} bytes held, cap 256 KiB plus one event`);
      // Queue depth is the spans each has not been sent: never more than the ring holds.
      assert.ok(c.health().subscriberQueueDepth <= 30 * STORED);
      // A reader waits while the cap is taken, and gets everything once the others leave.
      const late = await reader(u).catch(() => undefined);
      const readerSocket = late?.socket;
      if (readerSocket) sockets.push(readerSocket);
      for (const p of stalled) p.destroy();
      await until(() => c.health().subscribers <= 1, 10_000, 'the paused subscribers to leave');
      assert.ok(late, 'the reader got its response head');
      await until(() => late.names.length === STORED, 60_000, 'the reader to get every span');
      assert.deepEqual(
        late.names,
        collector.spans().map((sp) => sp.name),
      );
      readerSocket!.destroy();
      await until(() => c.health().subscribers === 0, 10_000, 'the reader to leave');
      assert.equal(c.health().subscriberBytes, 0);
    } finally {
      c.close();
      await close(s);
    }
  });
});
