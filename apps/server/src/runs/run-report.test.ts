import type { CaseRepairRow, TestResultRow, TestRunRow, VisualCheckRow } from '@argus/db';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { junitXml, runReport } from './run-report';

/** The run's testsuite of a JUnit report. */
const parse = (xml: string) =>
  new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml).testsuites.testsuite;

const at = new Date('2026-11-26T10:00:00Z');
const run = (patch: Partial<TestRunRow> = {}): TestRunRow =>
  ({
    id: 'r1',
    user_id: 'u1',
    session_id: null,
    url: 'https://shop.test/',
    target_url: null,
    test_suite_name: 'Smoke (v2) on staging',
    test_mode: 'full',
    command: null,
    engine: 'built-in',
    test_cases: [{ test_name: 'Cart & <checkout>' }, { test_name: 'Login' }, { test_name: 'Search' }],
    status: 'completed',
    started_at: at,
    completed_at: at,
    execution_time_seconds: 3.25,
    total_tests: 3,
    passed_tests: 1,
    failed_tests: 1,
    model_calls: 0,
    input_tokens: 0,
    output_tokens: 0,
    cost_usd: 0,
    execution_log: [],
    project_id: 'p1',
    environment_id: 'e1',
    environment_name: 'staging',
    suite_id: 's1',
    suite_version: 2,
    trigger: 'api',
    created_at: at,
    updated_at: at,
    ...patch,
  }) as TestRunRow;
const result = (name: string, status: string, error: string | null = null, attempts = 1): TestResultRow => ({
  id: name,
  test_run_id: 'r1',
  user_id: 'u1',
  test_case_id: null,
  test_case_name: name,
  status,
  execution_time: 1.5,
  attempts,
  error_message: error,
  steps: [
    { step_number: 1, description: 'Navigate to /', status: 'success' },
    { step_number: 2, description: 'Verify text "Total"', status: 'error', error },
  ],
  logs: [],
  screenshots: [],
  failure_kind: null,
  failure_evidence: null,
  failure_fingerprint: null,
  failure_summary: null,
  failure_step: null,
  diagnostics: null,
  created_at: at,
});

