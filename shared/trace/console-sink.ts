// A human-readable line per span, every piece of span data escaped (see log-escape.ts).
import { formatGoDuration } from './clock.js';
import { escapeLogText } from './log-escape.js';
import { writeText, type TextStream } from './stream-write.js';
import type { FinishedSpan, Sink } from './types.js';

/** The console line for one span (without the trailing newline). */
export function formatConsoleLine(span: FinishedSpan): string {
  const s = span.snapshot();
  let line =
    `${escapeLogText(s.name)} trace=${s.traceId} span=${s.spanId} parent=${s.parentSpanId ?? '-'}` +
    ` surface=${s.surface} lane=${s.lane} duration=${formatGoDuration(s.durationNs)} status=${s.status.code}`;
  if (s.status.message !== '') line += ` message=${escapeLogText(s.status.message)}`;
  if (s.source.file !== '') line += ` source=${escapeLogText(s.source.file)}:${s.source.line}`;
  if (s.events.length > 0) line += ` events=${s.events.map((e) => escapeLogText(e.message)).join('|')}`;
  return line;
}

/** One readable line per finished span, written to `stream` (default: stderr). */
export function newConsoleSink(stream: TextStream = process.stderr): Sink {
  if (stream === null || typeof stream !== 'object' || typeof stream.write !== 'function')
    throw new TypeError('newConsoleSink: stream must be writable');
  return { write: (span) => writeText(stream, formatConsoleLine(span) + '\n') };
}
