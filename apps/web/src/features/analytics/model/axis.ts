// The time axis of the analytics charts (docs/HISTORY.md): its span and its day labels.

export const DAY = 86_400;

const DAY_LABEL = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** 'Nov 26' for a midnight (UTC, as days are drawn), nothing for another instant. */
export function dayLabel(seconds: number): string {
  return seconds % DAY === 0 ? DAY_LABEL.format(new Date(seconds * 1000)) : '';
}

/**
 * The x axis' span, fixed from the data: one point (or none) has no span, so a day either side
 * draws it mid-chart; days get half a day either side, so the first and last bars are whole.
 */
export function xRange(x: readonly number[], instants: boolean): [number, number] {
  if (x.length === 0) return [0, DAY];
  const lo = x[0];
  const hi = x[x.length - 1];
  if (lo === hi) return [lo - DAY, hi + DAY];
  return instants ? [lo, hi] : [lo - DAY / 2, hi + DAY / 2];
}
