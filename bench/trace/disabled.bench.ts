// A span that is not sampled: kit with alwaysOff() against the OpenTelemetry SDK with its AlwaysOffSampler
// (and, for reference, the OpenTelemetry API with no SDK registered). Each case in its own process.
import { caseArg, loadNote, measure, printComparison, report, runCases, type Figure } from './harness.js';

let sink: unknown;

async function kitCase(): Promise<Figure> {
  const { alwaysOff, background, newTracer, withSampler } = await import('#shared/trace/index.js');
  const tracer = newTracer(withSampler(alwaysOff()));
  const bg = background();
  return measure(
    (n: number) => {
      for (let i = 0; i < n; i++) {
        const [ctx, span] = tracer.start(bg, 'GET /orders/{id}');
        span.end();
        sink = ctx;
      }
    },
    { ops: 2_000_000, allocOps: 2_000_000 },
  );
}

async function otelSdkCase(): Promise<Figure> {
  const { AlwaysOffSampler, BasicTracerProvider } = await import('@opentelemetry/sdk-trace-base');
  const tracer = new BasicTracerProvider({ sampler: new AlwaysOffSampler() }).getTracer('bench');
  return measure(
    (n: number) => {
      for (let i = 0; i < n; i++) {
        const span = tracer.startSpan('GET /orders/{id}');
        span.end();
        sink = span;
      }
    },
    { ops: 1_000_000 },
  );
}

async function otelApiCase(): Promise<Figure> {
  const { trace } = await import('@opentelemetry/api');
  const tracer = trace.getTracer('bench');
  return measure(
    (n: number) => {
      for (let i = 0; i < n; i++) {
        const span = tracer.startSpan('GET /orders/{id}');
        span.end();
        sink = span;
      }
    },
    { ops: 2_000_000 },
  );
}

const which = caseArg();
if (which === 'kit') report(await kitCase());
else if (which === 'otel-sdk') report(await otelSdkCase());
else if (which === 'otel-api') report(await otelApiCase());
else if (which === null) {
  console.log(`disabled span start+end (${await loadNote()})`);
  const r = runCases<Figure>(import.meta.url, ['kit', 'otel-sdk', 'otel-api']);
  printComparison('time, alwaysOff', r.kit!.ns, r['otel-sdk']!.ns, 'ns', 'OTel SDK AlwaysOff');
  printComparison('allocation, alwaysOff', r.kit!.bytes, r['otel-sdk']!.bytes, 'B', 'OTel SDK AlwaysOff');
  printComparison('time vs API without SDK (reference)', r.kit!.ns, r['otel-api']!.ns, 'ns', 'OTel API no-op');
  printComparison('allocation vs API without SDK', r.kit!.bytes, r['otel-api']!.bytes, 'B', 'OTel API no-op');
  console.log('targets: 0 B and <= 5 ns per disabled span (kit)');
} else throw new Error(`unknown case ${which}`);
if (sink === 1) console.log(sink);
