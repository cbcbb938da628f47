// DOM helpers of the trace viewer's page script: the page's elements by id, and new elements with
// text. Span data is untrusted: it reaches the page only as the text `el` sets (textContent), never
// as HTML.

/** The page's element with this id (the page is `viewer-html.ts`'s, so a missing one is a bug). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`kit trace viewer: the page has no #${id}`);
  return e as T;
}

/** A new element with a class and text (any value, shown as its string). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string,
  text?: unknown,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

/** Appends an option per value to a select. */
export function addOptions(select: HTMLSelectElement, values: readonly string[]): void {
  for (const v of values) {
    const o = el('option', '', v);
    o.value = v;
    select.appendChild(o);
  }
}
