// Submitted forms: the raw multi-valued `FormValues` and the decoding of a form into a handler's
// input type from its statically bound fields (string, number, boolean, string[], optional).
// Decoding is strict: an unknown field, a repeated scalar or a value of the wrong type is a 400
// that names the field and never echoes the value.
import type { InputField } from './manifest.js';
import { CSRF_FIELD } from './csrf.js';
import { parseUrlEncoded } from './body.js';

/** The raw form of `(ctx, form: FormValues)` handlers: every submitted text value by name. */
export class FormValues {
  private readonly map: Map<string, string[]>;
  constructor(entries: Iterable<readonly [string, string]> = []) {
    this.map = new Map();
    for (const [k, v] of entries) {
      const list = this.map.get(k);
      if (list) list.push(v);
      else this.map.set(k, [v]);
    }
  }
  /** The first value, or undefined. */
  get(name: string): string | undefined {
    return this.map.get(name)?.[0];
  }
  getAll(name: string): string[] {
    return [...(this.map.get(name) ?? [])];
  }
  has(name: string): boolean {
    return this.map.has(name);
  }
  names(): string[] {
    return [...this.map.keys()];
  }
  entries(): [string, string][] {
    const out: [string, string][] = [];
    for (const [k, vs] of this.map) for (const v of vs) out.push([k, v]);
    return out;
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries()[Symbol.iterator]();
  }
  /** First values as a plain object (repeated names keep their first value). */
  toObject(): Record<string, string> {
    const o: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [k, vs] of this.map) o[k] = vs[0];
    return o;
  }
  get size(): number {
    return this.map.size;
  }
}

export class FormDecodeError extends Error {
  readonly field: string;
  constructor(field: string, problem: string) {
    super(`invalid form: field ${JSON.stringify(field)} ${problem}`);
    this.name = 'FormDecodeError';
    this.field = field;
  }
}

/** Strips the generated CSRF field; files are not text values and are reported as such. */
export function formFromData(data: FormData): { form: FormValues; fileField?: string } {
  const entries: [string, string][] = [];
  let fileField: string | undefined;
  data.forEach((v, k) => {
    if (k === CSRF_FIELD) return;
    if (typeof v === 'string') entries.push([k, v]);
    else fileField ??= k;
  });
  return { form: new FormValues(entries), fileField };
}

const TRUE_VALUES = new Set(['on', 'true', '1', 'yes']);
const FALSE_VALUES = new Set(['off', 'false', '0', 'no', '']);
// Like the input's own grammar: decimal numbers with optional sign, fraction and exponent. No hex,
// no `Infinity`, no blanks (Number() would accept all three).
const NUMBER = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** Decodes `form` into an object with exactly the declared fields. Throws FormDecodeError. */
export function decodeForm(form: FormValues, fields: readonly InputField[]): Record<string, unknown> {
  const known = new Map(fields.map((f) => [f.name, f]));
  for (const name of form.names()) {
    if (!known.has(name)) throw new FormDecodeError(name, 'is not a field of the input');
  }
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const values = form.getAll(f.name);
    let value: unknown;
    switch (f.type) {
      case 'string[]':
        value = values.length ? values : f.optional ? undefined : [];
        break;
      case 'string':
        if (values.length > 1) throw new FormDecodeError(f.name, 'must have one value');
        if (values.length === 0) {
          if (!f.optional) throw new FormDecodeError(f.name, 'is required');
          value = undefined;
        } else value = values[0];
        break;
      case 'number': {
        if (values.length > 1) throw new FormDecodeError(f.name, 'must have one value');
        const raw = values[0]?.trim();
        if (raw === undefined || raw === '') {
          if (!f.optional) throw new FormDecodeError(f.name, 'is required');
          value = undefined;
        } else {
          const n = Number(raw);
          if (!NUMBER.test(raw) || !Number.isFinite(n)) throw new FormDecodeError(f.name, 'must be a number');
          value = n;
        }
        break;
      }
      case 'boolean': {
        if (values.length > 1) throw new FormDecodeError(f.name, 'must have one value');
        // An unchecked checkbox is simply absent: false (undefined when optional).
        if (values.length === 0) value = f.optional ? undefined : false;
        else {
          const v = values[0].trim().toLowerCase();
          if (TRUE_VALUES.has(v)) value = true;
          else if (FALSE_VALUES.has(v)) value = false;
          else throw new FormDecodeError(f.name, 'must be a boolean');
        }
        break;
      }
      default:
        throw new FormDecodeError(f.name, 'has a type forms cannot carry');
    }
    if (value !== undefined) {
      if (f.name === '__proto__')
        Object.defineProperty(out, f.name, { value, enumerable: true, writable: true, configurable: true });
      else out[f.name] = value;
    }
  }
  return out;
}

/** Query-string input for GET query contracts; invalid UTF-8 is an error, as in a form body. */
export function formFromQuery(query: string): FormValues {
  try {
    return new FormValues(parseUrlEncoded(query.startsWith('?') ? query.slice(1) : query));
  } catch {
    throw new FormDecodeError('(query string)', 'is not valid UTF-8');
  }
}
