// @ts-check
export { newOtlpExporter } from './exporter.js';
export { toReadableSpan, spanKindForLane, hrTimeFromUnixNano, SCOPE } from './mapping.js';
