import { httpUrlProblem, parseStep, type TestCase, TestCaseSchema } from '@argus/protocol';

/** Limits of a hand-written case (the protocol allows 500 steps; a person writes far fewer). */
export const CUSTOM_NAME_MAX = 200;
export const CUSTOM_STEPS_MAX = 100;
export const CUSTOM_CATEGORY = 'Custom';

export interface CustomCaseDraft {
  name: string;
  description: string;
  /** One step per line; blank lines are skipped. */
  steps: string;
}

export interface StepProblem {
  /** 1-based line number in the text the user typed. */
  line: number;
  text: string;
}

export interface CustomCaseCheck {
  nameProblem: string | null;
  stepsProblem: string | null;
  /** Lines that are not in the step language. */
  badLines: StepProblem[];
  /** The case to add when there is no problem. */
  testCase: TestCase | null;
}

/** Reads a typed list: trims lines, drops blanks and a leading "1." or "-" a person may type. */
export function stepLines(text: string): { line: number; text: string }[] {
  return text
    .split(/\r?\n/)
    .map((raw, index) => ({ line: index + 1, text: raw.trim().replace(/^(?:\d+[.)]|[-*•])\s+/, '') }))
    .filter((entry) => entry.text.length > 0);
}

function isStep(text: string): boolean {
  try {
    parseStep(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks a custom case as the user types it, with the same parser the engine runs: a name that is
 * there and not taken, at least one step, and every line in the step language (docs/STEP-LANGUAGE.md).
 */
export function checkCustomCase(
  draft: CustomCaseDraft,
  existingNames: readonly string[],
  url: string | null,
  id: string,
): CustomCaseCheck {
  const name = draft.name.trim();
  let nameProblem: string | null = null;
  if (!name) nameProblem = 'Give the test a name';
  else if (name.length > CUSTOM_NAME_MAX) nameProblem = `Keep the name under ${CUSTOM_NAME_MAX} characters`;
  else if (existingNames.includes(name)) nameProblem = 'A test with this name already exists';

  const lines = stepLines(draft.steps);
  const badLines = lines.filter((entry) => !isStep(entry.text));
  let stepsProblem: string | null = null;
  if (lines.length === 0) stepsProblem = 'Write at least one step';
  else if (lines.length > CUSTOM_STEPS_MAX) stepsProblem = `At most ${CUSTOM_STEPS_MAX} steps`;
  else if (badLines.length > 0)
    stepsProblem = `${badLines.length === 1 ? 'One line is' : `${badLines.length} lines are`} not in the step language`;

  const ok = nameProblem === null && stepsProblem === null;
  return {
    nameProblem,
    stepsProblem,
    badLines,
    testCase: ok
      ? TestCaseSchema.parse({
          id,
          test_name: name,
          description: draft.description.trim(),
          steps: lines.map((entry) => entry.text),
          category: CUSTOM_CATEGORY,
          priority: 'medium',
          expected_result: 'Every step succeeds',
          // The URL field may still hold something half-typed; the case keeps only a URL it can open.
          ...(url && httpUrlProblem(url) === null ? { url } : {}),
        })
      : null,
  };
}

/** Cases the user wrote (and may remove), as opposed to generated ones. */
export function isCustomCase(testCase: TestCase): boolean {
  return testCase.category === CUSTOM_CATEGORY && (testCase.id ?? '').startsWith('custom-');
}
