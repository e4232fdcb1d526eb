import type { StoredTestResult } from '@argus/protocol';

// Which cases of a run get the diagnostics view: those that failed, and flaky ones (they failed an
// attempt first, and keep that attempt's trace). Passed, skipped and unfinished cases do not.

export function isDiagnosed(result: Pick<StoredTestResult, 'status'>): boolean {
  return !['passed', 'skipped', 'running', 'pending'].includes(result.status);
}

export function diagnosedCases<T extends Pick<StoredTestResult, 'status'>>(results: readonly T[]): T[] {
  return results.filter(isDiagnosed);
}
