// Submitted forms: the raw multi-valued `FormValues` and the decoding of a form into a handler's
// input type from its statically bound fields (string, number, boolean, string[], File, File[],
// optional). Decoding is strict: an unknown field, a repeated scalar or a value of the wrong type
// is an error that names the field and never echoes the value (a 400, or a 422 re-render of the
// action's page when the field is one of its form's: `form-answer.ts`).
import type { InputField } from './manifest.js';
import { CSRF_FIELD } from './csrf.js';
import { parseUrlEncoded } from './body.js';
import { DEFAULT_MESSAGES, NUMBER } from './constraints.js';

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
  /** What a person filling in the form is told next to the field; undefined for a form no page renders. */
  readonly display: string | undefined;
  constructor(field: string, problem: string, display?: string) {
    super(`invalid form: field ${JSON.stringify(field)} ${problem}`);
    this.name = 'FormDecodeError';
    this.field = field;
    this.display = display;
  }
}

/** Submitted files by field name. */
export type FormFiles = ReadonlyMap<string, readonly File[]>;

/** Strips the generated CSRF field and separates the files from the text values. */
export function formFromData(data: FormData): { form: FormValues; files: FormFiles } {
  const entries: [string, string][] = [];
  const files = new Map<string, File[]>();
  data.forEach((v, k) => {
    if (k === CSRF_FIELD) return;
    if (typeof v === 'string') entries.push([k, v]);
    else {
      const list = files.get(k);
      if (list) list.push(v);
      else files.set(k, [v]);
    }
  });
  return { form: new FormValues(entries), files };
}

const TRUE_VALUES = new Set(['on', 'true', '1', 'yes']);
const FALSE_VALUES = new Set(['off', 'false', '0', 'no', '']);
const NO_FILES: FormFiles = new Map();
const required = (name: string): FormDecodeError =>
  new FormDecodeError(name, 'is required', DEFAULT_MESSAGES.required());
const oneValue = (name: string): FormDecodeError =>
  new FormDecodeError(name, 'must have one value', DEFAULT_MESSAGES.one());

/**
 * Decodes `form` (and `files`) into an object with exactly the declared fields; number inputs
 * follow the input's own grammar (no hex, no `Infinity`, no blanks). Throws FormDecodeError.
 */
export function decodeForm(
  form: FormValues,
  fields: readonly InputField[],
  files: FormFiles = NO_FILES,
): Record<string, unknown> {
  const known = new Map(fields.map((f) => [f.name, f]));
  for (const name of form.names()) {
    const f = known.get(name);
    if (f === undefined) throw new FormDecodeError(name, 'is not a field of the input');
    if (f.type === 'file' || f.type === 'file[]') throw new FormDecodeError(name, 'must be a file');
  }
  for (const name of files.keys()) {
    const f = known.get(name);
    if (f === undefined) throw new FormDecodeError(name, 'is not a field of the input');
    if (f.type !== 'file' && f.type !== 'file[]')
      throw new FormDecodeError(name, 'is a file; the input takes text for it');
  }
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const value = decodeField(f, form.getAll(f.name), files.get(f.name) ?? []);
    if (value !== undefined) {
      if (f.name === '__proto__')
        Object.defineProperty(out, f.name, { value, enumerable: true, writable: true, configurable: true });
      else out[f.name] = value;
    }
  }
  return out;
}

/** One declared field from its submitted values (or files); undefined when an optional one is absent. */
function decodeField(f: InputField, values: string[], list: readonly File[]): unknown {
  switch (f.type) {
    case 'file[]':
      return list.length ? [...list] : f.optional ? undefined : [];
    case 'file':
      if (list.length > 1) throw oneValue(f.name);
      if (list.length === 0 && !f.optional) throw required(f.name);
      return list[0];
    case 'string[]':
      return values.length ? values : f.optional ? undefined : [];
    case 'string':
      if (values.length > 1) throw oneValue(f.name);
      if (values.length === 0 && !f.optional) throw required(f.name);
      return values[0];
    case 'number':
      return decodeNumber(f, values);
    case 'boolean': {
      if (values.length > 1) throw oneValue(f.name);
      // An unchecked checkbox is simply absent: false (undefined when optional).
      if (values.length === 0) return f.optional ? undefined : false;
      const v = values[0].trim().toLowerCase();
      if (TRUE_VALUES.has(v)) return true;
      if (FALSE_VALUES.has(v)) return false;
      throw new FormDecodeError(f.name, 'must be a boolean', DEFAULT_MESSAGES.boolean());
    }
    default:
      throw new FormDecodeError(f.name, 'has a type forms cannot carry');
  }
}

function decodeNumber(f: InputField, values: string[]): number | undefined {
  if (values.length > 1) throw oneValue(f.name);
  const raw = values[0]?.trim();
  if (raw === undefined || raw === '') {
    if (!f.optional) throw required(f.name);
    return undefined;
  }
  const n = Number(raw);
  if (!NUMBER.test(raw) || !Number.isFinite(n))
    throw new FormDecodeError(f.name, 'must be a number', DEFAULT_MESSAGES.number());
  return n;
}

/** Query-string input for GET query contracts; invalid UTF-8 is an error, as in a form body. */
export function formFromQuery(query: string): FormValues {
  try {
    return new FormValues(parseUrlEncoded(query.startsWith('?') ? query.slice(1) : query));
  } catch {
    throw new FormDecodeError('(query string)', 'is not valid UTF-8');
  }
}
