// What an action answers when the page should show the form again: `fail(status, data)` (a
// failure: 422 by default, the submitted values kept, per-field errors shown) and `showPage(data)`
// (success with data for the page). Both re-render the action's page with its layouts, `data`
// readable in the view as `form` (`{form.message}`, `{form.errors.email}`, `{form.values.name}`).
// Modelled on SvelteKit's `fail` and form actions' returned data.

/** The `form` value a re-rendered page reads: what the action gave, plus `errors` and `values`. */
export interface FormState {
  /** Field name → message (`g:error="field"` shows it). */
  errors: Record<string, string>;
  /** Field name → the submitted text value (first value of a repeated name). */
  values: Record<string, string>;
  [key: string]: unknown;
}

/** What `fail` and `showPage` accept: any fields the view reads, `errors` and `values` optional. */
export interface FormResultData {
  errors?: Record<string, string>;
  values?: Record<string, string>;
  [key: string]: unknown;
}

/** A failed submission: the page is shown again with this status, the values and the errors. */
export class ActionFailure<T extends FormResultData = FormResultData> {
  constructor(
    readonly status: number,
    readonly data: T,
  ) {}
}

/** Data for the page: the action's page is shown with `data` as `form` (200 unless told). */
export class PageAnswer<T extends FormResultData = FormResultData> {
  constructor(
    readonly status: number,
    readonly data: T,
  ) {}
}

/**
 * `return fail(422, { errors: { email: 'taken' } })`: the page again, the submitted values in its
 * inputs, each error next to its field (`g:error`). Status 400..499 (422 by default).
 */
export function fail<T extends FormResultData>(status = 422, data?: T): ActionFailure<T> {
  if (!Number.isInteger(status) || status < 400 || status > 499)
    throw new RangeError(`fail: status must be 400..499, got ${String(status)}`);
  return new ActionFailure(status, (data ?? {}) as T);
}

/** `return showPage({ message: 'Saved' })`: the action's page, `{form.message}` readable in it. */
export function showPage<T extends FormResultData>(data?: T, status = 200): PageAnswer<T> {
  if (!Number.isInteger(status) || status < 200 || status > 299)
    throw new RangeError(`showPage: status must be 200..299, got ${String(status)}`);
  return new PageAnswer(status, (data ?? {}) as T);
}

/** The view's `form`: the action's data with `errors` and `values` always present. */
export function formState(
  data: FormResultData,
  submitted: Record<string, string>,
  errors: Record<string, string> = {},
): FormState {
  return {
    ...data,
    errors: { ...errors, ...(data.errors ?? {}) },
    values: { ...submitted, ...(data.values ?? {}) },
  };
}
