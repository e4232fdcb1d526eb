import type { ProjectRun } from '@argus/protocol';

export type RunTone = 'green' | 'red' | 'amber' | 'indigo' | 'slate';

/** A run's status as a badge: its words and colour. A completed run with a failure reads 'Failed'. */
export function runStatus(run: Pick<ProjectRun, 'status' | 'failed_tests'>): {
  label: string;
  tone: RunTone;
} {
  switch (run.status) {
    case 'completed':
      return run.failed_tests > 0 ? { label: 'Failed', tone: 'red' } : { label: 'Passed', tone: 'green' };
    case 'failed':
      return { label: 'Failed', tone: 'red' };
    case 'running':
      return { label: 'Running', tone: 'indigo' };
    case 'pending':
      return { label: 'Pending', tone: 'slate' };
    case 'interrupted':
    case 'stopped':
      return { label: 'Stopped', tone: 'amber' };
    default:
      return { label: run.status.charAt(0).toUpperCase() + run.status.slice(1), tone: 'slate' };
  }
}

/** 'Checkout v3', 'Checkout', or 'Tests not saved to a suite'. */
export function runSuiteLabel(
  run: Pick<ProjectRun, 'test_suite_name' | 'suite_version' | 'suite_id'>,
): string {
  const name = run.test_suite_name?.trim();
  if (!name) return run.suite_id ? 'Saved suite' : 'Tests not saved to a suite';
  return run.suite_version ? `${name} v${run.suite_version}` : name;
}

/** When a run happened: its start, else when it was made. */
export function runTime(run: Pick<ProjectRun, 'started_at' | 'created_at'>): string {
  return run.started_at ?? run.created_at;
}

/** How a run was started, when it was not from the screens: "via API" (a token, the CLI) or "scheduled". */
export function triggerLabel(trigger: string | null): string | null {
  if (trigger === 'api') return 'via API';
  if (trigger === 'schedule') return 'scheduled';
  return null;
}
