// Span times are read from the monotonic clock (milliseconds since performance.timeOrigin, sub-microsecond
// precision) and turned into wall-clock RFC 3339 strings only when a span is snapshotted.
import { performance } from 'node:perf_hooks';

const perf = performance;
const origin = perf.timeOrigin;

/** Monotonic milliseconds since the process time origin. */
export function now(): number {
  return perf.now();
}

/** Converts a wall-clock epoch time (ms, or a Date) into the monotonic scale used by `now()`. */
export function fromEpochMs(epochMs: number): number {
  return epochMs - origin;
}

/** Whole nanoseconds since the Unix epoch for a monotonic time, as [milliseconds, nanosecond remainder]. */
function split(mono: number): [number, number] {
  const epoch = origin + mono;
  let ms = Math.floor(epoch);
  let ns = Math.round((epoch - ms) * 1e6);
  if (ns >= 1e6) {
    ms += 1;
    ns -= 1e6;
  }
  return [ms, ns];
}

/** RFC 3339 UTC time with nanosecond digits, e.g. `2025-01-02T03:04:05.123456789Z`. */
export function rfc3339Nano(mono: number): string {
  const [ms, ns] = split(mono);
  const iso = new Date(ms).toISOString(); // ...SS.mmmZ
  return iso.slice(0, -1) + String(ns).padStart(6, '0') + 'Z';
}

/** Nanoseconds since the Unix epoch as a decimal string (OTLP's uint64 encoding). */
export function unixNanoString(mono: number): string {
  const [ms, ns] = split(mono);
  return (BigInt(ms) * 1_000_000n + BigInt(ns)).toString();
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by `n` ASCII digits at `at`, or -1. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * Parses an RFC 3339 timestamp (`YYYY-MM-DDTHH:MM:SS[.fraction]` then `Z` or `±HH:MM`) into
 * [epoch milliseconds (integer), nanosecond remainder], or null. Fields are range-checked, so
 * `2025-02-30T…` is rejected rather than rolled over. Written by hand: ingest parses two per span.
 */
export function parseRfc3339(text: string): [number, number] | null {
  if (typeof text !== 'string' || text.length < 20) return null;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  const t = text.charCodeAt(10);
  if (
    year < 0 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 60
  )
    return null;
  if (
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    (t !== 84 && t !== 116) ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58
  )
    return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[month - 1]!)) return null;
  let i = 19;
  let fracMs = 0;
  let fracNs = 0;
  if (text.charCodeAt(i) === 46) {
    const from = ++i;
    while (i < text.length && i - from < 9) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      if (i - from < 3) fracMs = fracMs * 10 + c;
      else fracNs = fracNs * 10 + c;
      i++;
    }
    const n = i - from;
    if (n === 0) return null;
    if (n < 3) fracMs *= n === 1 ? 100 : 10;
    else fracNs *= 10 ** (9 - n);
  }
  let offsetMs = 0;
  const z = text.charCodeAt(i);
  if (z === 90 || z === 122) {
    i++;
  } else if (z === 43 || z === 45) {
    const oh = digits(text, i + 1, 2);
    const om = digits(text, i + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59 || text.charCodeAt(i + 3) !== 58) return null;
    offsetMs = (oh * 60 + om) * 60_000 * (z === 43 ? -1 : 1);
    i += 6;
  } else {
    return null;
  }
  if (i !== text.length) return null;
  return [Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59)) + fracMs + offsetMs, fracNs];
}

/** Formats nanoseconds the way Go's time.Duration prints (`850ns`, `12.5µs`, `1.234567ms`, `2.5s`, `1m30s`). */
export function formatGoDuration(totalNs: number): string {
  if (!Number.isFinite(totalNs)) return '0s';
  const neg = totalNs < 0;
  let ns = Math.round(Math.abs(totalNs));
  const sign = neg ? '-' : '';
  if (ns === 0) return '0s';
  if (ns < 1e3) return `${sign}${ns}ns`;
  if (ns < 1e6) return `${sign}${trimFraction(ns / 1e3)}µs`;
  if (ns < 1e9) return `${sign}${trimFraction(ns / 1e6)}ms`;
  let out = '';
  const hours = Math.floor(ns / 3.6e12);
  ns -= hours * 3.6e12;
  const minutes = Math.floor(ns / 6e10);
  ns -= minutes * 6e10;
  if (hours) out += `${hours}h`;
  if (hours || minutes) out += `${minutes}m`;
  return `${sign}${out}${trimFraction(ns / 1e9)}s`;
}

function trimFraction(value: number): string {
  return value.toFixed(9).replace(/\.?0+$/, '');
}