describe('run reports', () => {
  it('lists the cases a run did not reach as not run', () => {
    const report = runReport(run({ status: 'failed' }), [result('Login', 'passed')]);
    expect(report.not_run).toEqual(['Cart & <checkout>', 'Search']);
    expect(report.results[0]).toMatchObject({ test_name: 'Login', status: 'passed', execution_time: 1.5 });
  });

  it('writes JUnit XML that counts failures and skips and carries the failing message and steps', () => {
    const error = 'Expected "Total" <b>€20</b> & more\u0007 on https://shop.test/cart';
    const suite = parse(
      junitXml(
        runReport(run({ status: 'failed' }), [
          result('Cart & <checkout>', 'failed', error),
          result('Login', 'passed'),
        ]),
      ),
    );
    expect(suite).toMatchObject({
      name: 'Smoke (v2) on staging',
      tests: '3',
      failures: '1',
      skipped: '1',
      time: '3.250',
    });
    const [failed, passed, skipped] = suite.testcase;
    expect(failed.name).toBe('Cart & <checkout>');
    expect(failed.failure.message).toBe('Expected "Total" <b>€20</b> & more on https://shop.test/cart');
    expect(failed.failure['#text']).toContain('2. [error] Verify text "Total"');
    expect(passed).toMatchObject({ name: 'Login', time: '1.500' });
    expect(passed.failure).toBeUndefined();
    expect(skipped).toMatchObject({ name: 'Search', skipped: { message: 'not run: the run ended failed' } });
    const properties = Object.fromEntries(
      suite.properties.property.map((p: { name: string; value: string }) => [p.name, p.value]),
    );
    expect(properties).toMatchObject({
      'argus.run_id': 'r1',
      'argus.engine': 'built-in',
      'argus.environment': 'staging',
    });
  });

  it('reports a case that passed on a retry as flaky: its attempts in JSON, a passing JUnit testcase marked flaky', () => {
    const report = runReport(run({ passed_tests: 1, failed_tests: 0, flaky_tests: 1 }), [
      result('Cart & <checkout>', 'flaky', null, 3),
      result('Login', 'passed'),
    ]);
    expect(report.flaky_tests).toBe(1);
    expect(report.results[0]).toMatchObject({ status: 'flaky', attempts: 3 });
    expect(report.results[1]).toMatchObject({ status: 'passed', attempts: 1 });
    const suite = parse(junitXml(report));
    expect(suite).toMatchObject({ tests: '3', failures: '0' });
    const [flaky, passed] = suite.testcase;
    expect(flaky.failure).toBeUndefined();
    expect(flaky.properties.property).toEqual([
      { name: 'flaky', value: 'true' },
      { name: 'attempts', value: '3' },
    ]);
    expect(flaky['system-out']).toBe('Flaky: passed on attempt 3, after 2 failed attempts');
    expect(passed.properties).toBeUndefined();
  });

  it('names each failed case its label, result id and kept trace; JUnit leads with the label and links the trace', () => {
    const failing: TestResultRow = {
      ...result('Cart & <checkout>', 'failed', 'POST /api/orders answered 500\nat step 2'),
      id: 'res-1',
      failure_kind: 'app_error',
      failure_evidence: 'POST /api/orders answered 500 during step 2',
      failure_fingerprint: '0123456789abcdef',
      failure_summary: 'click "pay": answered 500',
      failure_step: 1,
    };
    const url = 'https://argus.example/api/runs/r1/cases/res-1/trace.zip?attempt=2&owner=u1&expires=9&sig=x';
    const report = runReport(
      run({ status: 'failed' }),
      [failing, result('Login', 'passed'), { ...result('Search', 'flaky', null, 2), id: 'res-3' }],
      new Map([
        ['res-1', { url, bytes: 4096 }],
        ['res-3', { url: `${url}&flaky`, bytes: 10 }],
      ]),
    );
    expect(report.results[0]).toMatchObject({
      result_id: 'res-1',
      failure: {
        kind: 'app_error',
        evidence: 'POST /api/orders answered 500 during step 2',
        fingerprint: '0123456789abcdef',
        step_index: 1,
      },
      trace_url: url,
      trace_bytes: 4096,
    });
    expect(report.results[1]).toMatchObject({
      result_id: 'Login',
      failure: null,
      trace_url: null,
      trace_bytes: null,
    });
    const [failed, passed, flaky] = parse(junitXml(report)).testcase;
    expect(failed.failure.message).toBe('[App error] POST /api/orders answered 500');
    expect(failed.failure['#text']).toContain('App error: POST /api/orders answered 500 during step 2');
    expect(failed['system-out']).toBe(`Trace: ${url}`);
    expect(passed['system-out']).toBeUndefined();
    expect(flaky['system-out']).toBe(
      `Flaky: passed on attempt 2, after 1 failed attempt\nTrace: ${url}&flaky`,
    );
  });

  it('leaves the JUnit message as the error when a failure has no label (recorded before labels)', () => {
    const [failed] = parse(junitXml(runReport(run(), [result('Login', 'failed', 'Timed out')]))).testcase;
    expect(failed.failure.message).toBe('Timed out');
    expect(failed['system-out']).toBeUndefined();
  });
});

describe("a run report's repairs (docs/REPAIRS.md)", () => {
  const repair = (patch: Partial<CaseRepairRow>): CaseRepairRow => ({
    id: 'rp1',
    user_id: 'u1',
    test_run_id: 'r1',
    project_id: 'p1',
    suite_id: 's1',
    suite_version: 2,
    case_name: 'Login',
    case_index: 1,
    result_id: 'Login',
    verdict: 'repair',
    status: 'proposed',
    step_index: 1,
    steps_before: [],
    steps_after: [],
    diff: [],
    weakenings: [],
    evidence: { summary: 'Button "Sign in" is now "Log in"', signals: [], engine: 'built-in', proof: null },
    page_state: 'p',
    before_screenshot_id: null,
    after_screenshot_id: null,
    created_at: at,
    decided_by: null,
    decided_at: null,
    decision_reason: null,
    saved_version: null,
    ...patch,
  });
  const results = [result('Login', 'failed', 'No button "Sign in"'), result('Search', 'failed', 'Boom')];
  const rows = [
    repair({}),
    repair({
      id: 'rp2',
      case_name: 'Search',
      result_id: null,
      verdict: 'bug',
      status: 'none',
      evidence: { summary: 'GET /api/search answered 500', signals: [], engine: 'built-in', proof: null },
    }),
  ];

  it("fills each failed case's verdict with its review link, and the run's counts once it is over", () => {
    const report = runReport(run({ status: 'completed' }), results, new Map(), {
      rows,
      publicUrl: 'https://argus.example/',
    });
    expect(report.results[0].repair).toEqual({
      id: 'rp1',
      verdict: 'repair',
      status: 'proposed',
      summary: 'Button "Sign in" is now "Log in"',
      review_url: 'https://argus.example/history/runs/r1?tab=repairs&repair=rp1',
    });
    // A row that names no result is matched by its case's name.
    expect(report.results[1].repair).toMatchObject({ id: 'rp2', verdict: 'bug', status: 'none' });
    expect(report.repairs).toEqual({ proposed: 1, bugs: 1, review_path: '/history/runs/r1?tab=repairs' });
    // Relative without PUBLIC_URL; none while the run goes, or for a run that is not a saved suite's.
    const relative = runReport(run(), results, new Map(), { rows, publicUrl: null });
    expect(relative.results[0].repair?.review_url).toBe('/history/runs/r1?tab=repairs&repair=rp1');
    expect(
      runReport(run({ status: 'running' }), results, new Map(), { rows, publicUrl: null }).repairs,
    ).toBeNull();
    expect(runReport(run({ suite_id: null }), results).repairs).toBeNull();
    expect(runReport(run(), results).results[0].repair).toBeNull();
  });

  it('says in JUnit that a repair is proposed and where to review it, or that it looks like a bug', () => {
    const report = runReport(run(), results, new Map(), { rows, publicUrl: 'https://argus.example' });
    const cases = parse(junitXml(report)).testcase;
    const login = cases.find((c: { name: string }) => c.name === 'Login');
    const search = cases.find((c: { name: string }) => c.name === 'Search');
    const url = 'https://argus.example/history/runs/r1?tab=repairs&repair=rp1';
    expect(login.failure.message).toBe(`No button "Sign in" (repair proposed: review at ${url})`);
    expect(login.failure['#text'].split('\n').slice(0, 2)).toEqual([
      'No button "Sign in"',
      `Repair proposed: Button "Sign in" is now "Log in" — review at ${url}`,
    ]);
    expect(search.failure.message).toBe('Boom (no repair: looks like a bug)');
    expect(search.failure['#text'].split('\n')[1]).toBe(
      'No repair: looks like a bug (GET /api/search answered 500)',
    );
  });
});

