import type { ScreenshotRef } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { storedLog, storedResults, storedScreenshots } from './stored-run';

const result = (name: string, status: string, steps: unknown[], error: string | null = null) => ({
  id: `id-${name}`,
  test_case_id: null,
  test_case_name: name,
  status,
  execution_time: 1.5,
  error_message: error,
  attempts: status === 'flaky' ? 2 : 1,
  steps,
  logs: [],
  screenshots: [],
  failure: null,
  seen: null,
  artifacts: [],
  diagnostics: null,
  created_at: '2026-11-26T10:00:00Z',
});

const step = (n: number, status: string, description: string, error?: string) => ({
  step_number: n,
  step_index: n - 1,
  action: 'click',
  description,
  status,
  timestamp: '2026-11-26T10:00:00Z',
  ...(error ? { error } : {}),
  screenshot: { width: 1280, height: 720 },
});

describe('a stored run in the automation components’ shapes', () => {
  const run = {
    test_results: [
      result('Login', 'passed', [step(1, 'success', 'Open /login'), step(2, 'success', 'Click "Sign in"')]),
      result(
        'Cart',
        'failed',
        [step(1, 'success', 'Open /cart'), step(2, 'error', 'Click "Pay"', 'not found'), 'junk'],
        'not found',
      ),
      result('Search', 'flaky', []),
    ],
  };

  it('gives each case its outcome (a pass on retry is flaky, with its attempts) and each step a log line', () => {
    expect(storedResults(run).map((r) => [r.testName, r.status, r.error, r.attempts])).toEqual([
      ['Login', 'passed', null, undefined],
      ['Cart', 'failed', 'not found', undefined],
      ['Search', 'flaky', null, 2],
    ]);
    const log = storedLog(run);
    expect(log.map((e) => [e.key, e.status, e.error])).toEqual([
      ['Login#0', 'success', null],
      ['Login#1', 'success', null],
      ['Cart#0', 'success', null],
      ['Cart#1', 'error', 'not found'],
    ]);
  });

  it('matches each stored screenshot to its step, for its number and status', () => {
    const ref: ScreenshotRef = {
      id: 's1',
      url: '/api/screenshots/s1/image?sig=x',
      test_run_id: 'r1',
      test_case_name: 'Cart',
      step_name: null,
      step_index: 1,
      width: 1280,
      height: 720,
      created_at: '2026-11-26T10:00:01Z',
    };
    const [shot] = storedScreenshots([ref], storedLog(run));
    expect(shot).toMatchObject({
      key: 'Cart#1',
      stepNumber: 2,
      stepName: 'Click "Pay"',
      status: 'error',
      stored: { id: 's1', runId: 'r1' },
      fileName: 'cart-step-2.jpg',
    });
  });
});
