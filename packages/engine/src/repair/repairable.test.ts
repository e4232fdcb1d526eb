import { type CaseFailure, TestCaseSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import type { RepairRequest } from './repair-types';
import { judgeRepairable } from './repairable';

const request = (steps: string[], failure: Partial<CaseFailure>, error = ''): RepairRequest => ({
  testCase: TestCaseSchema.parse({ test_name: 'c', steps }),
  failure: { kind: 'not_found', evidence: 'evidence', fingerprint: 'f', step_index: 0, ...failure },
  error,
  lastPassing: null,
  rejected: [],
});

describe('judgeRepairable', () => {
  it("maps the runner's step index to the case's own: the runner put a Navigate first when the case has none", () => {
    const judged = judgeRepairable(request(['Fill "Name" with "Ada"', 'Click "Save"'], { step_index: 2 }));
    expect(judged).toMatchObject({
      repairable: true,
      stepIndex: 1,
      target: { want: 'clickable', name: 'Save' },
    });
    const own = judgeRepairable(request(['Navigate to /', 'Click "Save"'], { step_index: 1 }));
    expect(own).toMatchObject({ repairable: true, stepIndex: 1 });
  });

  it('tries a not-found element of an action or an element check, with the kind of element that replaces it', () => {
    const steps = [
      'Navigate to /',
      'Select "Red" from "Colour"',
      'Check "Agree"',
      'Verify field "Email" has value "a"',
    ];
    expect(judgeRepairable(request(steps, { step_index: 1 }))).toMatchObject({
      target: { want: 'select', name: 'Colour' },
    });
    expect(judgeRepairable(request(steps, { step_index: 2 }))).toMatchObject({
      target: { want: 'check', name: 'Agree' },
    });
    expect(judgeRepairable(request(steps, { step_index: 3 }))).toMatchObject({
      target: { want: 'field', name: 'Email' },
    });
  });

  it('tries a check of an element that is not there, and not one whose state does not hold', () => {
    const steps = ['Navigate to /', 'Verify button "Undo" is visible', 'Verify "Agree" is checked'];
    const missing = judgeRepairable(
      request(
        steps,
        { kind: 'assertion', step_index: 1 },
        'Expected a button named "Undo" to be visible on http://x/',
      ),
    );
    expect(missing).toMatchObject({
      repairable: true,
      target: { want: 'element', role: 'button', name: 'Undo' },
    });
    const unchecked = judgeRepairable(
      request(
        steps,
        { kind: 'assertion', step_index: 2 },
        'Expected "Agree" to be checked, but it is not checked',
      ),
    );
    expect(unchecked).toMatchObject({ repairable: false });
    if (unchecked.repairable) return;
    expect(unchecked.summary).toMatch(/^The target is there and the expected state does not hold/);
  });

  it('tries a changed text only without digits and when the case did not type it', () => {
    const steps = [
      'Navigate to /',
      'Fill "Title" with "Walk the dog"',
      'Verify text "Walk the dog" is visible',
    ];
    const typed = judgeRepairable(request(steps, { kind: 'assertion', step_index: 2 }));
    expect(typed).toMatchObject({ repairable: false, stepIndex: 2 });
    const counted = judgeRepairable(
      request(['Navigate to /', 'Verify title contains "2 items"'], { kind: 'assertion', step_index: 1 }),
    );
    expect(counted).toMatchObject({ repairable: false });
    const renamed = judgeRepairable(
      request(['Navigate to /', 'Wait for "Nothing to do"'], { kind: 'assertion', step_index: 1 }),
    );
    expect(renamed).toMatchObject({ repairable: true, target: { want: 'text', name: 'Nothing to do' } });
  });

  it('calls timing, environment and app errors bugs, and a not-visible check that failed', () => {
    for (const kind of ['timing', 'environment', 'app_error'] as const) {
      expect(
        judgeRepairable(request(['Navigate to /', 'Click "Save"'], { kind, step_index: 1 })),
      ).toMatchObject({
        repairable: false,
      });
    }
    const shown = judgeRepairable(
      request(['Navigate to /', 'Verify text "Error" is not visible'], { kind: 'assertion', step_index: 1 }),
    );
    expect(shown).toMatchObject({ repairable: false });
  });
});
