import { AbortedError, type TestOutcome } from '@argus/engine';
import { parseStep, type SuiteCheck, type TestCase } from '@argus/protocol';

/** Runs one case the way a run runs it (a session of its own lane, signed in as the run's are). */
export type CaseRunner = (testCase: TestCase, baseUrl: string, signal?: AbortSignal) => Promise<TestOutcome>;

export interface CaseCheckOptions {
  /** Times the whole suite is run. @default 2 */
  runs?: number;
  /** Cases at once, as a run's lanes take them. @default 2 */
  parallelism?: number;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

/**
 * Checks of the page's health: a case failing one of these every time reports a defect the app has
 * (a console error, a broken link), which is what it was written to find, not a fault of the case.
 */
const HEALTH_CHECKS = new Set([
  'verifyNoConsoleErrors',
  'verifyNoFailedRequests',
  'verifyLinksWork',
  'verifyImagesAlt',
  'verifyNoOverflow',
  'verifyAccessibility',
]);

/**
 * The generated cases that hold when run the way runs run them: the whole suite, `parallelism` cases
 * at once (each in a lane of its own, on fresh sign-ins), `runs` times; every case runs in every run,
 * so a case that breaks another by what it changes is seen too. A case that fails is dropped, with
 * the first reason (a case handed out must not turn a good build red), unless it failed every run at
 * a check of the page's health: then it reports a defect the app has, and is kept and named.
 * Cases with free-form steps are handed out unchecked (their steps need the model).
 */
export async function checkCases(
  cases: TestCase[],
  baseUrl: string,
  runCase: CaseRunner,
  options: CaseCheckOptions = {},
): Promise<{ kept: TestCase[]; check: SuiteCheck }> {
  const runs = Math.max(1, options.runs ?? 2);
  const parallelism = Math.max(1, options.parallelism ?? 2);
  const checked = cases.flatMap((c, i) => (inStepLanguage(c) ? [i] : []));
  const failures = new Map<number, { run: number; error: string; health: boolean }[]>();
  for (let run = 1; run <= runs; run++) {
    options.onProgress?.(
      `Checking ${checked.length} generated test case${checked.length === 1 ? '' : 's'} as a run runs them (run ${run} of ${runs}, ${parallelism} at once)`,
    );
    const subset = checked.map((i) => cases[i]);
    const outcomes = await runAll(
      subset,
      (c, signal) => runCase(c, baseUrl, signal),
      parallelism,
      options.signal,
    );
    outcomes.forEach((outcome, k) => {
      if (outcome.status === 'passed') return;
      const i = checked[k];
      const failed = {
        run,
        error: outcome.error ?? 'test failed',
        health: failedAtHealthCheck(cases[i], outcome),
      };
      failures.set(i, [...(failures.get(i) ?? []), failed]);
    });
  }
  const dropped: SuiteCheck['dropped'] = [];
  const defects: SuiteCheck['defects'] = [];
  const gone = new Set<number>();
  for (const [i, failed] of failures) {
    const test = cases[i].test_name;
    if (failed.length === runs && failed.every((f) => f.health)) {
      defects.push({ test, reason: failed[0].error.slice(0, 500) });
      continue;
    }
    gone.add(i);
    const first = failed[0];
    const how =
      failed.length < runs
        ? `failed in run ${first.run} of ${runs}, passed in another`
        : `failed in every run`;
    dropped.push({ test, reason: `${how}: ${first.error}`.slice(0, 500) });
  }
  if (dropped.length > 0)
    options.onProgress?.(
      `Dropped ${dropped.length} generated test case${dropped.length === 1 ? '' : 's'} that failed when run as runs run them: ${dropped.map((d) => `"${d.test}"`).join(', ')}`,
    );
  return {
    kept: cases.filter((_, i) => !gone.has(i)),
    check: {
      runs,
      parallelism,
      dropped: dropped.slice(0, 50),
      defects: defects.slice(0, 50),
      unchecked: cases.length - checked.length,
    },
  };
}

/** Whether every step is a step-language line (the built-in engine runs it without a model). */
function inStepLanguage(testCase: TestCase): boolean {
  return testCase.steps.every((line) => {
    try {
      parseStep(line);
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether the step the case failed at is a check of the page's health. */
function failedAtHealthCheck(testCase: TestCase, outcome: TestOutcome): boolean {
  const failed = [...outcome.steps].reverse().find((s) => s.status === 'error');
  if (!failed) return false;
  const index = failed.step_index ?? failed.step_number - 1;
  const line = testCase.steps[index];
  if (!line) return false;
  try {
    return HEALTH_CHECKS.has(parseStep(line).verb);
  } catch {
    return false;
  }
}

async function runAll(
  cases: TestCase[],
  runCase: (testCase: TestCase, signal?: AbortSignal) => Promise<TestOutcome>,
  parallelism: number,
  signal: AbortSignal | undefined,
): Promise<TestOutcome[]> {
  const outcomes: TestOutcome[] = new Array(cases.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallelism, cases.length) }, async () => {
      while (next < cases.length) {
        if (signal?.aborted) throw new AbortedError('Generation stopped');
        const i = next++;
        outcomes[i] = await runCase(cases[i], signal);
      }
    }),
  );
  if (signal?.aborted) throw new AbortedError('Generation stopped');
  return outcomes;
}
