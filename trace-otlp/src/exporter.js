// @ts-check
// An OTLP exporter for kit's `exporterSink`: kit spans are mapped to OpenTelemetry spans and handed to an
// OpenTelemetry span exporter — by default the OTLP/HTTP (JSON) exporter of @opentelemetry/exporter-trace-otlp-http.
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { SCOPE, toReadableSpan } from './mapping.js';

/** @typedef {import('./index.js').OtlpExporterOptions} OtlpExporterOptions */
/** @typedef {import('./index.js').OtlpExporter} OtlpExporter */

const ATTR_DEPLOYMENT_ENVIRONMENT_NAME = 'deployment.environment.name';

/**
 * @param {OtlpExporterOptions} [options]
 * @returns {OtlpExporter}
 */
export function newOtlpExporter(options = {}) {
  if (options === null || typeof options !== 'object')
    throw new TypeError('newOtlpExporter: options must be an object');
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: options.serviceName ?? 'kit',
    ...(options.serviceVersion ? { [ATTR_SERVICE_VERSION]: options.serviceVersion } : {}),
    ...(options.environment ? { [ATTR_DEPLOYMENT_ENVIRONMENT_NAME]: options.environment } : {}),
    ...(options.resourceAttributes ?? {}),
  });
  const target =
    options.exporter ??
    new OTLPTraceExporter({
      ...(options.url ? { url: options.url } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.compression ? { compression: /** @type {any} */ (options.compression) } : {}), // the enum type is not exported by name
      // Shorter than kit's default export timeout (5 s), so kit never gives up on a request still in flight.
      timeoutMillis: options.timeoutMillis ?? 4000,
    });
  let failures = 0;
  let unsupported = 0;
  return {
    exportSpans(spans) {
      const mapped = spans.map((s) => {
        const r = toReadableSpan(s, resource, SCOPE);
        unsupported += r.droppedAttributesCount;
        return r;
      });
      return new Promise((resolve, reject) => {
        target.export(mapped, (result) => {
          if (result.code === ExportResultCode.SUCCESS) return resolve();
          failures++;
          reject(result.error ?? new Error('OTLP export failed'));
        });
      });
    },
    async forceFlush() {
      await target.forceFlush?.();
    },
    async shutdown() {
      await target.shutdown();
    },
    exporterFailureCount: () => failures,
    unsupportedAttributeCount: () => unsupported,
  };
}
