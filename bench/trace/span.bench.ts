// Enabled span with three attributes, started and ended, into an in-memory sink:
// kit (ring sink) against the OpenTelemetry JS SDK (BasicTracerProvider + SimpleSpanProcessor + a no-op
// exporter, so the SDK's figure has no storage cost). Each case runs in its own process.
import { caseArg, loadNote, measure, printComparison, report, runCases, type Figure } from './harness.js';

const CHUNK = 256; // one export-queue's worth, then yield so the queue drains (as between requests)

async function kitCase(style: 'options' | 'set'): Promise<Figure> {
  const { background, newRingSink, newTracer, withAttributes, withSink } = await import('#shared/trace/index.js');
  const tracer = newTracer(withSink(newRingSink(1024)));
  const bg = background();
  const batch =
    style === 'options'
      ? async (n: number) => {
          for (let i = 0; i < n; i += CHUNK) {
            for (let j = 0; j < CHUNK; j++) {
              const [, span] = tracer.start(
                bg,
                'GET /orders/{id}',
                withAttributes({ 'http.route': '/orders/{id}', 'http.response.status_code': 200, ok: true }),
              );
              span.end();
            }
            await tracer.flush();
          }
        }
      : async (n: number) => {
          for (let i = 0; i < n; i += CHUNK) {
            for (let j = 0; j < CHUNK; j++) {
              const [, span] = tracer.start(bg, 'GET /orders/{id}');
              span.set('http.route', '/orders/{id}');
              span.set('http.response.status_code', 200);
              span.set('ok', true);
              span.end();
            }
            await tracer.flush();
          }
        };
  const fig = await measure(batch);
  if (tracer.health().exportDroppedSpans !== 0)
    throw new Error('export queue overflowed: the figure would not include delivery');
  return fig;
}

async function otelCase(): Promise<Figure> {
  const { BasicTracerProvider, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const noopExporter = {
    export: (_spans: unknown[], done: (r: { code: number }) => void) => done({ code: 0 }),
    shutdown: () => Promise.resolve(),
  };
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(noopExporter)] });
  const tracer = provider.getTracer('bench');
  return measure(async (n: number) => {
    for (let i = 0; i < n; i += CHUNK) {
      for (let j = 0; j < CHUNK; j++) {
        const span = tracer.startSpan('GET /orders/{id}', {
          attributes: { 'http.route': '/orders/{id}', 'http.response.status_code': 200, ok: true },
        });
        span.end();
      }
      await null;
    }
  });
}

const which = caseArg();
if (which === 'kit') report(await kitCase('options'));
else if (which === 'kit-set') report(await kitCase('set'));
else if (which === 'otel') report(await otelCase());
else if (which === null) {
  console.log(`span start+end, 3 attributes (${await loadNote()})`);
  const r = runCases<Figure>(import.meta.url, ['kit', 'kit-set', 'otel']);
  const base = 'OpenTelemetry SDK';
  printComparison('time, attributes at start (withAttributes)', r.kit!.ns, r.otel!.ns, 'ns', base);
  printComparison('allocation, attributes at start', r.kit!.bytes, r.otel!.bytes, 'B', base);
  printComparison('time, attributes by span.set x3', r['kit-set']!.ns, r.otel!.ns, 'ns', base);
  printComparison('allocation, attributes by span.set x3', r['kit-set']!.bytes, r.otel!.bytes, 'B', base);
  console.log('targets: <= 150 ns and <= 250 B per span (kit, attributes at start), >= 7x cheaper than the SDK');
} else throw new Error(`unknown case ${which}`);
