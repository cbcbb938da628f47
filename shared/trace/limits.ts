// Size and shape limits of a span snapshot (README, "Tracing"), shared by span snapshots and browser-span ingest.
import { LIMITS } from './constants.js';
import type { Attribute, AttributeScalar, AttributeValue } from './types.js';

export type { Attribute, AttributeScalar, AttributeValue } from './types.js';

/** Cuts a string to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  // Every UTF-16 code unit encodes to at most 3 UTF-8 bytes, so short strings skip the byte count.
  if (text.length * 3 <= maxBytes) return text;
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    let width = 1;
    let units = 1;
    if (c >= 0x80) {
      if (c < 0x800) width = 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          width = 4;
          units = 2;
        } else width = 3;
      } else width = 3;
    }
    if (bytes + width > maxBytes) break;
    bytes += width;
    i += units;
  }
  return text.slice(0, i);
}

function scalarKind(value: unknown): 'string' | 'number' | 'boolean' | null {
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isFinite(value) ? 'number' : null;
    default:
      return null;
  }
}

/**
 * Normalises one attribute value: strings are truncated, non-finite numbers, null, objects and mixed arrays
 * are rejected (undefined), arrays keep their first 32 items, safe-range bigints become numbers.
 */
export function normalizeAttributeValue(value: unknown): AttributeValue | undefined {
  if (typeof value === 'string') return truncateUtf8(value, LIMITS.attributeStringBytes);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : undefined;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return [] as string[];
    const kind = scalarKind(value[0]);
    if (kind === null) return undefined;
    const n = Math.min(value.length, LIMITS.arrayItems);
    const out: AttributeScalar[] = new Array(n);
    for (let i = 0; i < value.length; i++) {
      if (scalarKind(value[i]) !== kind) return undefined; // homogeneous arrays only
      if (i < n) out[i] = kind === 'string' ? truncateUtf8(value[i] as string, LIMITS.attributeStringBytes) : value[i];
    }
    return out as AttributeValue;
  }
  return undefined;
}

/** True for a key kit keeps: a non-empty string of at most 128 UTF-8 bytes. */
export function isValidAttributeKey(key: unknown): key is string {
  return (
    typeof key === 'string' &&
    key.length > 0 &&
    (key.length * 3 <= LIMITS.attributeKeyBytes || Buffer.byteLength(key) <= LIMITS.attributeKeyBytes)
  );
}

/**
 * Collects attributes in order into `out`, a later value for the same key replacing the earlier one in place.
 * Invalid keys or values are skipped; at most `LIMITS.attributes` distinct keys are kept.
 */
export class AttributeCollector {
  readonly list: Attribute[] = [];
  private index: Map<string, number> | null = null;
  dropped = 0;

  add(key: unknown, value: unknown): void {
    if (!isValidAttributeKey(key)) {
      this.dropped++;
      return;
    }
    const v = normalizeAttributeValue(value);
    if (v === undefined) {
      this.dropped++;
      return;
    }
    this.addNormalized(key, v);
  }

  /** Adds a value that already went through `normalizeAttributeValue`, under a valid key. */
  addNormalized(key: string, v: AttributeValue): void {
    const at = this.find(key);
    if (at >= 0) {
      this.list[at] = { key, value: v };
      return;
    }
    if (this.list.length >= LIMITS.attributes) {
      this.dropped++;
      return;
    }
    this.list.push({ key, value: v });
    if (this.index) this.index.set(key, this.list.length - 1);
  }

  /** Adds every own enumerable entry of a plain object or Map. */
  addAll(source: unknown): void {
    if (source == null || typeof source !== 'object') return;
    if (source instanceof Map) {
      for (const [k, v] of source) this.add(k, v);
      return;
    }
    for (const k of Object.keys(source)) this.add(k, (source as Record<string, unknown>)[k]);
  }

  private find(key: string): number {
    const list = this.list;
    if (this.index) return this.index.get(key) ?? -1;
    if (list.length < 8) {
      for (let i = 0; i < list.length; i++) if (list[i]!.key === key) return i;
      return -1;
    }
    this.index = new Map(list.map((a, i) => [a.key, i]));
    return this.index.get(key) ?? -1;
  }
}
