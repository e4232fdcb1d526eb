import type { TestOutcome } from '@argus/engine';
import type { TestCase } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { checkCases } from './case-check';

const testCase = (name: string): TestCase => ({
  test_name: name,
  description: '',
  category: 'functional',
  priority: 'high',
  steps: ['Navigate to /'],
  expected_result: '',
});
/** An outcome; a failed one failed at step `at` (0-based) of its case. */
const outcome = (status: 'passed' | 'failed', error: string | null = null, at = 0): TestOutcome =>
  ({
    status,
    error,
    executionTime: 0.1,
    logs: [],
    screenshots: [],
    steps:
      status === 'failed'
        ? [{ step_number: at + 1, step_index: at, status: 'error', action: '', timestamp: '' }]
        : [],
  }) as unknown as TestOutcome;

describe('checkCases', () => {
  it('drops a case that fails in any run, with the run and the reason, and keeps the rest in order', async () => {
    const seen = new Map<string, number>();
    const { kept, check } = await checkCases(
      ['a', 'b', 'c'].map(testCase),
      'http://127.0.0.1:1/',
      async (c) => {
        const n = (seen.get(c.test_name) ?? 0) + 1;
        seen.set(c.test_name, n);
        // "b" passes alone the first time and fails the second: a flaky case never reaches a pipeline.
        return c.test_name === 'b' && n === 2
          ? outcome('failed', 'Expected the text "Saved." to be visible')
          : outcome('passed');
      },
      { runs: 2, parallelism: 2 },
    );
    expect(kept.map((c) => c.test_name)).toEqual(['a', 'c']);
    expect(check).toEqual({
      runs: 2,
      parallelism: 2,
      dropped: [
        {
          test: 'b',
          reason: 'failed in run 2 of 2, passed in another: Expected the text "Saved." to be visible',
        },
      ],
      defects: [],
      unchecked: 0,
    });
    // Every case ran in every run, a dropped one included.
    expect([...seen.values()]).toEqual([2, 2, 2]);
  });

  it('keeps a case failing every run at a page-health check (it reports a defect), and drops one failing a behaviour check every run', async () => {
    const health: TestCase = { ...testCase('links'), steps: ['Navigate to /about', 'Verify all links work'] };
    const behaviour: TestCase = {
      ...testCase('adds'),
      steps: ['Navigate to /', 'Fill "Title" with "Milk"', 'Press Enter', 'Verify text "Milk" is visible'],
    };
    const { kept, check } = await checkCases([health, behaviour], 'http://127.0.0.1:1/', async (c) =>
      c.test_name === 'links'
        ? outcome('failed', 'Broken link "History" → /history answered 404', 1)
        : outcome('failed', 'Expected the text "Milk" to be visible', 3),
    );
    expect(kept.map((c) => c.test_name)).toEqual(['links']);
    expect(check.defects).toEqual([
      { test: 'links', reason: 'Broken link "History" → /history answered 404' },
    ]);
    expect(check.dropped).toEqual([
      { test: 'adds', reason: 'failed in every run: Expected the text "Milk" to be visible' },
    ]);
  });

  it('hands out a case with free-form steps unchecked, without running it', async () => {
    const freeForm: TestCase = {
      ...testCase('free'),
      steps: ['Navigate to /', 'Add three items to the basket somehow'],
    };
    const ran: string[] = [];
    const { kept, check } = await checkCases([freeForm, testCase('a')], 'http://127.0.0.1:1/', async (c) => {
      ran.push(c.test_name);
      return outcome('passed');
    });
    expect(kept.map((c) => c.test_name)).toEqual(['free', 'a']);
    expect(check.unchecked).toBe(1);
    expect(ran).toEqual(['a', 'a']);
  });

  it('runs the cases at the parallelism asked, never more at once', async () => {
    let running = 0;
    let most = 0;
    await checkCases(
      ['a', 'b', 'c', 'd', 'e'].map(testCase),
      'http://127.0.0.1:1/',
      async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return outcome('passed');
      },
      { runs: 1, parallelism: 2 },
    );
    expect(most).toBe(2);
  });

  it('stops with AbortedError when the generation is stopped', async () => {
    const stop = new AbortController();
    const checking = checkCases(
      ['a', 'b'].map(testCase),
      'http://127.0.0.1:1/',
      async () => {
        stop.abort();
        return outcome('passed');
      },
      { runs: 2, parallelism: 1, signal: stop.signal },
    );
    await expect(checking).rejects.toThrow(/stopped/);
  });
});
