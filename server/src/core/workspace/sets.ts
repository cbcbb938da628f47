// Maps of sets, as the workspace's indexes keep them.

/** Adds `value` to the set at `key` of a map of sets. */
export function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}
