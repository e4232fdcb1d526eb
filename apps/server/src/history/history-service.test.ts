import type { SuiteVersionRow } from '@argus/db';
import { describe, expect, it } from 'vitest';
import { analyticsRange, dayStart } from './analytics-service';
import {
  caseChange,
  decodeCursor,
  encodeCursor,
  failureSignature,
  firstDifference,
  lastChange,
} from './history-service';

describe('history rules', () => {
  it('folds numbers, ids, quoted values and query strings out of a failure message', () => {
    expect(failureSignature('Timed out after 5000 ms waiting for #row-3f2a9c1b7d (attempt 2)')).toBe(
      'Timed out after # ms waiting for #row-<id> (attempt #)',
    );
    expect(
      failureSignature(
        "Expected 'Paid' at https://a.example/pay?id=17&x=2 for 0b8c1f36-7d44-4e0c-9a6e-2a1d3f4b5c6d",
      ),
    ).toBe("Expected '…' at https://a.example/pay?… for <id>");
    expect(failureSignature('Timed out after 7000 ms waiting for #row-00aa11bb22')).toBe(
      failureSignature('Timed out after 5000  ms waiting for #row-ffee99dd88'),
    );
  });

  it('counts a flaky case as a pass and a skipped one as not passing when comparing runs', () => {
    expect(caseChange('failed', 'flaky')).toBe('new_failure');
    expect(caseChange('flaky', 'failed')).toBe('fixed');
    expect(caseChange('skipped', 'passed')).toBe('new_failure');
    expect(caseChange('failed', 'skipped')).toBe('still_failing');
    expect(caseChange('passed', null)).toBe('new');
    expect(caseChange(null, 'passed')).toBe('removed');
  });

  it('finds the first step whose text or status differs, and none when they match', () => {
    const s = (description: string, status = 'success') => ({ action: 'click', description, status });
    expect(firstDifference([s('Open /'), s('Click "A"')], [s('Open /'), s('Click "A"')])).toBeNull();
    expect(firstDifference([s('Open /'), s('Click "B"')], [s('Open /'), s('Click "A"')])?.step_number).toBe(
      2,
    );
    expect(firstDifference([s('Open /', 'error')], [s('Open /')])?.step_number).toBe(1);
    expect(firstDifference([s('Open /')], [s('Open /'), s('Click "A"')])).toEqual({
      step_number: 2,
      now: null,
      before: { action: 'Click "A"', status: 'success', error: null },
    });
  });

  it("names the latest version that changed the case's steps", () => {
    const v = (version: number, steps: string[] | null): SuiteVersionRow => ({
      version,
      test_cases: steps ? [{ test_name: 'Pay', steps }] : [],
      saved_by: 'me',
      change: `v${version}`,
      saved_at: new Date(0),
    });
    expect(lastChange([v(1, ['a']), v(2, ['a', 'b']), v(3, ['a', 'b'])], 'Pay')?.version).toBe(2);
    expect(lastChange([v(1, null), v(2, ['a'])], 'Pay')?.version).toBe(2);
    expect(lastChange([v(1, ['a'])], 'Other')).toBeNull();
  });

  it('reads back the cursors it writes and refuses others', () => {
    const position = { position: '2026-11-01T08:00:00.123456Z', id: '0b8c1f36-7d44-4e0c-9a6e-2a1d3f4b5c6d' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
    expect(() => decodeCursor('bm9wZQ')).toThrow();
    expect(() => decodeCursor(Buffer.from('2026-11-01|x').toString('base64url'))).toThrow();
  });

  it('counts days in the asked zone, defaults to the last 30 days and refuses more than a year', () => {
    expect(dayStart('2026-11-01', 'Asia/Tokyo').toISOString()).toBe('2026-10-31T15:00:00.000Z');
    // New York leaves daylight saving time on 1 November 2026.
    expect(dayStart('2026-11-01', 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(dayStart('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
    const now = new Date('2026-11-30T12:00:00Z');
    expect(analyticsRange({}, now)).toMatchObject({
      from: new Date('2026-10-31T12:00:00Z'),
      to: now,
      tz: 'UTC',
    });
    expect(() => analyticsRange({ from: '2025-01-01', to: '2026-01-02' }, now)).toThrow();
    expect(() => analyticsRange({ tz: 'Not/AZone' }, now)).toThrow();
  });
});
