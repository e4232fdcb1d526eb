import type { CaseRepairRow, TestResultRow, TestRunRow, VisualCheckRow } from '@argus/db';
import {
  FAILURE_KIND_LABELS,
  isRunOver,
  type RunCaseResult,
  type RunReport,
  RunStatusSchema,
} from '@argus/protocol';
import type { CaseTraces } from '../diagnostics/failure-traces';
import { caseFailureOf } from '../diagnostics/result-failure';
import { caseRepairOf, runRepairSummary } from '../repairs/repair-views';
import { visualTestcases } from '../visual/visual-junit';
import { visualSummary } from '../visual/visual-views';

/** A run's repair verdicts (docs/REPAIRS.md), and PUBLIC_URL for their review links (relative without). */
export interface RunRepairs {
  rows: CaseRepairRow[];
  publicUrl: string | null;
}

/**
 * A recorded run as the run API answers it and as its reports say it (docs/CI.md#the-run-api): the
 * JSON report is this object, the JUnit report is written from it.
 */
export function runReport(
  run: TestRunRow,
  results: TestResultRow[],
  /** Each case's last kept trace, by result id (`caseTraces`); none when no trace was kept. */
  traces: CaseTraces = new Map(),
  repairs: RunRepairs = { rows: [], publicUrl: null },
  /** Its visual checks waiting for review (docs/VISUAL-CHECKS.md), in the order they were made. */
  visualPending: VisualCheckRow[] = [],
): RunReport {
  const verdicts = verdictsByResult(results, repairs);
  const finished = results.map((row) => caseResult(row, traces.get(row.id), verdicts.get(row.id)));
  const names = new Set(finished.map((r) => r.test_name));
  const planned = (run.test_cases as { test_name?: unknown }[]).map((c) =>
    typeof c?.test_name === 'string' ? c.test_name : 'Untitled test',
  );
  const status = RunStatusSchema.safeParse(run.status);
  return {
    id: run.id,
    status: status.success ? status.data : 'error',
    suite_name: run.test_suite_name,
    project_id: run.project_id,
    suite_id: run.suite_id,
    suite_version: run.suite_version,
    environment_id: run.environment_id,
    environment_name: run.environment_name,
    url: run.url,
    engine: run.engine,
    trigger: run.trigger,
    started_at: run.started_at?.toISOString() ?? null,
    completed_at: run.completed_at?.toISOString() ?? null,
    execution_time: run.execution_time_seconds,
    total_tests: run.total_tests,
    passed_tests: run.passed_tests,
    failed_tests: run.failed_tests,
    flaky_tests: run.flaky_tests,
    results: finished,
    not_run: planned.filter((name) => !names.has(name)),
    // A saved suite's run says its repairs once it is over (its last case's repair is made before).
    repairs:
      run.suite_id && status.success && isRunOver(status.data)
        ? runRepairSummary(run.id, repairs.rows)
        : null,
    branch: run.branch,
    visual: run.project_id ? visualSummary(run, visualPending) : null,
  };
}

/** Each failed result's verdict, by result id (a row that names none: the run's result of its case). */
function verdictsByResult(results: TestResultRow[], { rows, publicUrl }: RunRepairs) {
  const byId = new Map<string, NonNullable<RunCaseResult['repair']>>();
  for (const row of rows) {
    const result =
      results.find((r) => r.id === row.result_id) ??
      results.findLast((r) => r.test_case_name === row.case_name && r.status === 'failed');
    if (result) byId.set(result.id, caseRepairOf(row, publicUrl));
  }
  return byId;
}

const CASE_STATUSES = new Set(['passed', 'flaky', 'skipped']);

export function caseResult(
  row: TestResultRow,
  trace?: { url: string; bytes: number },
  repair: RunCaseResult['repair'] = null,
): RunCaseResult {
  const status = CASE_STATUSES.has(row.status) ? (row.status as 'passed' | 'flaky' | 'skipped') : 'failed';
  return {
    test_name: row.test_case_name,
    test_case_id: row.test_case_id,
    status,
    attempts: row.attempts,
    execution_time: row.execution_time,
    error: row.error_message,
    result_id: row.id,
    failure: caseFailureOf(row),
    trace_url: trace?.url ?? null,
    trace_bytes: trace?.bytes ?? null,
    repair,
    steps: (row.steps as Record<string, unknown>[]).map((step, index) => ({
      step_number: typeof step.step_number === 'number' ? step.step_number : index + 1,
      description: String(step.description ?? step.action ?? ''),
      status: String(step.status ?? ''),
      error: typeof step.error === 'string' ? step.error : null,
    })),
  };
}

// XML 1.0 allows tab, newline, carriage return and characters from U+0020; a page's text may hold others.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function xml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const secondsOf = (value: number | null) => (value ?? 0).toFixed(3);

/** The failure's text in the report: the error, then each step with its status, as CI servers show it. */
function failureText(result: RunCaseResult): string {
  const steps = result.steps.map(
    (s) => `${s.step_number}. [${s.status}] ${s.description}${s.error ? `: ${s.error}` : ''}`,
  );
  const evidence = result.failure
    ? ['', `${FAILURE_KIND_LABELS[result.failure.kind]}: ${result.failure.evidence}`]
    : [];
  return [labelled(result), ...repairLine(result), ...evidence, '', ...steps].join('\n');
}

