// Recording a thrown value on a span the way OpenTelemetry does: an `exception` event with the
// value's type, message and stack, and the span's status set to error. The stack is whatever the
// runtime gives (source-mapped when the process enables source maps); spans stay on the server.
import {
  AttrExceptionMessage,
  AttrExceptionStacktrace,
  AttrExceptionType,
  EventException,
  LevelError,
} from './constants.js';
import type { Span } from './types.js';

/** The type and message of a thrown value, whatever was thrown. */
export function describeException(err: unknown): { type: string; message: string; stack: string } {
  if (err instanceof Error) return { type: err.name || 'Error', message: err.message, stack: err.stack ?? '' };
  return { type: err === null ? 'null' : typeof err, message: String(err), stack: '' };
}

/**
 * Records `err` on `span` (an `exception` event) and sets its status to error with `Type: message`
 * (or `what` when given: the status a reader sees in a list).
 */
export function recordException(span: Span, err: unknown, what?: string): void {
  if (!span.isRecording()) return;
  const d = describeException(err);
  const attrs: Record<string, string> = { [AttrExceptionType]: d.type, [AttrExceptionMessage]: d.message };
  if (d.stack !== '') attrs[AttrExceptionStacktrace] = d.stack;
  span.event(LevelError, EventException, attrs);
  span.setStatus('error', what ?? (d.message === '' ? d.type : `${d.type}: ${d.message}`));
}
