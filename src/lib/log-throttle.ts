/**
 * Lets one report through per `intervalMs` and counts the ones held back, so an outage that
 * fails every call (the database or Redis gone) writes a line every few seconds, not one per
 * call or per reconnection attempt. Each report that passes says how many were held back
 * since the one before it.
 */
export function logThrottle(
  intervalMs: number,
  now: () => number = Date.now,
): () => { suppressed: number } | undefined {
  let last = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  return () => {
    const at = now();
    if (at - last < intervalMs) {
      suppressed++;
      return undefined;
    }
    last = at;
    const held = suppressed;
    suppressed = 0;
    return { suppressed: held };
  };
}
