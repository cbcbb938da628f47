// W3C propagation round trip, inject into a header object then extract from it: kit against OpenTelemetry's
// W3CTraceContextPropagator. "relay": the context injected is the one just extracted (a service passing the
// trace on); "from span": the context of a local span (IDs formatted as hex). Each case in its own process.
import { caseArg, loadNote, measure, printComparison, report, runCases, type Figure } from './harness.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
let sink: unknown;

async function kitCase(fromSpan: boolean): Promise<Figure> {
  const { background, extract, inject, newTracer } = await import('#shared/trace/index.js');
  const bg = background();
  const tracer = newTracer();
  const spans = Array.from({ length: 1024 }, () => tracer.start(bg, 'client')[0]);
  let ctx = extract(bg, { traceparent: TRACEPARENT });
  return measure(
    (n: number) => {
      for (let i = 0; i < n; i++) {
        const carrier: Record<string, string> = {};
        inject(fromSpan ? spans[i & 1023]! : ctx, carrier);
        ctx = extract(bg, carrier);
      }
      sink = ctx;
    },
    { ops: 500_000 },
  );
}

async function otelCase(fromSpan: boolean): Promise<Figure> {
  const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const { ROOT_CONTEXT, defaultTextMapGetter, defaultTextMapSetter, trace } = await import('@opentelemetry/api');
  const { BasicTracerProvider } = await import('@opentelemetry/sdk-trace-base');
  const propagator = new W3CTraceContextPropagator();
  const tracer = new BasicTracerProvider().getTracer('bench');
  const spans = Array.from({ length: 1024 }, () => trace.setSpan(ROOT_CONTEXT, tracer.startSpan('client')));
  let ctx = propagator.extract(ROOT_CONTEXT, { traceparent: TRACEPARENT }, defaultTextMapGetter);
  return measure(
    (n: number) => {
      for (let i = 0; i < n; i++) {
        const carrier: Record<string, string> = {};
        propagator.inject(fromSpan ? spans[i & 1023]! : ctx, carrier, defaultTextMapSetter);
        ctx = propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
      }
      sink = ctx;
    },
    { ops: 500_000 },
  );
}

const which = caseArg();
if (which === 'kit-relay') report(await kitCase(false));
else if (which === 'kit-span') report(await kitCase(true));
else if (which === 'otel-relay') report(await otelCase(false));
else if (which === 'otel-span') report(await otelCase(true));
else if (which === null) {
  console.log(`inject + extract round trip (${await loadNote()})`);
  const r = runCases<Figure>(import.meta.url, ['kit-relay', 'kit-span', 'otel-relay', 'otel-span']);
  const base = 'OTel W3C propagator';
  printComparison('time, relay (extracted context)', r['kit-relay']!.ns, r['otel-relay']!.ns, 'ns', base);
  printComparison('allocation, relay', r['kit-relay']!.bytes, r['otel-relay']!.bytes, 'B', base);
  printComparison('time, from a local span', r['kit-span']!.ns, r['otel-span']!.ns, 'ns', base);
  printComparison('allocation, from a local span', r['kit-span']!.bytes, r['otel-span']!.bytes, 'B', base);
  console.log('target: <= 300 ns per round trip (kit)');
} else throw new Error(`unknown case ${which}`);
if (sink === 1) console.log(sink);
