// Param maps are plain objects (easy to log, compare and spread), but param names come from user
// patterns and `__proto__` or `constructor` are valid names: these two helpers keep such names
// from reaching Object.prototype in either direction.

export function setOwn<V>(target: Record<string, V>, key: string, value: V): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

export function getOwn<V>(source: Record<string, V> | Map<string, V>, key: string): V | undefined {
  if (source instanceof Map) return source.get(key);
  return Object.prototype.hasOwnProperty.call(source, key) ? source[key] : undefined;
}
