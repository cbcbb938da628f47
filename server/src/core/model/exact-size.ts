// Lists a workspace keeps for as long as it holds a file: a list grown by `push` keeps spare room
// (17 slots for two elements, 152 bytes where 32 would do), and every byte of it is copied by each
// scavenge it survives and then kept in the old generation.

/** `a` itself when empty (its caller's own list, as mutable as it was), else a copy without spare room. */
export function exactSize<T>(a: readonly T[]): T[] {
  return a.length === 0 ? (a as T[]) : a.slice();
}
