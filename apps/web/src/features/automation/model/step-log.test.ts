import type { StepUpdate } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  applyStepUpdate,
  countByStatus,
  filterEntries,
  firstErrorKey,
  type LogEntry,
  logKey,
  logsForStorage,
  scrollTarget,
  stepText,
  withoutTest,
} from './step-log';

function step(index: number, status: StepUpdate['status'], extra: Partial<StepUpdate> = {}): StepUpdate {
  return {
    step_number: index + 1,
    step_index: index,
    action: 'click',
    description: `Click "Item ${index}"`,
    status,
    timestamp: `2026-01-01T10:00:0${index}.000Z`,
    ...extra,
  };
}

function feed(updates: [string, StepUpdate][]): LogEntry[] {
  return updates.reduce<LogEntry[]>((log, [test, update]) => applyStepUpdate(log, test, update), []);
}

describe('applyStepUpdate (one entry per test and step)', () => {
  it('turns the pending line into its result in place instead of adding a second line', () => {
    const log = feed([
      ['A', step(0, 'pending')],
      ['A', step(0, 'success', { url: 'http://x/', selector: 'role=link' })],
    ]);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ key: logKey('A', 0), status: 'success', updates: 2, url: 'http://x/' });
  });

  it('keeps interleaved steps of two tests apart and in arrival order', () => {
    const log = feed([
      ['A', step(0, 'pending')],
      ['B', step(0, 'pending')],
      ['A', step(0, 'success')],
      ['A', step(1, 'pending')],
      ['B', step(0, 'error', { error: 'Link not found' })],
      ['A', step(1, 'success')],
    ]);
    expect(log.map((e) => [e.testName, e.stepIndex, e.status])).toEqual([
      ['A', 0, 'success'],
      ['B', 0, 'error'],
      ['A', 1, 'success'],
    ]);
    expect(log[1].error).toBe('Link not found');
  });

  it('keeps earlier details the finishing update leaves out, and reads the next goal', () => {
    const log = feed([
      ['A', step(2, 'pending', { selector: '#q', value: 'shoes', thoughts: { next_goal: 'Search' } })],
      ['A', step(2, 'success', { selector: null, value: '' })],
    ]);
    expect(log[0]).toMatchObject({ selector: '#q', value: 'shoes', nextGoal: 'Search', error: null });
  });

  it('falls back to the step number when no step index is sent', () => {
    const log = feed([['A', { ...step(0, 'pending'), step_index: undefined, step_number: 3 }]]);
    expect(log[0].stepIndex).toBe(2);
  });

  it('drops one test for a rerun', () => {
    const log = feed([
      ['A', step(0, 'success')],
      ['B', step(0, 'success')],
    ]);
    expect(withoutTest(log, 'A').map((e) => e.testName)).toEqual(['B']);
  });
});

describe('log filters, counts and navigation', () => {
  const log = feed([
    ['Home page loads', step(0, 'success', { url: 'http://shop/' })],
    ['Home page loads', step(1, 'error', { error: 'Text "Welcome" is not visible' })],
    ['About links', step(0, 'pending')],
    ['About links', step(1, 'error', { error: 'Broken link' })],
  ]);

  it('counts each status and the total', () => {
    expect(countByStatus(log)).toEqual({ all: 4, success: 1, error: 2, pending: 1 });
  });

  it('filters by status and searches every field, case-insensitively', () => {
    expect(filterEntries(log, 'error', '').map((e) => e.key)).toEqual([
      logKey('Home page loads', 1),
      logKey('About links', 1),
    ]);
    expect(filterEntries(log, 'all', 'WELCOME')).toHaveLength(1);
    expect(filterEntries(log, 'all', 'about')).toHaveLength(2);
    expect(filterEntries(log, 'success', 'shop')).toHaveLength(1);
    expect(filterEntries(log, 'pending', 'home')).toHaveLength(0);
    expect(filterEntries(log, 'all', '  ')).toBe(log);
  });

  it('finds the first error', () => {
    expect(firstErrorKey(log)).toBe(logKey('Home page loads', 1));
    expect(firstErrorKey([])).toBeNull();
  });

  it('scrolls in 200 px jumps within the list', () => {
    expect(scrollTarget(0, 'down', 1000)).toBe(200);
    expect(scrollTarget(900, 'down', 1000)).toBe(1000);
    expect(scrollTarget(150, 'up', 1000)).toBe(0);
    expect(scrollTarget(0, 'down', -5)).toBe(0);
  });

  it('keeps only the last 10 lines, as text, for storage', () => {
    const long = feed(
      Array.from({ length: 14 }, (_, i) => ['T', step(i, 'success')] as [string, StepUpdate]),
    );
    const stored = logsForStorage(long);
    expect(stored).toHaveLength(10);
    expect(stored[0].message).toContain('#5');
    expect(logsForStorage(log)[1]).toMatchObject({ level: 'error' });
    expect(JSON.stringify(stored)).not.toContain('base64');
  });
});

