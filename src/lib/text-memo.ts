/**
 * Remembers the results of a pure function of a string for the `capacity` most recently used
 * inputs of at most `maxLength` characters; longer inputs are computed every time. Agents repeat
 * the same calls (the same parameterised query, the same command), and parsing is what a verdict
 * spends most of its time on.
 */
export function memoizeText<T>(
  fn: (text: string) => T,
  options: { capacity: number; maxLength: number },
): (text: string) => T {
  const entries = new Map<string, T>();
  return (text) => {
    if (text.length > options.maxLength) return fn(text);
    const hit = entries.get(text);
    if (hit !== undefined) {
      // Map keeps insertion order: moving a hit to the end makes the first key the least recent.
      entries.delete(text);
      entries.set(text, hit);
      return hit;
    }
    const value = fn(text);
    if (entries.size >= options.capacity) entries.delete(entries.keys().next().value as string);
    entries.set(text, value);
    return value;
  };
}
