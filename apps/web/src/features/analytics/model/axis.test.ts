import { describe, expect, it } from 'vitest';
import { DAY, dayLabel, xRange } from './axis';
import { daySeconds } from './series';

describe('the charts’ time axis', () => {
  it('gives one point (or none) a span, so a chart of one day still draws it', () => {
    const day = daySeconds('2026-11-26');
    expect(xRange([day], false)).toEqual([day - DAY, day + DAY]);
    expect(xRange([day], true)).toEqual([day - DAY, day + DAY]);
    expect(xRange([], false)).toEqual([0, DAY]);
  });

  it('pads days by half a day, so edge bars are whole; instants are not padded', () => {
    const a = daySeconds('2026-11-01');
    const b = daySeconds('2026-11-03');
    expect(xRange([a, b], false)).toEqual([a - DAY / 2, b + DAY / 2]);
    expect(xRange([a + 5, b], true)).toEqual([a + 5, b]);
  });

  it('labels midnights only', () => {
    expect(dayLabel(daySeconds('2026-11-26'))).toMatch(/26/);
    expect(dayLabel(daySeconds('2026-11-26') + 3600)).toBe('');
  });
});
