import { type RunCaseResult, type RunReport, RunReportSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { exitCodeOf } from './run';
import { visualLines, visualModeOf } from './visual-lines';

/** What `argus run` says of its visual checks and what they do to its exit code (pure: no server). */

const passed: RunCaseResult = {
  test_name: 'Home looks as approved',
  test_case_id: null,
  status: 'passed',
  attempts: 1,
  execution_time: 1,
  error: null,
  result_id: null,
  failure: null,
  trace_url: null,
  trace_bytes: null,
  repair: null,
  steps: [],
};

function run(toReview: number | null, results: RunCaseResult[] = [passed]): RunReport {
  return RunReportSchema.parse({
    id: 'run-3',
    status: 'completed',
    suite_name: 'Smoke',
    project_id: 'p1',
    suite_id: 's1',
    suite_version: 1,
    environment_id: 'e1',
    environment_name: 'staging',
    url: 'https://shop.example/',
    engine: 'builtin',
    trigger: 'api',
    started_at: null,
    completed_at: null,
    execution_time: 2,
    total_tests: results.length,
    passed_tests: results.filter((r) => r.status === 'passed').length,
    failed_tests: results.filter((r) => r.status === 'failed').length,
    flaky_tests: 0,
    results,
    not_run: [],
    repairs: null,
    branch: 'feature/x',
    visual: toReview === null ? null : { to_review: toReview, review_path: '/history/runs/run-3?tab=review' },
  });
}

describe('exit code of a run with visual changes to review', () => {
  it('is 1 even when every case passed (--visual=fail, the default), 0 with --visual=report', () => {
    expect(exitCodeOf(run(2))).toBe(1);
    expect(exitCodeOf(run(2), { visual: 'fail' })).toBe(1);
    expect(exitCodeOf(run(2), { visual: 'report' })).toBe(0);
  });

  it('is 0 when nothing waits for review, or the run has no visual summary, in either mode', () => {
    for (const visual of ['fail', 'report'] as const) {
      expect(exitCodeOf(run(0), { visual })).toBe(0);
      expect(exitCodeOf(run(null), { visual })).toBe(0);
    }
  });

  it('stays 1 for a failed case whatever --visual is: report only stops visual changes failing the run', () => {
    const failed: RunCaseResult = { ...passed, test_name: 'Checkout', status: 'failed', error: 'boom' };
    expect(exitCodeOf(run(1, [passed, failed]), { visual: 'report' })).toBe(1);
    expect(exitCodeOf(run(0, [passed, failed]), { visual: 'report' })).toBe(1);
  });
});

describe('the review line', () => {
  it('says how many visual changes wait and links the run’s Review list on the server', () => {
    expect(visualLines(run(2), 'https://argus.example.com')).toEqual([
      'argus: 2 visual changes to review: https://argus.example.com/history/runs/run-3?tab=review',
    ]);
    expect(visualLines(run(1), 'http://127.0.0.1:8080/argus')).toEqual([
      'argus: 1 visual change to review: http://127.0.0.1:8080/argus/history/runs/run-3?tab=review',
    ]);
  });

  it('keeps a link the server already made absolute (PUBLIC_URL) as it is', () => {
    const report = run(3);
    const visual = {
      to_review: 3,
      review_path: 'https://public.example/history/runs/run-3?tab=review',
      pending: [],
    };
    expect(visualLines({ ...report, visual }, 'http://10.0.0.5:8080')).toEqual([
      'argus: 3 visual changes to review: https://public.example/history/runs/run-3?tab=review',
    ]);
  });

  it('says nothing when nothing waits for review or the run has no visual summary', () => {
    expect(visualLines(run(0), 'https://argus.example.com')).toEqual([]);
    expect(visualLines(run(null), 'https://argus.example.com')).toEqual([]);
  });
});

describe('--visual', () => {
  it('is fail when absent, fail or report when given (any case), null for anything else', () => {
    expect(visualModeOf(undefined)).toBe('fail');
    expect(visualModeOf('report')).toBe('report');
    expect(visualModeOf('FAIL')).toBe('fail');
    expect(visualModeOf('ignore')).toBeNull();
    expect(visualModeOf('')).toBeNull();
  });
});
