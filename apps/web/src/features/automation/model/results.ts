import type { TestCase, TestMode } from '@argus/protocol';
import type { ScreenshotItem } from './screenshots';

/**
 * One test's outcome in the results list. `flaky`: it failed, then passed on a retry of its suite
 * (docs/HISTORY.md#retries): it fails nothing, and is not counted as passed.
 */
export interface TestResultItem {
  testName: string;
  status: 'passed' | 'failed' | 'flaky';
  /** Seconds (every attempt's). */
  executionTime: number;
  error: string | null;
  /** How many times it ran, when it was retried; and the most it could have run, when known. */
  attempts?: number;
  maxAttempts?: number;
}

/** What a result says beside its name: 'Passed', 'Failed', 'Flaky: passed on attempt 2 of 3'. */
export function resultLabel(result: Pick<TestResultItem, 'status' | 'attempts' | 'maxAttempts'>): string {
  const of = result.maxAttempts ? ` of ${result.maxAttempts}` : '';
  if (result.status === 'flaky') return `Flaky: passed on attempt ${result.attempts ?? 2}${of}`;
  if (result.status === 'passed') return 'Passed';
  return result.attempts && result.attempts > 1 ? `Failed all ${result.attempts} attempts` : 'Failed';
}

/** Adds a result, replacing an earlier one of the same test (a rerun). */
export function upsertResult(results: readonly TestResultItem[], item: TestResultItem): TestResultItem[] {
  const at = results.findIndex((existing) => existing.testName === item.testName);
  if (at < 0) return [...results, item];
  const next = results.slice();
  next[at] = item;
  return next;
}

export interface ResultsSummary {
  total: number;
  /** Passed at the first attempt. */
  passed: number;
  /** Passed only on a retry. */
  flaky: number;
  failed: number;
  /** Seconds: the run's own time when the server reported it, else the tests' times added up. */
  executionTime: number;
}

export function summarize(results: readonly TestResultItem[], runTime: number | null): ResultsSummary {
  const passed = results.filter((result) => result.status === 'passed').length;
  const flaky = results.filter((result) => result.status === 'flaky').length;
  const summed = results.reduce((total, result) => total + result.executionTime, 0);
  return {
    total: results.length,
    passed,
    flaky,
    failed: results.length - passed - flaky,
    executionTime: round2(runTime ?? summed),
  };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** '850 ms', '4.2 s', '1m 5s'. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m ${Math.round(seconds - minutes * 60)}s`;
}

/** docs/PRODUCT.md#results-and-export: `test-results-{mode}-{date}.json`, the date as YYYY-MM-DD. */
export function exportFileName(mode: TestMode, date: Date): string {
  return `test-results-${mode}-${date.toISOString().slice(0, 10)}.json`;
}

export interface ExportInput {
  url: string;
  command: string | null;
  testMode: TestMode;
  testCases: readonly TestCase[];
  results: readonly TestResultItem[];
  screenshots: readonly ScreenshotItem[];
  runTime: number | null;
  now: Date;
}

/**
 * The export of docs/PRODUCT.md#results-and-export: url, command, testMode, timestamp, testCases, testResults, screenshots without
 * image data (names, steps, sizes only) and summary {total, passed, failed, executionTime} (and
 * `flaky`, with each retried test's `attempts`).
 */
export function buildExport(input: ExportInput) {
  return {
    url: input.url,
    command: input.command,
    testMode: input.testMode,
    timestamp: input.now.toISOString(),
    testCases: input.testCases,
    testResults: input.results.map((result) => ({
      test_name: result.testName,
      status: result.status,
      execution_time: result.executionTime,
      error: result.error,
      ...(result.attempts ? { attempts: result.attempts } : {}),
    })),
    screenshots: input.screenshots.map((shot) => ({
      name: shot.fileName,
      test_case_name: shot.testName,
      step_name: shot.stepName,
      step_index: shot.stepIndex,
      step_number: shot.stepNumber,
      status: shot.status,
      width: shot.width,
      height: shot.height,
      timestamp: shot.timestamp,
    })),
    summary: exportSummary(summarize(input.results, input.runTime)),
  };
}

/** The export's summary as docs/PRODUCT.md#results-and-export has it, with `flaky` only when there are some. */
function exportSummary({ flaky, ...summary }: ResultsSummary) {
  return flaky > 0 ? { ...summary, flaky } : summary;
}
