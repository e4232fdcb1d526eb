import { describe, expect, it } from 'vitest';
import {
  countsText,
  formatCost,
  formatSeconds,
  relativeWhen,
  suiteLabel,
  triggerText,
  visualReviewText,
} from './format';
import { itemPath } from './links';

describe('history formatting', () => {
  it('says durations at a sensible precision', () => {
    expect(formatSeconds(null)).toBe('–');
    expect(formatSeconds(0.43)).toBe('0.4 s');
    expect(formatSeconds(42.4)).toBe('42 s');
    expect(formatSeconds(185)).toBe('3 min 05 s');
    expect(formatSeconds(3725)).toBe('1 h 02 min');
  });

  it('says costs, the trigger and the counts in words', () => {
    expect(formatCost(null)).toBeNull();
    expect(formatCost(0)).toBe('$0');
    expect(formatCost(0.004)).toBe('<$0.01');
    expect(formatCost(1.234)).toBe('$1.23');
    expect([triggerText('screen'), triggerText('api'), triggerText('schedule'), triggerText(null)]).toEqual([
      'from screen',
      'via API',
      'scheduled',
      null,
    ]);
    expect(countsText({ total_tests: 5, passed_tests: 3, failed_tests: 1, flaky_tests: 1 })).toBe(
      '3 passed · 1 failed · 1 flaky',
    );
    expect(countsText({ total_tests: 2, passed_tests: 2, failed_tests: 0, flaky_tests: 0 })).toBe(
      '2 passed · 0 failed',
    );
    expect(
      countsText({ total_tests: null, passed_tests: null, failed_tests: null, flaky_tests: null }),
    ).toBeNull();
  });

  it('names a suite with its version once', () => {
    expect(suiteLabel({ title: 'Checkout', suite_version: 3 })).toBe('Checkout v3');
    expect(suiteLabel({ title: 'Checkout (v3) on staging', suite_version: 3 })).toBe(
      'Checkout (v3) on staging',
    );
    expect(suiteLabel({ title: 'Checkout', suite_version: null })).toBe('Checkout');
  });

  it('says how long ago, then the date', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(relativeWhen('2026-11-26T11:59:30Z', now)).toBe('just now');
    expect(relativeWhen('2026-11-26T11:15:00Z', now)).toBe('45 min ago');
    expect(relativeWhen('2026-11-25T12:00:00Z', now)).toBe('1 day ago');
    expect(relativeWhen('2026-10-01T12:00:00Z', now)).not.toContain('ago');
  });

  it('opens a run on its page, a comparison and a conversation on their screens', () => {
    expect(itemPath({ kind: 'run', id: 'r/1', session_id: null })).toBe('/history/runs/r%2F1');
    expect(itemPath({ kind: 'comparison', id: 'c1', session_id: 's1' })).toBe('/figma-comparison?session=s1');
    expect(itemPath({ kind: 'comparison', id: 'c1', session_id: null })).toBeNull();
    expect(itemPath({ kind: 'conversation', id: 'v1', session_id: 's2' })).toBe(
      '/conversational?conversation=v1',
    );
  });
});

describe('visualReviewText', () => {
  it('says that a run has changes to review, and how many', () => {
    expect(visualReviewText(3)).toBe('Changes to review (3)');
  });
});
