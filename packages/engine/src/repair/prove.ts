import type { TestCase } from '@argus/protocol';
import type { CapturedScreenshot } from '../test-runner';
import type { RepairOptions } from './repair-types';
import { runnerOffset } from './repairable';

/**
 * The proof of a repair: the repaired case (its whole step list) run on the current app in a fresh
 * browser, as the run runs it; it must pass. Keeps the screenshot of the repaired step (the page as
 * that step left it), shown beside the last passing run's in the review.
 */
export interface Proof {
  passed: boolean;
  /** Seconds. */
  executionTime: number;
  error: string | null;
  screenshot: CapturedScreenshot | null;
}

export async function prove(
  testCase: TestCase,
  after: string[],
  repairedIndex: number,
  options: RepairOptions,
): Promise<Proof> {
  // The runner numbers its steps with a `Navigate to` put first when the case does not start with one.
  const runnerIndex = repairedIndex + runnerOffset(after);
  let screenshot: CapturedScreenshot | null = null;
  const outcome = await options.run(
    { ...testCase, steps: after },
    {
      signal: options.signal,
      screenshots: true,
      onStep: (update, shot) => {
        if (shot && update.step_index === runnerIndex && update.status === 'success') screenshot = shot;
      },
    },
  );
  return {
    passed: outcome.status === 'passed',
    executionTime: outcome.executionTime,
    error: outcome.error,
    screenshot,
  };
}
