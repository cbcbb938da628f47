// The nested kit-trace-otlp package: its own test suite (run with its own install), and an end-to-end
// check from a kit tracer through exporterSink and the OTLP exporter to a local OTLP/HTTP receiver.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  background,
  exporterSink,
  newTracer,
  withAttributes,
  withLane,
  withSink,
  type SpanExporter,
} from '#shared/trace/index.js';
import { repoRoot } from '../helpers/repo.js';
import { close, listen } from '../shared/trace/helpers.js';

const pkg = join(repoRoot, 'trace-otlp');

function ensureInstalled(): void {
  if (existsSync(join(pkg, 'node_modules', '@opentelemetry', 'exporter-trace-otlp-http'))) return;
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefix', pkg], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(r.status, 0, `npm ci in trace-otlp failed:\n${r.stdout}\n${r.stderr}`);
}

describe('kit-trace-otlp (nested package)', function () {
  this.timeout(180_000);
  before(ensureInstalled);

  it('passes its own test suite', () => {
    const r = spawnSync('npm', ['test', '--prefix', pkg], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /# fail 0/);
    assert.match(r.stdout, /# pass [1-9]/);
  });

  it('exports spans of a kit tracer to an OTLP/HTTP receiver', async () => {
    type OtlpModule = {
      newOtlpExporter(options: { url: string; serviceName: string }): SpanExporter & { shutdown(): Promise<void> };
    };
    const otlp = (await import(pathToFileURL(join(pkg, 'src', 'index.js')).href)) as OtlpModule;
    const bodies: {
      resourceSpans: {
        scopeSpans: {
          spans: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number }[];
        }[];
      }[];
    }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    const base = await listen(receiver);
    try {
      const exporter = otlp.newOtlpExporter({ url: `${base}/v1/traces`, serviceName: 'kit-test' });
      const tracer = newTracer(withSink(exporterSink(exporter)));
      const [ctx, root] = tracer.start(background(), 'GET /', withLane('route'), withAttributes({ 'http.route': '/' }));
      const [, child] = tracer.start(ctx, 'render', withLane('ssr'));
      child.end();
      root.end();
      await tracer.shutdown();
      assert.equal(tracer.health().exportFailures, 0);
      const spans = bodies.flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
      assert.deepEqual(spans.map((s) => s.name).sort(), ['GET /', 'render']);
      const exportedRoot = spans.find((s) => s.name === 'GET /')!;
      const exportedChild = spans.find((s) => s.name === 'render')!;
      assert.equal(exportedRoot.traceId, root.traceId);
      assert.equal(exportedRoot.spanId, root.spanId);
      assert.equal(exportedChild.parentSpanId, root.spanId);
      assert.equal(exportedRoot.kind, 2);
    } finally {
      await close(receiver);
    }
  });
});
