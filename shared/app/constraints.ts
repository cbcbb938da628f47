// Server-side constraint validation of a submitted form: the HTML attributes of the form's inputs
// (`required`, `minlength`/`maxlength`, `min`/`max`, `pattern`, `type=email|url|number`), checked
// by the rules browsers apply, before the handler runs. Browsers check the same attributes (the
// client never sends anything the server then trusts); this is the check that counts.
import type { FieldConstraint } from './manifest.js';
import { compilePattern, type LinearPattern } from './pattern.js';

/** The submitted text values by name (what `FormValues` offers). */
export interface SubmittedValues {
  getAll(name: string): string[];
}

/** Field name → the message to show next to it. */
export type FieldErrors = Record<string, string>;

// WHATWG "valid e-mail address" (what `type=email` accepts).
const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const EMAIL = new RegExp(`^[a-zA-Z0-9.!#$%&'*+/=?^_\`{|}~-]+@${LABEL}(?:\\.${LABEL})*$`);
// A floating-point number as `type=number` accepts it (no hex, no Infinity, no blanks).
export const NUMBER = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** The messages shown when a field has no `g:message:<constraint>` of its own. */
export const DEFAULT_MESSAGES = {
  required: () => 'Please fill in this field.',
  minlength: (n: number) => `Please use at least ${n} characters.`,
  maxlength: (n: number) => `Please use at most ${n} characters.`,
  min: (v: string) => `Please enter ${v} or more.`,
  max: (v: string) => `Please enter ${v} or less.`,
  pattern: () => 'Please match the requested format.',
  email: () => 'Please enter an email address.',
  url: () => 'Please enter a URL.',
  number: () => 'Please enter a number.',
  one: () => 'Please give one value.',
  boolean: () => 'Please choose yes or no.',
};

const patterns = new Map<string, LinearPattern | null>();

/**
 * `pattern` matches the whole value, as browsers compile it (`v` flag), in time linear in the value
 * (`pattern.ts`); invalid patterns never fail, as in browsers. A pattern the linear matcher cannot
 * run never gets here: the app refuses to start with it (`checkPatterns`).
 */
function patternOf(source: string): LinearPattern | null {
  let re = patterns.get(source);
  if (re === undefined) {
    const c = compilePattern(source);
    re = c.ok ? c.pattern : null;
    if (patterns.size < 1000) patterns.set(source, re);
  }
  return re;
}

/** A field's pattern the app cannot check in linear time (`kit check` reports it as `unsafe_pattern`). */
export class UnsafePatternError extends Error {
  constructor(where: string, field: string, pattern: string, reason: string) {
    super(
      `${where}: field "${field}" has pattern ${JSON.stringify(pattern)}, which cannot be matched in time ` +
        `linear in the value (${reason}); kit check reports it as unsafe_pattern`,
    );
    this.name = 'UnsafePatternError';
  }
}

/** Compiles every pattern of `constraints` at start-up; throws `UnsafePatternError` for one it cannot run. */
export function checkPatterns(constraints: readonly FieldConstraint[], where: string): void {
  for (const c of constraints) {
    if (c.pattern === undefined) continue;
    const compiled = compilePattern(c.pattern);
    if (!compiled.ok && compiled.problem === 'unsupported')
      throw new UnsafePatternError(where, c.name, c.pattern, compiled.message);
  }
}

function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** The first constraint `value` breaks, as [constraint, default message], or undefined. */
function violation(c: FieldConstraint, value: string): [string, string] | undefined {
  // Lengths count UTF-16 code units, as the browser's own check does.
  if (c.minlength !== undefined && value.length < c.minlength)
    return ['minlength', DEFAULT_MESSAGES.minlength(c.minlength)];
  if (c.maxlength !== undefined && value.length > c.maxlength)
    return ['maxlength', DEFAULT_MESSAGES.maxlength(c.maxlength)];
  if (c.type === 'email' && !EMAIL.test(value)) return ['type', DEFAULT_MESSAGES.email()];
  if (c.type === 'url' && !isUrl(value)) return ['type', DEFAULT_MESSAGES.url()];
  if (c.type === 'number' || c.type === 'range') {
    if (!NUMBER.test(value) || !Number.isFinite(Number(value))) return ['type', DEFAULT_MESSAGES.number()];
    const n = Number(value);
    if (c.min !== undefined && NUMBER.test(c.min) && n < Number(c.min)) return ['min', DEFAULT_MESSAGES.min(c.min)];
    if (c.max !== undefined && NUMBER.test(c.max) && n > Number(c.max)) return ['max', DEFAULT_MESSAGES.max(c.max)];
  }
  if (c.pattern !== undefined) {
    const re = patternOf(c.pattern);
    if (re !== null && !re.test(value)) return ['pattern', DEFAULT_MESSAGES.pattern()];
  }
  return undefined;
}

/**
 * The errors of `form` against `constraints`, one message per field (the first constraint it
 * breaks); empty when the form is valid. An empty value breaks only `required`: the other
 * constraints apply to what was typed. Files are checked by the upload limits, not here.
 */
export function checkConstraints(form: SubmittedValues, constraints: readonly FieldConstraint[]): FieldErrors {
  const errors: FieldErrors = Object.create(null) as FieldErrors;
  for (const c of constraints) {
    if (c.name in errors || c.type === 'file') continue;
    const values = form.getAll(c.name);
    const filled = values.filter((v) => v !== '');
    if (filled.length === 0) {
      // A checkbox group is satisfied by any one box; a required text field by a non-empty value.
      if (c.required) errors[c.name] = c.messages?.required ?? DEFAULT_MESSAGES.required();
      continue;
    }
    if (c.type === 'checkbox' || c.type === 'radio' || c.type === 'select') continue;
    for (const v of filled) {
      const bad = violation(c, v);
      if (bad !== undefined) {
        errors[c.name] = c.messages?.[bad[0]] ?? bad[1];
        break;
      }
    }
  }
  return errors;
}

export function hasErrors(errors: FieldErrors): boolean {
  for (const _ in errors) return true;
  return false;
}
