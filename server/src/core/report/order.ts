// The reports' one string order: by UTF-16 code units, as JavaScript's `<` compares, never by
// locale, so that a report reads the same on every machine.
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
