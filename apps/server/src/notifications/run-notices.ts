import type { ProjectRow, TestRunRow } from '@argus/db';
import type { DeliveryEvent } from '@argus/protocol';

// What a finished run tells a project's webhooks: its event (failure, recovery, success) and the
// notice every format is written from.

/** What a notification says, whatever its format. */
export interface RunNotice {
  event: DeliveryEvent;
  project: { id: string; name: string };
  suite: { id: string | null; name: string | null; version: number | null };
  environment: { id: string | null; name: string | null };
  run: {
    id: string;
    status: string;
    trigger: string | null;
    total_tests: number;
    passed_tests: number;
    failed_tests: number;
    /** Tests that passed only on a retry (in neither count above). */
    flaky_tests: number;
    started_at: string | null;
    completed_at: string | null;
  };
  previous_run: { id: string; status: string; failed_tests: number } | null;
  /**
   * Its repairs (docs/REPAIRS.md): proposals waiting for review and failures labelled a bug; null for
   * a notice with no run behind it.
   */
  repairs: { proposed: number; bugs: number } | null;
  /**
   * Its visual checks (docs/VISUAL-CHECKS.md): how many wait for review (the run is 'changes to
   * review' while any do), and its branch (null: the default branch); null for a notice with no run.
   */
  visual: { to_review: number; branch: string | null } | null;
}

/**
 * A run failed when it did not complete, or when any of its tests failed. A flaky test (passed on a
 * retry, docs/HISTORY.md#retries) is counted in flaky_tests, not failed_tests: it fails nothing.
 */
export function runFailed(run: Pick<TestRunRow, 'status' | 'failed_tests'>): boolean {
  return run.status !== 'completed' || run.failed_tests > 0;
}

/** The event a finished run is: failure, recovery (passed after a failed run), success. */
export function runEvent(
  run: Pick<TestRunRow, 'status' | 'failed_tests'>,
  previous: Pick<TestRunRow, 'status' | 'failed_tests'> | undefined,
): Exclude<DeliveryEvent, 'test'> {
  if (runFailed(run)) return 'failure';
  return previous && runFailed(previous) ? 'recovery' : 'success';
}

/** Whether a webhook asking for `events` is called for a run that is `event`. */
export function webhookWants(events: readonly string[], event: DeliveryEvent): boolean {
  if (event === 'test' || events.includes('always')) return true;
  return events.includes(event);
}

/** The notice of a finished saved suite's run, with the previous finished run of its suite and environment. */
export function runNotice(
  event: DeliveryEvent,
  project: Pick<ProjectRow, 'id' | 'name'>,
  run: TestRunRow,
  previous: Pick<TestRunRow, 'id' | 'status' | 'failed_tests'> | undefined,
  repairs: RunNotice['repairs'] = { proposed: 0, bugs: 0 },
): RunNotice {
  return {
    event,
    project: { id: project.id, name: project.name },
    suite: { id: run.suite_id, name: suiteName(run.test_suite_name), version: run.suite_version },
    environment: { id: run.environment_id, name: run.environment_name },
    run: {
      id: run.id,
      status: run.status,
      trigger: run.trigger,
      total_tests: run.total_tests,
      passed_tests: run.passed_tests,
      failed_tests: run.failed_tests,
      flaky_tests: run.flaky_tests,
      started_at: run.started_at?.toISOString() ?? null,
      completed_at: run.completed_at?.toISOString() ?? null,
    },
    previous_run: previous
      ? { id: previous.id, status: previous.status, failed_tests: previous.failed_tests }
      : null,
    repairs,
    visual: { to_review: run.visual_to_review, branch: run.branch },
  };
}

/** The notice of 'Send test': no run behind it. */
export function testNotice(project: Pick<ProjectRow, 'id' | 'name'>): RunNotice {
  return {
    event: 'test',
    project: { id: project.id, name: project.name },
    suite: { id: null, name: null, version: null },
    environment: { id: null, name: null },
    run: {
      id: '00000000-0000-0000-0000-000000000000',
      status: 'completed',
      trigger: null,
      total_tests: 0,
      passed_tests: 0,
      failed_tests: 0,
      flaky_tests: 0,
      started_at: null,
      completed_at: null,
    },
    previous_run: null,
    repairs: null,
    visual: null,
  };
}

/** A saved suite run's name is recorded as `<suite> (v<n>) on <environment>`: the suite's part. */
function suiteName(recorded: string | null): string | null {
  if (!recorded) return null;
  return recorded.replace(/ \(v\d+\) on .*$/, '');
}
