import { type ScreenshotRef, type StepUpdate, StepUpdateSchema, type TestRunDetail } from '@argus/protocol';
import {
  applyStepUpdate,
  type LogEntry,
  logKey,
  type ScreenshotItem,
  screenshotFileName,
  type TestResultItem,
} from '../features/automation';

// A stored run (GET /api/automation/test-runs/{id}) in the shapes the automation screen's results
// list, step log and screenshot gallery draw, so a run's page in Test History shows them with the
// same components (docs/HISTORY.md). Steps are stored as the step updates the run sent.

/** Each finished case's outcome; a case that passed on a retry is flaky, with how many times it ran. */
export function storedResults(run: Pick<TestRunDetail, 'test_results'>): TestResultItem[] {
  return run.test_results
    .filter((r) => r.status !== 'running' && r.status !== 'pending')
    .map((r) => ({
      testName: r.test_case_name,
      status: r.status === 'passed' || r.status === 'flaky' ? r.status : 'failed',
      executionTime: r.execution_time ?? 0,
      ...(r.attempts > 1 ? { attempts: r.attempts } : {}),
      error: r.error_message ?? (r.status === 'skipped' ? 'Not run' : null),
    }));
}

function storedSteps(steps: readonly unknown[]): StepUpdate[] {
  const out: StepUpdate[] = [];
  for (const step of steps) {
    const parsed = StepUpdateSchema.safeParse(step);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

/** Every case's steps, in the run's order, as step log lines (unreadable steps are left out). */
export function storedLog(run: Pick<TestRunDetail, 'test_results'>): LogEntry[] {
  let entries: LogEntry[] = [];
  for (const result of run.test_results) {
    for (const step of storedSteps(result.steps)) {
      entries = applyStepUpdate(entries, result.test_case_name, step);
    }
  }
  return entries;
}

/** The run's stored screenshots (freshly signed links), each with the status of the step it follows. */
export function storedScreenshots(
  refs: readonly ScreenshotRef[],
  log: readonly LogEntry[],
): ScreenshotItem[] {
  const steps = new Map(log.map((entry) => [entry.key, entry]));
  return refs.map((ref) => {
    const key = logKey(ref.test_case_name, ref.step_index);
    const step = steps.get(key);
    return {
      key,
      testName: ref.test_case_name,
      stepIndex: ref.step_index,
      stepNumber: step?.stepNumber ?? ref.step_index + 1,
      stepName: ref.step_name ?? step?.line ?? '',
      status: step?.status ?? 'success',
      src: ref.url,
      stored: ref.test_run_id ? { id: ref.id, runId: ref.test_run_id } : undefined,
      width: ref.width,
      height: ref.height,
      timestamp: ref.created_at,
      fileName: screenshotFileName(ref.test_case_name, step?.stepNumber ?? ref.step_index + 1),
    };
  });
}
