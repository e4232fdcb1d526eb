import type { CaseChange, CaseComparison, CaseHistory, CaseOutcome, StoredTestResult } from '@argus/protocol';

// A run's page lists its cases with how each fared against the previous run (docs/HISTORY.md):
// what changed first, then what still fails, then the rest.

const CHANGE_ORDER: Record<CaseChange, number> = {
  new_failure: 0,
  still_failing: 1,
  fixed: 2,
  new: 3,
  removed: 4,
  still_passing: 5,
};

/** The comparison's cases in the order the page shows them (stable within one kind of change). */
export function orderedCases(cases: readonly CaseComparison[]): CaseComparison[] {
  return cases
    .map((c, index) => ({ c, index }))
    .sort((a, b) => CHANGE_ORDER[a.c.change] - CHANGE_ORDER[b.c.change] || a.index - b.index)
    .map(({ c }) => c);
}

/** A stored result's status as history names it: anything but passed, flaky or skipped failed. */
export function caseOutcomeOf(status: string): CaseOutcome {
  return status === 'passed' || status === 'flaky' || status === 'skipped' ? status : 'failed';
}

/** One case of the run: its result here and its comparison, when the comparison knows it. */
export interface RunCase {
  name: string;
  status: CaseOutcome | null;
  attempts: number;
  comparison: CaseComparison | null;
}

/**
 * The run's cases: the comparison's (which include removed ones), each with the attempts its stored
 * result records; stored results the comparison does not name (it is still being computed) follow.
 */
export function runCases(
  comparison: readonly CaseComparison[],
  results: readonly Pick<StoredTestResult, 'test_case_name' | 'status' | 'attempts'>[],
): RunCase[] {
  const stored = new Map(results.map((r) => [r.test_case_name, r]));
  const out: RunCase[] = orderedCases(comparison).map((c) => ({
    name: c.name,
    status: c.status,
    attempts: stored.get(c.name)?.attempts ?? 1,
    comparison: c,
  }));
  const named = new Set(comparison.map((c) => c.name));
  for (const r of results) {
    if (named.has(r.test_case_name)) continue;
    out.push({
      name: r.test_case_name,
      status: caseOutcomeOf(r.status),
      attempts: r.attempts,
      comparison: null,
    });
  }
  return out;
}

/** A strip square's words: 'Failed on 26 Nov 2026, 10:00 (2 attempts)'; the screen links it to its run. */
export function stripLabel(
  result: CaseHistory['results'][number],
  formatWhen: (iso: string) => string,
): string {
  const outcome = { passed: 'Passed', failed: 'Failed', flaky: 'Flaky', skipped: 'Skipped' }[result.status];
  const attempts = result.attempts > 1 ? ` (${result.attempts} attempts)` : '';
  return `${outcome} on ${formatWhen(result.created_at)}${attempts}`;
}

/** The strip oldest first, so the newest result is at the right end, as CI dashboards draw it. */
export function stripOrder<T>(newestFirst: readonly T[]): T[] {
  return [...newestFirst].reverse();
}
