// Trees and summaries posted by a loading thread arrive as plain data: structured cloning keeps
// the values and the shared references within one message, but not classes. The grammar's ranges
// are `Span` objects (their `start`/`end` are getters, JSON shows them through `toJSON`), so every
// cloned range is given back its prototype; nothing else in a tree, summary, registration or
// diagnostic is a class instance (a round-trip test holds every fixture to that).
import { Span } from '#grammar/index.js';

function isClonedSpan(o: object): boolean {
  return 'so' in o && 'ec' in o && Object.getPrototypeOf(o) === Object.prototype;
}

/** Gives every cloned `Span` in `value` its prototype again, in place; answers `value`. */
export function reviveSpans<T>(value: T): T {
  // Summaries point into their trees: a value may be reached twice; a revived span is not revisited.
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object') stack.push(v[i]);
    } else if (v instanceof Map) {
      for (const x of v.values()) stack.push(x);
    } else if (v instanceof Span) {
      continue;
    } else if (isClonedSpan(v)) {
      Object.setPrototypeOf(v, Span.prototype);
    } else {
      for (const k in v) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== null && typeof x === 'object' && k !== 'lineStarts') stack.push(x);
      }
    }
  }
  return value;
}
