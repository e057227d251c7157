import { describe, expect, it } from 'vitest';
import { logThrottle } from './log-throttle.ts';

describe('logThrottle', () => {
  it('lets one report through per interval and counts the ones held back', () => {
    let now = 0;
    const report = logThrottle(1000, () => now);
    expect(report()).toEqual({ suppressed: 0 });
    now = 10;
    expect(report()).toBeUndefined();
    now = 999;
    expect(report()).toBeUndefined();
    now = 1000;
    expect(report()).toEqual({ suppressed: 2 });
    now = 5000;
    expect(report()).toEqual({ suppressed: 0 });
  });
});