describe("a run report's visual checks (docs/VISUAL-CHECKS.md)", () => {
  const results = [
    result('Cart & <checkout>', 'passed'),
    result('Login', 'passed'),
    result('Search', 'passed'),
  ];
  const check = (patch: Partial<VisualCheckRow>): VisualCheckRow =>
    ({
      id: 'vc1',
      user_id: 'u1',
      test_run_id: 'r1',
      case_name: 'Login',
      check_name: 'page',
      status: 'changed',
      review: 'pending',
      message: 'Changed since approved (1 difference, 2.1% of the pixels), to review: colour changed',
      issues: [
        {
          kind: 'colour',
          message: 'colour changed from #1565c0 to #c62828',
          box: { x: 1, y: 2, width: 3, height: 4 },
        },
      ],
      ...patch,
    }) as VisualCheckRow;

  it('says how many checks wait for review, and lists each in JUnit as a failure with its issues and review link', () => {
    const pending = [
      check({}),
      check({
        id: 'vc2',
        case_name: 'Search',
        check_name: 'Results',
        status: 'new',
        issues: [],
        message: 'New visual check: review it',
      }),
    ];
    const report = runReport(
      run({ visual_to_review: 2, branch: 'feature/x' }),
      results,
      new Map(),
      undefined,
      pending,
    );
    expect(report.branch).toBe('feature/x');
    expect(report.visual).toMatchObject({ to_review: 2, review_path: '/history/runs/r1?tab=review' });
    expect(report.visual?.pending[0]).toEqual({
      case_name: 'Login',
      check_name: 'page',
      status: 'changed',
      message: 'Changed since approved (1 difference, 2.1% of the pixels), to review: colour changed',
      issues: ['colour changed from #1565c0 to #c62828'],
    });
    const suite = parse(junitXml(report, 'https://argus.example'));
    // Three passing cases and two checks to review: the build reads red until they are reviewed.
    expect([suite.tests, suite.failures]).toEqual(['5', '2']);
    const visual = suite.testcase.filter((c: { classname: string }) =>
      c.classname.endsWith('(visual checks)'),
    );
    expect(visual.map((c: { name: string }) => c.name)).toEqual([
      'Login: page looks as approved',
      'Search: Results looks as approved',
    ]);
    const url = 'https://argus.example/history/runs/r1?tab=review';
    expect(visual[0].failure.message).toBe(`${pending[0].message} (review at ${url})`);
    expect(visual[0].failure['#text']).toContain('- colour changed from #1565c0 to #c62828');
    expect(visual[1].failure.message).toBe(`New visual check: review it (review at ${url})`);
  });

  it('has no visual summary for a run on no project, and no visual testcases when none wait', () => {
    expect(runReport(run({ project_id: null }), results).visual).toBeNull();
    const none = runReport(run({ visual_to_review: 0 }), results);
    expect(none.visual).toMatchObject({ to_review: 0, pending: [] });
    expect(parse(junitXml(none)).tests).toBe('3');
  });
});
