import type { CaseRepairRow } from '@argus/db';
import type { TestCase } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { repairedCases, repairNote, sameSteps } from './approval';

// Which chosen repairs may be saved, and the suite's cases once they are (docs/REPAIRS.md).

const testCase = (name: string, steps: string[]): TestCase => ({
  test_name: name,
  description: '',
  steps,
  category: 'General',
  priority: 'medium',
  expected_result: '',
});
const SUITE = {
  test_cases: [
    testCase('Add', ['Navigate to /', 'Click "Add"']),
    testCase('Filter', ['Navigate to /', 'Click "Active"']),
  ],
};
const row = (id: string, patch: Partial<CaseRepairRow>): CaseRepairRow =>
  ({
    id,
    test_run_id: '3f2a91c0-0000-4000-8000-000000000001',
    case_name: 'Add',
    case_index: 0,
    verdict: 'repair',
    status: 'proposed',
    steps_before: ['Navigate to /', 'Click "Add"'],
    steps_after: ['Navigate to /', 'Click "Create task"'],
    ...patch,
  }) as CaseRepairRow;

const refusal = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError && error.code === 'REPAIR_CONFLICT') return String(error.detail);
    throw error;
  }
  throw new Error('not refused');
};

describe('approving repairs', () => {
  it('puts each repair in its case, found by name when the suite moved it, the others as saved', () => {
    const moved = { test_cases: [SUITE.test_cases[1], SUITE.test_cases[0]] };
    const cases = repairedCases(moved, [row('a', {})], new Set());
    expect(cases.map((c) => c.steps[1])).toEqual(['Click "Active"', 'Click "Create task"']);
    expect(moved.test_cases[1].steps[1]).toBe('Click "Add"');
  });

  it('refuses a weakening not accepted, a bug, a decided repair, two of one case, a case gone or changed', () => {
    expect(refusal(() => repairedCases(SUITE, [row('w', { verdict: 'weakens' })], new Set()))).toContain(
      'weakens an assertion',
    );
    expect(repairedCases(SUITE, [row('w', { verdict: 'weakens' })], new Set(['w']))[0].steps[1]).toBe(
      'Click "Create task"',
    );
    expect(
      refusal(() => repairedCases(SUITE, [row('b', { verdict: 'bug', status: 'none' })], new Set())),
    ).toContain('"Add" looks like a bug');
    expect(refusal(() => repairedCases(SUITE, [row('r', { status: 'superseded' })], new Set()))).toContain(
      'is superseded',
    );
    expect(refusal(() => repairedCases(SUITE, [row('a', {}), row('b', {})], new Set()))).toBe(
      'Two repairs of "Add" were chosen: choose one',
    );
    expect(refusal(() => repairedCases(SUITE, [row('g', { case_name: 'Gone' })], new Set()))).toBe(
      '"Gone" is no longer in the suite',
    );
    expect(
      refusal(() =>
        repairedCases(SUITE, [row('c', { steps_before: ['Navigate to /', 'Click "Plus"'] })], new Set()),
      ),
    ).toBe('"Add" was changed since run 3f2a91c0 failed: its repair was made from other steps');
  });

  it('compares steps with the spaces around them ignored', () => {
    expect(sameSteps([' Click "Add" '], ['Click "Add"'])).toBe(true);
    expect(sameSteps(['Click "Add"'], ['Click "Add"', 'Press Enter'])).toBe(false);
  });

  it("notes the runs repaired from, by their id's first 8 characters", () => {
    const run = (n: number) => ({ test_run_id: `${String(n).repeat(8)}-0000-4000-8000-000000000000` });
    expect(repairNote([run(1)])).toBe('Repaired from run 11111111: 1 case');
    expect(repairNote([run(1), run(1), run(2)])).toBe('Repaired from runs 11111111, 22222222: 3 cases');
    const many = [1, 2, 3, 4, 5, 6, 7].map(run);
    expect(repairNote(many)).toBe(
      'Repaired from runs 11111111, 22222222, 33333333, 44444444, 55555555 and 2 more: 7 cases',
    );
  });
});
