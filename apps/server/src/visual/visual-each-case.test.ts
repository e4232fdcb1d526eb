import { parseStep, type TestCase } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { endsWithVisualCheck, VISUAL_CHECK_STEP, withVisualCheckAtEnd } from './visual-each-case';

const testCase = (test_name: string, steps: string[]): TestCase =>
  ({ test_name, steps, description: '', category: 'General', priority: 'medium' }) as TestCase;

describe('a visual check after every case', () => {
  it("adds the step language's page check", () => {
    expect(VISUAL_CHECK_STEP).toBe('Verify the page looks as approved');
    expect(parseStep(VISUAL_CHECK_STEP)).toEqual({ verb: 'verifyLooksApproved' });
  });

  it('appends it as the last step of every case, the rest of each case as it was', () => {
    const cases = [
      testCase('Home', ['Navigate to /', 'Verify heading "Home" is visible']),
      testCase('Empty', []),
    ];
    expect(withVisualCheckAtEnd(cases)).toEqual([
      { ...cases[0], steps: ['Navigate to /', 'Verify heading "Home" is visible', VISUAL_CHECK_STEP] },
      { ...cases[1], steps: [VISUAL_CHECK_STEP] },
    ]);
  });

  it('leaves a case that ends with a visual check (any spelling, of the page or a region) as it is', () => {
    const ending = [
      'Verify the page looks as approved',
      'verify that the page looks as approved.',
      '3. Verify the page looks as approved',
      'Verify "Header" looks as approved',
      "Verify that 'Cart' looks as approved",
    ];
    for (const last of ending) {
      const one = testCase('Ends checked', ['Navigate to /', last]);
      expect(endsWithVisualCheck(one)).toBe(true);
      expect(withVisualCheckAtEnd([one])[0]).toBe(one);
    }
    // Blank lines after it are not steps.
    expect(endsWithVisualCheck(testCase('Blank after', [VISUAL_CHECK_STEP, '  ']))).toBe(true);
  });

  it('adds it when the check is not the last step, or only looks like one', () => {
    const notLast = testCase('Earlier', [VISUAL_CHECK_STEP, 'Click "Buy"']);
    const freeForm = testCase('Free-form', ['Navigate to /', 'Check the page looks as approved by design']);
    const text = testCase('Text', ['Verify text "the page looks as approved" is visible']);
    for (const one of [notLast, freeForm, text]) {
      expect(endsWithVisualCheck(one)).toBe(false);
      expect(withVisualCheckAtEnd([one])[0].steps.at(-1)).toBe(VISUAL_CHECK_STEP);
      expect(withVisualCheckAtEnd([one])[0].steps).toHaveLength(one.steps.length + 1);
    }
  });

  it('does not change the cases given', () => {
    const cases = [testCase('Home', ['Navigate to /'])];
    withVisualCheckAtEnd(cases);
    expect(cases[0].steps).toEqual(['Navigate to /']);
  });
});
