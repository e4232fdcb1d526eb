import { describe, expect, it } from 'vitest';
import { groupFacts, seenSentence, seenText } from './sightings';

const FIRST = '3f2a9c1e-0000-4000-8000-000000000001';
const NOW = '9b8c7d6e-0000-4000-8000-000000000002';

const seen = (runs: number, first = FIRST) => ({
  fingerprint: '0123456789abcdef',
  runs,
  first_run_id: first,
  first_seen_at: '2026-11-20T08:15:00.000Z',
  last_run_id: NOW,
  last_seen_at: '2026-11-28T10:00:00.000Z',
});

describe('the "Seen in" sentence', () => {
  it('says how many runs since which day, and the first run', () => {
    expect(seenText(seen(14), NOW)).toBe('Seen in 14 runs since 2026-11-20 (first in run #3f2a9c1e)');
    expect(seenSentence(seen(14), NOW)).toMatchObject({ firstRun: 'run #3f2a9c1e', firstRunId: FIRST });
  });

  it('says when this run is the first of several, without linking to itself', () => {
    expect(seenText(seen(3, NOW), NOW)).toBe('Seen in 3 runs since 2026-11-20 (first in this run)');
    expect(seenSentence(seen(3, NOW), NOW).firstRun).toBeNull();
  });

  it('says a failure new in this run is seen here only', () => {
    expect(seenText(seen(1, NOW), NOW)).toBe('Seen in this run only');
    expect(seenText(seen(1), NOW)).toBe('Seen in 1 run, on 2026-11-20 (first in run #3f2a9c1e)');
  });
});

describe('a failure group’s facts', () => {
  it('counts runs and cases and gives the days it was seen', () => {
    expect(groupFacts({ ...seen(3), cases: ['Checkout', 'Reorder'] })).toBe(
      '3 runs · 2 cases · 2026-11-20 to 2026-11-28',
    );
    expect(groupFacts({ ...seen(1), last_seen_at: '2026-11-20T09:00:00Z', cases: ['Checkout'] })).toBe(
      '1 run · 1 case · 2026-11-20',
    );
  });
});
