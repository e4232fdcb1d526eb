import { type CaseRepair, CaseRepairSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  approvalBody,
  approveAllIds,
  bySuite,
  decisionText,
  proofText,
  repairsLabel,
  reviewOrder,
  savedText,
} from './review';

function repair(id: string, overrides: Partial<CaseRepair> = {}): CaseRepair {
  return CaseRepairSchema.parse({
    id,
    run_id: 'run1',
    project_id: 'p1',
    suite_id: 's1',
    suite_version: 2,
    case_name: `Case ${id}`,
    case_index: 0,
    result_id: null,
    verdict: 'repair',
    status: 'proposed',
    step_index: 1,
    before: ['Click "Add"'],
    after: ['Click "Create task"'],
    diff: [],
    weakenings: [],
    evidence: { summary: 'Button "Add" is gone', engine: 'built-in (rule-based)', proof: null },
    before_screenshot_id: null,
    after_screenshot_id: null,
    created_at: '2026-11-29T12:00:00Z',
    decided_by: null,
    decided_at: null,
    decision_reason: null,
    saved_version: null,
    ...overrides,
  });
}

const plain = repair('a');
const weak = repair('b', { verdict: 'weakens' });
const bug = repair('c', { verdict: 'bug', status: 'none' });
const rejected = repair('d', { status: 'rejected' });

describe('the repairs review', () => {
  it('approves all the plain repairs waiting, never a weakening, a bug or a decided one', () => {
    expect(approveAllIds([plain, weak, bug, rejected, repair('e')])).toEqual(['a', 'e']);
  });

  it('sends a weakening only once confirmed, and names it in accept_weakening', () => {
    const all = [plain, weak, bug, rejected];
    const chosen = new Set(['a', 'b', 'c', 'd']);
    expect(approvalBody(all, chosen, new Set())).toEqual({ ids: ['a'], accept_weakening: [] });
    expect(approvalBody(all, chosen, new Set(['b']))).toEqual({ ids: ['a', 'b'], accept_weakening: ['b'] });
    expect(approvalBody(all, new Set(), new Set(['b']))).toEqual({ ids: [], accept_weakening: [] });
  });

  it('says the proof and the saved version in words', () => {
    expect(
      proofText(
        repair('p', { evidence: { ...plain.evidence, proof: { status: 'passed', execution_time: 3.21 } } }),
      ),
    ).toBe('Proved: the repaired case passed in 3.2 s');
    expect(
      proofText(
        repair('q', { evidence: { ...plain.evidence, proof: { status: 'failed', execution_time: 12.6 } } }),
      ),
    ).toBe('Not proved: the repaired case failed after 13 s');
    expect(proofText(plain)).toBe('Not proved: the repaired case was not run');
    expect(savedText({ version: 4, change: 'Repaired from run 3f2a91c0: 3 cases', repairs: [] })).toBe(
      'Saved as version 4: Repaired from run 3f2a91c0: 3 cases',
    );
  });

  it('says how each decided proposal stands', () => {
    expect(decisionText(repair('x', { status: 'approved', saved_version: 4 }))).toBe(
      'Approved · saved in version 4',
    );
    expect(decisionText(rejected)).toMatch(/^Rejected/);
    expect(
      decisionText(repair('r', { status: 'rejected', decided_by: 'mia', decision_reason: 'Wrong button' })),
    ).toBe('Rejected by mia ("Wrong button"): not proposed again for the same page');
    expect(decisionText(repair('y', { status: 'superseded' }))).toMatch(/^Superseded/);
    expect(decisionText(plain)).toBeNull();
  });

  it('lists repairs waiting first, then weakenings, bugs and decided ones, stable within each', () => {
    const second = repair('f');
    expect(reviewOrder([rejected, bug, weak, plain, second]).map((r) => r.id)).toEqual([
      'a',
      'f',
      'b',
      'c',
      'd',
    ]);
  });

  it('groups by suite and names the count waiting', () => {
    const other = repair('g', { suite_id: 's2' });
    expect([...bySuite([plain, other, weak]).entries()].map(([k, v]) => [k, v.map((r) => r.id)])).toEqual([
      ['s1', ['a', 'b']],
      ['s2', ['g']],
    ]);
    expect(repairsLabel(0)).toBe('Repairs');
    expect(repairsLabel(undefined)).toBe('Repairs');
    expect(repairsLabel(3)).toBe('Repairs (3)');
  });
});
