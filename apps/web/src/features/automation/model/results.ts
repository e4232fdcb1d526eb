import type { TestCase, TestMode } from '@argus/protocol';
import type { ScreenshotItem } from './screenshots';

/** One test's outcome in the results list. */
export interface TestResultItem {
  testName: string;
  status: 'passed' | 'failed';
  /** Seconds. */
  executionTime: number;
  error: string | null;
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
  passed: number;
  failed: number;
  /** Seconds: the run's own time when the server reported it, else the tests' times added up. */
  executionTime: number;
}

export function summarize(results: readonly TestResultItem[], runTime: number | null): ResultsSummary {
  const passed = results.filter((result) => result.status === 'passed').length;
  const summed = results.reduce((total, result) => total + result.executionTime, 0);
  return {
    total: results.length,
    passed,
    failed: results.length - passed,
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
 * image data (names, steps, sizes only) and summary {total, passed, failed, executionTime}.
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
    summary: summarize(input.results, input.runTime),
  };
}
