// How the trace viewer reads and shows times and values: RFC 3339 timestamps to milliseconds (with
// the nanoseconds spans carry), durations in the unit that fits, clock times, attribute values.

const TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since the epoch of an RFC 3339 timestamp (fractions kept); NaN when it is not one. */
export function parseTime(s: unknown): number {
  const m = TIME.exec(String(s || ''));
  if (!m) return Number.NaN;
  let ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  if (m[7]) ms += Number(`${m[7]}000000000`.slice(0, 9)) / 1e6;
  if (m[8]) {
    const off = (+m[9] * 60 + +m[10]) * 60000;
    ms += m[8] === '+' ? -off : off;
  }
  return ms;
}

/** A duration in milliseconds as ns, µs, ms or s; '' for a negative or unknown one. */
export function fmtDur(ms: number): string {
  if (!(ms >= 0)) return '';
  if (ms < 0.001) return `${Math.round(ms * 1e6)}ns`;
  if (ms < 1) return `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)}\u00b5s`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 2 : 1)}ms`;
  return `${(ms / 1000).toFixed(2)}s`;
}

/** The local clock time of a moment, to the millisecond. */
export function fmtClock(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** An attribute value as text: strings as they are, the rest as JSON. */
export function valueText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
