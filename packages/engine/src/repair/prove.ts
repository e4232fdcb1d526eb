import type { CaseFailure, TestCase } from '@argus/protocol';
import type { CapturedScreenshot } from '../test-runner';
import type { RepairOptions } from './repair-types';
import { runnerOffset } from './repairable';

/**
 * The proof of a repair: the repaired case (its whole step list) run on the current app in a fresh
 * browser, as the run runs it; it must pass. Keeps its steps' screenshots by the case's own step index
 * (the repaired step's is shown beside the last passing run's in the review), and, when it failed,
 * where and why: a later step that fails too may be the redesign's next change (propose-repair.ts).
 */
export interface Proof {
  passed: boolean;
  /** Seconds. */
  executionTime: number;
  error: string | null;
  failure: CaseFailure | null;
  /** Each passed step's screenshot, by the case's own step index. */
  screenshots: Map<number, CapturedScreenshot>;
  /** The page's URL as each passed step left it, by the case's own step index. */
  urls: Map<number, string>;
}

export async function prove(testCase: TestCase, after: string[], options: RepairOptions): Promise<Proof> {
  // The runner numbers its steps with a `Navigate to` put first when the case does not start with one.
  const offset = runnerOffset(after);
  const screenshots = new Map<number, CapturedScreenshot>();
  const urls = new Map<number, string>();
  const outcome = await options.run(
    { ...testCase, steps: after },
    {
      signal: options.signal,
      screenshots: true,
      onStep: (update, shot) => {
        if (update.status !== 'success' || update.step_index === undefined) return;
        if (shot) screenshots.set(update.step_index - offset, shot);
        if (update.url) urls.set(update.step_index - offset, update.url);
      },
    },
  );
  return {
    passed: outcome.status === 'passed',
    executionTime: outcome.executionTime,
    error: outcome.error,
    failure: outcome.failure ?? null,
    screenshots,
    urls,
  };
}