/** What the case's repair says under its failure's first line (docs/REPAIRS.md), if it has one. */
function repairLine(result: RunCaseResult): string[] {
  const { repair } = result;
  if (!repair) return [];
  if (repair.verdict === 'bug') return [`No repair: looks like a bug (${repair.summary})`];
  const weakens = repair.verdict === 'weakens' ? ' (it weakens an assertion)' : '';
  return [`Repair proposed${weakens}: ${repair.summary} — review at ${repair.review_url}`];
}

/** The error, its label first ('[App error] …') when it has one: the line CI servers list. */
function labelled(result: RunCaseResult): string {
  const error = result.error ?? 'Test failed';
  return result.failure ? `[${FAILURE_KIND_LABELS[result.failure.kind]}] ${error}` : error;
}

/** The failure's first line (`message`), and whether a repair waits for review. */
function failureMessage(result: RunCaseResult): string {
  const first = labelled(result).split('\n')[0];
  const { repair } = result;
  if (repair && repair.verdict !== 'bug') return `${first} (repair proposed: review at ${repair.review_url})`;
  if (repair?.verdict === 'bug') return `${first} (no repair: looks like a bug)`;
  return first;
}

/** Where a case's kept trace is, for `system-out` (the link is signed and expires). */
function traceLine(result: RunCaseResult): string[] {
  return result.trace_url ? [`Trace: ${result.trace_url}`] : [];
}

/**
 * JUnit XML as CI servers read it (GitHub's report actions, GitLab's `reports: junit`, Jenkins): one
 * `testsuite` for the run, a `testcase` per case with `failure` (its error and steps) when it failed,
 * and `skipped` for the cases a stopped or failed run did not reach. A flaky case (passed on a retry,
 * docs/CI.md#retries) is a passing `testcase`, marked by a `flaky` property and a `system-out` line
 * naming its attempts: JUnit has no flaky outcome CI servers agree on, and it must not fail the build.
 */
export function junitXml(
  report: RunReport,
  /** Where review links point (PUBLIC_URL, else the request's origin); '' leaves them relative. */
  origin = '',
): string {
  const name = report.suite_name ?? `Argus run ${report.id}`;
  const visual = visualTestcases(report, `${origin}${report.visual?.review_path ?? ''}`, xml);
  const failures = report.results.filter((r) => r.status === 'failed').length + visual.length;
  const skipped = report.not_run.length + report.results.filter((r) => r.status === 'skipped').length;
  const tests = report.results.length + report.not_run.length + visual.length;
  const time = secondsOf(report.execution_time);
  const notRunWhy =
    report.status === 'running' || report.status === 'pending'
      ? 'not finished yet: the run is still going'
      : `not run: the run ended ${report.status}`;
  const properties = [
    ['argus.run_id', report.id],
    ['argus.status', report.status],
    ['argus.engine', report.engine ?? ''],
    ['argus.environment', report.environment_name ?? ''],
    ['argus.url', report.url],
    ['argus.suite_version', report.suite_version === null ? '' : String(report.suite_version)],
  ].map(([key, value]) => `      <property name="${xml(key)}" value="${xml(value)}"/>`);
  const cases = [
    ...report.results.map((result) => {
      const open = `    <testcase name="${xml(result.test_name)}" classname="${xml(name)}" time="${secondsOf(result.execution_time)}"`;
      if (result.status === 'passed') return `${open}/>`;
      if (result.status === 'flaky') {
        return [
          `${open}>`,
          '      <properties>',
          '        <property name="flaky" value="true"/>',
          `        <property name="attempts" value="${result.attempts}"/>`,
          '      </properties>',
          `      <system-out>${xml([`Flaky: passed on attempt ${result.attempts}, after ${result.attempts - 1} failed attempt${result.attempts === 2 ? '' : 's'}`, ...traceLine(result)].join('\n'))}</system-out>`,
          '    </testcase>',
        ].join('\n');
      }
      if (result.status === 'skipped') return `${open}>\n      <skipped/>\n    </testcase>`;
      const failure = `      <failure message="${xml(failureMessage(result))}" type="AssertionError">${xml(failureText(result))}</failure>`;
      const out = traceLine(result).map((line) => `      <system-out>${xml(line)}</system-out>`);
      return [`${open}>`, failure, ...out, '    </testcase>'].join('\n');
    }),
    ...report.not_run.map(
      (test) =>
        `    <testcase name="${xml(test)}" classname="${xml(name)}" time="0.000">\n      <skipped message="${xml(notRunWhy)}"/>\n    </testcase>`,
    ),
    ...visual,
  ];
  const counts = `tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="Argus" ${counts}>`,
    `  <testsuite name="${xml(name)}" ${counts}${report.started_at ? ` timestamp="${report.started_at}"` : ''}>`,
    '    <properties>',
    ...properties,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
