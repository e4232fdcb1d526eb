import type { AutomationInProgress } from '@argus/protocol';
import { type AutomationState, MAX_GENERATION_MESSAGES } from './automation-state';
import { type TestResultItem, upsertResult } from './results';
import { addScreenshot, screenshotFromStep } from './screenshots';
import { applyStepUpdate, type LogEntry } from './step-log';

/**
 * automation_in_progress: work of the user's already under way on the server (a reload, another tab,
 * a dropped socket), which the screen joins with its session.
 */
export function joinWork(state: AutomationState, work: AutomationInProgress): AutomationState {
  if (work.kind === 'generating') {
    return {
      ...state,
      sessionId: work.session_id,
      status: 'generating',
      generationMode: work.test_mode,
      targetUrl: work.url,
      generationMessages: work.messages.slice(-MAX_GENERATION_MESSAGES),
      lastError: null,
    };
  }
  // The server's results and steps are the truth. Screenshots this screen already holds (after a
  // dropped socket) are kept for the tests of this run, since their images are here already; the
  // others come as stored images. A run id can be reused by a later run, hence the name filter.
  const sameRun = state.testRunId === work.test_run_id;
  const mentioned = new Set([...work.results.map((r) => r.test_name), ...work.active_tests]);
  const kept = sameRun ? state.screenshots.filter((shot) => mentioned.has(shot.testName)) : [];
  const screenshots = work.steps.reduce((items, { test_name, step_data, screenshot_url }) => {
    if (!screenshot_url) return items;
    const shot = screenshotFromStep(test_name, step_data, screenshot_url, work.test_run_id);
    return shot && !items.some((item) => item.key === shot.key) ? addScreenshot(items, shot) : items;
  }, kept);
  return {
    ...state,
    sessionId: work.session_id,
    status: 'running',
    generationMode: work.test_mode,
    targetUrl: work.url,
    testCases: work.test_cases,
    testRunId: work.test_run_id,
    // The answer does not name the run's engine: kept when it is the run this screen already showed.
    runEngine: sameRun ? state.runEngine : null,
    runUsage: null,
    generationMessages: [],
    progress: {
      current: Math.min(work.total_tests, work.results.length + work.active_tests.length),
      total: work.total_tests,
    },
    activeTests: work.active_tests,
    currentTest: work.active_tests.at(-1) ?? null,
    results: work.results.reduce<TestResultItem[]>(
      (results, r) =>
        upsertResult(results, {
          testName: r.test_name,
          status: r.flaky ? 'flaky' : r.status,
          executionTime: r.execution_time,
          error: r.error,
          ...(r.attempts ? { attempts: r.attempts } : {}),
        }),
      [],
    ),
    log: work.steps.reduce<LogEntry[]>(
      (log, { test_name, step_data }) => applyStepUpdate(log, test_name, step_data),
      [],
    ),
    screenshots,
    runTime: null,
    outcome: null,
    pendingRun: null,
    lastError: null,
  };
}
