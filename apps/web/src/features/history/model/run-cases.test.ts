import type { CaseComparison } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { runCases, stripLabel, stripOrder } from './run-cases';

const compared = (name: string, change: CaseComparison['change']): CaseComparison => ({
  name,
  change,
  status:
    change === 'removed' ? null : change === 'fixed' || change === 'still_passing' ? 'passed' : 'failed',
  previous_status: change === 'new' ? null : 'passed',
  error: null,
  first_difference: null,
});

describe("a run's cases", () => {
  it('lists what changed first, keeps attempts, and adds results the comparison does not name', () => {
    const cases = runCases(
      [
        compared('a', 'still_passing'),
        compared('b', 'new_failure'),
        compared('c', 'fixed'),
        compared('d', 'removed'),
      ],
      [
        { test_case_name: 'a', status: 'passed', attempts: 1 },
        { test_case_name: 'b', status: 'failed', attempts: 3 },
        { test_case_name: 'e', status: 'error', attempts: 1 },
      ],
    );
    expect(cases.map((c) => [c.name, c.comparison?.change ?? null, c.status, c.attempts])).toEqual([
      ['b', 'new_failure', 'failed', 3],
      ['c', 'fixed', 'passed', 1],
      ['d', 'removed', null, 1],
      ['a', 'still_passing', 'passed', 1],
      ['e', null, 'failed', 1],
    ]);
  });

  it('draws the strip oldest first and names each square', () => {
    const result = {
      run_id: 'r1',
      created_at: '2026-11-26T10:00:00Z',
      status: 'flaky' as const,
      attempts: 2,
      execution_time: 1,
      error: null,
      suite_version: 1,
    };
    expect(stripLabel(result, () => '26 Nov')).toBe('Flaky on 26 Nov (2 attempts)');
    expect(stripOrder([3, 2, 1])).toEqual([1, 2, 3]);
  });
});
