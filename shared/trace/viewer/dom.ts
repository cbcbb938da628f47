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

/**
 * Calls `pick` when a row or list entry is chosen. The lists are drawn again whenever spans arrive
 * or a filter changes, and a frame drawn between a mouse button's press and its release replaces the
 * element under it, so the browser sends no `click` for that press: a mouse picks on press (the
 * primary button), and `click` still serves the keyboard, touch and pen. Picking twice is harmless.
 */
export function onPick(e: HTMLElement, pick: () => void): void {
  e.addEventListener('pointerdown', (ev) => {
    if (ev.pointerType === 'mouse' && ev.button === 0) pick();
  });
  e.addEventListener('click', pick);
}