describe('steps the model carries out (free-form lines, judged expected results)', () => {
  const LLM = 'LLM (openai-compatible · qwen2.5-coder)';
  const line = 'Add a to-do called "Buy milk" using the new to-do field';
  const usage = { model_calls: 3, input_tokens: 2400, output_tokens: 310, cost_usd: 0.0042 };
  const freeForm = (status: StepUpdate['status'], extra: Partial<StepUpdate> = {}) =>
    step(1, status, { action: 'free_form', description: line, engine: LLM, ...extra });

  it('keeps the engine, how it was resolved and its usage, even when a later update leaves them out', () => {
    const log = feed([
      ['A', freeForm('pending')],
      ['A', freeForm('success', { resolved_by: 'model', usage })],
      ['A', freeForm('success', { engine: undefined, resolved_by: undefined, usage: undefined })],
    ]);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ engine: LLM, resolvedBy: 'model', usage, updates: 3 });
  });

  it('a built-in step has its engine and nothing else', () => {
    const log = feed([['A', step(0, 'success', { engine: 'built-in (rule-based)' })]]);
    expect(log[0]).toMatchObject({ engine: 'built-in (rule-based)', resolvedBy: null, usage: null });
  });

  it("shows the line, the model's thought while it works, then what was done", () => {
    const working = feed([
      ['A', freeForm('pending', { thoughts: { next_goal: 'Verify text "1 item left" is visible' } })],
      [
        'A',
        freeForm('pending', { description: 'The page is open; next: fill', thoughts: { next_goal: 'fill' } }),
      ],
    ]);
    expect(working[0]).toMatchObject({ line, nextGoal: 'fill' });
    expect(stepText(working[0])).toEqual({
      main: line,
      outcome: null,
      thought: 'The page is open; next: fill',
    });
    const done = feed([
      ['A', freeForm('success', { description: `${line} — typed "Buy milk" — and pressed Enter` })],
    ]);
    // A step first seen finished (a late tab) is cut at the first separator.
    expect(stepText(done[0])).toEqual({
      main: line,
      outcome: 'typed "Buy milk" — and pressed Enter',
      thought: null,
    });
    const live = applyStepUpdate(
      working,
      'A',
      freeForm('success', { description: `${line} — typed — pressed` }),
    );
    expect(stepText(live[0])).toEqual({ main: line, outcome: 'typed — pressed', thought: null });
  });

  it('a judged expected result reads as the judgement and its reason', () => {
    const judged = feed([
      [
        'A',
        step(2, 'success', {
          action: 'judge_expected_result',
          description:
            'Judge the expected result: The list shows "Buy milk" — the list item "Buy milk" is visible',
          resolved_by: 'cache',
        }),
      ],
    ]);
    expect(stepText(judged[0])).toEqual({
      main: 'Judge the expected result: The list shows "Buy milk"',
      outcome: 'the list item "Buy milk" is visible',
      thought: null,
    });
  });

  it('other steps are their description, whatever it holds', () => {
    const log = feed([['A', step(0, 'success', { description: 'Click "A — B"' })]]);
    expect(stepText(log[0])).toEqual({ main: 'Click "A — B"', outcome: null, thought: null });
  });

  it('the engine is searchable', () => {
    const log = feed([
      ['A', freeForm('success')],
      ['A', step(0, 'success')],
    ]);
    expect(filterEntries(log, 'all', 'qwen')).toHaveLength(1);
  });
});
