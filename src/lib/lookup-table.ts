/**
 * A table read with keys that come from requests (program names, variables, words).
 * A plain object literal answers `toString`, `constructor` or `__proto__` with what it
 * inherits from Object.prototype; this one has no prototype, so an unknown key is
 * always `undefined`.
 */
export function lookupTable<V>(entries: Record<string, V>): Record<string, V> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, V>, entries));
}
