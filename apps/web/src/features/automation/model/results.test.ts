import type { TestCase } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { buildExport, exportFileName, formatDuration, resultLabel, summarize, upsertResult } from './results';
import type { ScreenshotItem } from './screenshots';

const testCase: TestCase = {
  test_name: 'Home page loads',
  description: 'The start page answers',
  steps: ['Navigate to "/"', 'Verify text "Acme" is visible'],
  category: 'Smoke',
  priority: 'high',
  expected_result: 'The page shows',
};

const shot: ScreenshotItem = {
  key: 'Home page loads#0',
  testName: 'Home page loads',
  stepIndex: 0,
  stepNumber: 1,
  stepName: 'Navigate to "/"',
  status: 'success',
  src: 'data:image/jpeg;base64,/9j/SECRETPIXELS',
  width: 1280,
  height: 800,
  timestamp: '2026-03-04T05:06:07.000Z',
  fileName: 'home-page-loads-step-1.jpg',
};

describe('results', () => {
  it('keeps one result per test, the latest winning', () => {
    const first = upsertResult([], { testName: 'A', status: 'failed', executionTime: 1, error: 'x' });
    const both = upsertResult(first, { testName: 'B', status: 'passed', executionTime: 2, error: null });
    const rerun = upsertResult(both, { testName: 'A', status: 'passed', executionTime: 1.5, error: null });
    expect(rerun.map((r) => [r.testName, r.status])).toEqual([
      ['A', 'passed'],
      ['B', 'passed'],
    ]);
  });

  it('summarizes passed, failed, total and time (the run time when known)', () => {
    const results = [
      { testName: 'A', status: 'passed' as const, executionTime: 1.25, error: null },
      { testName: 'B', status: 'failed' as const, executionTime: 2.5, error: 'Broken link' },
    ];
    expect(summarize(results, null)).toEqual({
      total: 2,
      passed: 1,
      flaky: 0,
      failed: 1,
      executionTime: 3.75,
    });
    expect(summarize(results, 2.9)).toMatchObject({ executionTime: 2.9 });
    expect(summarize([], null)).toEqual({ total: 0, passed: 0, flaky: 0, failed: 0, executionTime: 0 });
  });

  it('counts a flaky test (passed on a retry) apart from passes and failures, and labels it with its attempts', () => {
    const flaky = {
      testName: 'C',
      status: 'flaky' as const,
      executionTime: 3,
      error: null,
      attempts: 2,
      maxAttempts: 3,
    };
    const results = [
      { testName: 'A', status: 'passed' as const, executionTime: 1, error: null },
      flaky,
      { testName: 'B', status: 'failed' as const, executionTime: 2, error: 'x', attempts: 3, maxAttempts: 3 },
    ];
    expect(summarize(results, null)).toEqual({ total: 3, passed: 1, flaky: 1, failed: 1, executionTime: 6 });
    expect(resultLabel(flaky)).toBe('Flaky: passed on attempt 2 of 3');
    expect(resultLabel(results[2])).toBe('Failed all 3 attempts');
    expect(resultLabel(results[0])).toBe('Passed');
  });

  it('formats durations', () => {
    expect(formatDuration(0.42)).toBe('420 ms');
    expect(formatDuration(4.234)).toBe('4.2 s');
    expect(formatDuration(65)).toBe('1m 5s');
    expect(formatDuration(null)).toBe('—');
  });
});

describe('export (docs/PRODUCT.md#results-and-export)', () => {
  it('is named test-results-{mode}-{date}.json', () => {
    expect(exportFileName('full', new Date('2026-03-04T23:59:00Z'))).toBe(
      'test-results-full-2026-03-04.json',
    );
    expect(exportFileName('command', new Date('2026-12-01T00:00:00Z'))).toBe(
      'test-results-command-2026-12-01.json',
    );
  });

  it('holds url, command, mode, time, cases, results, screenshots without image data, and a summary', () => {
    const data = buildExport({
      url: 'http://127.0.0.1:4400/',
      command: null,
      testMode: 'full',
      testCases: [testCase],
      results: [{ testName: 'Home page loads', status: 'passed', executionTime: 1.5, error: null }],
      screenshots: [shot],
      runTime: 2,
      now: new Date('2026-03-04T05:06:07.000Z'),
    });
    expect(Object.keys(data)).toEqual([
      'url',
      'command',
      'testMode',
      'timestamp',
      'testCases',
      'testResults',
      'screenshots',
      'summary',
    ]);
    expect(data).toMatchObject({
      url: 'http://127.0.0.1:4400/',
      command: null,
      testMode: 'full',
      timestamp: '2026-03-04T05:06:07.000Z',
      testCases: [testCase],
      testResults: [{ test_name: 'Home page loads', status: 'passed', execution_time: 1.5, error: null }],
      screenshots: [
        {
          name: 'home-page-loads-step-1.jpg',
          step_index: 0,
          width: 1280,
          height: 800,
          test_case_name: 'Home page loads',
        },
      ],
      summary: { total: 1, passed: 1, failed: 0, executionTime: 2 },
    });
    const text = JSON.stringify(data);
    expect(text).not.toContain('SECRETPIXELS');
    expect(text).not.toContain('base64');
  });
});
