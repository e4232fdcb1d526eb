import type { SavedSuite } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { fullTime, plural, relativeTime, siteLabel } from './format';
import { kindFrom } from './kinds';
import { runStatus, runSuiteLabel } from './runs';
import { lastChange, testNames, versionHistory } from './suites';

const NOW = Date.parse('2026-03-12T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('formatting', () => {
  it('says how long ago in a few steps, then the date', () => {
    expect(relativeTime(ago(10_000), NOW)).toBe('just now');
    expect(relativeTime(ago(-60_000), NOW)).toBe('just now');
    expect(relativeTime(ago(5 * 60_000), NOW)).toBe('5 min ago');
    expect(relativeTime(ago(3 * 3_600_000), NOW)).toBe('3 h ago');
    expect(relativeTime(ago(30 * 3_600_000), NOW)).toBe('yesterday');
    expect(relativeTime(ago(4 * 86_400_000), NOW)).toBe('4 days ago');
    expect(relativeTime('2026-01-02T10:00:00Z', NOW)).toBe('2 Jan 2026');
    expect(relativeTime('not a date', NOW)).toBe('');
    expect(relativeTime(null, NOW)).toBe('');
    expect(fullTime('nope')).toBe('');
  });

  it('counts and names sites', () => {
    expect(plural(1, 'test')).toBe('1 test');
    expect(plural(3, 'test')).toBe('3 tests');
    expect(siteLabel('https://shop.example.com/')).toBe('shop.example.com');
    expect(siteLabel('http://localhost:3000/app/')).toBe('localhost:3000/app');
    expect(siteLabel('nope')).toBe('nope');
    expect(kindFrom('mobile')).toBe('mobile');
    expect(kindFrom('desktop')).toBe('web');
    expect(kindFrom(null)).toBe('web');
  });
});

describe('runs', () => {
  it("reads a run's status as a badge", () => {
    expect(runStatus({ status: 'completed', failed_tests: 0 })).toEqual({ label: 'Passed', tone: 'green' });
    expect(runStatus({ status: 'completed', failed_tests: 2 })).toEqual({ label: 'Failed', tone: 'red' });
    expect(runStatus({ status: 'running', failed_tests: 0 }).label).toBe('Running');
    expect(runStatus({ status: 'interrupted', failed_tests: 0 }).tone).toBe('amber');
    expect(runStatus({ status: 'queued', failed_tests: 0 })).toEqual({ label: 'Queued', tone: 'slate' });
  });

  it('names the suite and version a run ran', () => {
    expect(runSuiteLabel({ test_suite_name: 'Checkout', suite_version: 3, suite_id: 's' })).toBe(
      'Checkout v3',
    );
    expect(runSuiteLabel({ test_suite_name: 'Checkout', suite_version: null, suite_id: null })).toBe(
      'Checkout',
    );
    expect(runSuiteLabel({ test_suite_name: null, suite_version: null, suite_id: null })).toBe(
      'Tests not saved to a suite',
    );
  });
});

describe('saved suites', () => {
  const suite: SavedSuite = {
    id: 's',
    project_id: 'p',
    name: 'Checkout',
    version: 2,
    retries: 0,
    recording: { trace: 'on-failure', video: false },
    visual_each_case: false,
    test_cases: [
      {
        test_name: 'Pay',
        description: '',
        steps: [],
        category: 'General',
        priority: 'high',
        expected_result: '',
      },
      {
        test_name: '',
        description: '',
        steps: [],
        category: 'General',
        priority: 'low',
        expected_result: '',
      },
    ],
    versions: [
      { version: 1, saved_by: 'ann', saved_at: '2026-03-01T00:00:00Z', change: 'Created', test_count: 1 },
      {
        version: 2,
        saved_by: 'bob',
        saved_at: '2026-03-02T00:00:00Z',
        change: 'Added a test',
        test_count: 2,
      },
    ],
    created_at: '2026-03-01T00:00:00Z',
    updated_at: '2026-03-02T00:00:00Z',
  };

  it('shows the newest change first and names every test', () => {
    expect(versionHistory(suite).map((v) => v.version)).toEqual([2, 1]);
    expect(lastChange(suite)?.saved_by).toBe('bob');
    expect(lastChange({ ...suite, versions: [] })).toBeNull();
    expect(testNames(suite)).toEqual(['Pay', 'Test 2']);
  });
});
