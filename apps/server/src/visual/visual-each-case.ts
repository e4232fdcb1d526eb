import { formatStep, parseStep, type Step, StepSyntaxError, type TestCase } from '@argus/protocol';

// A saved suite's option "Visual check after every case" (docs/VISUAL-CHECKS.md#a-check-after-every-case):
// each case's run ends with a visual check of the whole page. The step is added for the run only; the
// saved suite keeps its cases as written.

/** The step added: `Verify the page looks as approved`, as the step language writes it. */
export const VISUAL_CHECK_STEP = formatStep({ verb: 'verifyLooksApproved' });

/** A line as the step language reads it, or null for one it does not (a free-form step). */
function parsed(line: string): Step | null {
  try {
    return parseStep(line);
  } catch (error) {
    if (error instanceof StepSyntaxError) return null;
    throw error;
  }
}

/** Whether the case's last step (blank lines aside) is a visual check, of the page or of a region. */
export function endsWithVisualCheck(testCase: Pick<TestCase, 'steps'>): boolean {
  const last = testCase.steps.findLast((line) => line.trim() !== '');
  return last !== undefined && parsed(last)?.verb === 'verifyLooksApproved';
}

/**
 * The cases as a run of a suite with the option on carries them out: each with the page's visual check
 * as its last step, unless its last step is a `… looks as approved` check already. New cases; those
 * given are not changed.
 */
export function withVisualCheckAtEnd(cases: TestCase[]): TestCase[] {
  return cases.map((testCase) =>
    endsWithVisualCheck(testCase) ? testCase : { ...testCase, steps: [...testCase.steps, VISUAL_CHECK_STEP] },
  );
}
