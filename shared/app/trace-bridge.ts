// The browser side of a traced build: HTML answers load the trace bridge (served by the collector at
// `/_kit/traces/bridge.js`), and every traced answer names its server span in a `Server-Timing`
// entry, which the bridge reads from the navigation timing to join its spans to the server's trace.
import type { Span } from '../trace/index.js';

export const BRIDGE_PATH = '/_kit/traces/bridge.js';
/** Runs before the page's own scripts (kit.js is deferred), so their fetches are traced too. */
export const BRIDGE_TAG = `<script src="${BRIDGE_PATH}" data-kit-trace></script>`;

const HEAD_OPEN = /<head(?:\s[^>]*)?>/i;

/** The page with the bridge tag at the start of its `<head>` (or at the very start without one). */
export function injectBridge(html: string): string {
  const m = HEAD_OPEN.exec(html);
  if (m === null) {
    const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
    const at = doctype === null ? 0 : doctype[0].length;
    return html.slice(0, at) + BRIDGE_TAG + html.slice(at);
  }
  const at = m.index + m[0].length;
  return html.slice(0, at) + BRIDGE_TAG + html.slice(at);
}

/** `Server-Timing` naming the request span as a W3C traceparent. */
export function serverTiming(span: Span): string {
  return `traceparent;desc="00-${span.traceId}-${span.spanId}-01"`;
}
