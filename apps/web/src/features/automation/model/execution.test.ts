import { describe, expect, it } from 'vitest';
import {
  type ExecutionEvent,
  type ExecutionStatus,
  hasFailures,
  isBusy,
  nextStatus,
  statusText,
  statusTone,
} from './execution';

describe('nextStatus (docs/PRODUCT.md#execution-states)', () => {
  const cases: [ExecutionStatus, ExecutionEvent, ExecutionStatus][] = [
    ['idle', 'generate_requested', 'generating'],
    ['generating', 'test_cases_generated', 'idle'],
    ['idle', 'execution_started', 'running'],
    ['running', 'all_tests_completed', 'completed'],
    ['running', 'execution_stopped', 'idle'],
    ['idle', 'error', 'failed'],
    ['generating', 'error', 'failed'],
    ['running', 'error', 'failed'],
    ['completed', 'error', 'failed'],
    ['running', 'socket_closed', 'idle'],
    ['generating', 'socket_closed', 'idle'],
    ['failed', 'socket_closed', 'idle'],
    // A finished run is at rest: new work may start from it.
    ['completed', 'generate_requested', 'generating'],
    ['failed', 'execution_started', 'running'],
  ];
  it.each(cases)('%s + %s → %s', (from, event, to) => {
    expect(nextStatus(from, event)).toBe(to);
  });

  it('ignores events that do not apply to the state', () => {
    expect(nextStatus('running', 'generate_requested')).toBe('running');
    expect(nextStatus('generating', 'execution_started')).toBe('generating');
    expect(nextStatus('idle', 'all_tests_completed')).toBe('idle');
    expect(nextStatus('idle', 'test_cases_generated')).toBe('idle');
    expect(nextStatus('completed', 'execution_stopped')).toBe('completed');
  });

  it('is busy only while generating or running (the mode is locked then)', () => {
    expect(
      ['idle', 'generating', 'running', 'completed', 'failed'].filter((s) => isBusy(s as ExecutionStatus)),
    ).toEqual(['generating', 'running']);
  });
});

describe('statusText (status texts, docs/PRODUCT.md#execution-states)', () => {
  it('says what each state is doing, in both modes', () => {
    expect(statusText('generating', 'full', null)).toBe('Analyzing website and generating test cases...');
    expect(statusText('generating', 'command', null)).toBe(
      'Analyzing website and generating command-based test cases...',
    );
    expect(statusText('running', 'full', 'Login form works')).toBe('Running: Login form works');
    expect(statusText('running', 'full', null)).toBe('Executing tests...');
    expect(statusText('completed', 'full', null)).toBe('All tests completed successfully!');
    expect(statusText('failed', 'command', null)).toBe('Test execution failed');
    expect(statusText('idle', 'full', null)).toBe('Ready to generate comprehensive test cases');
    expect(statusText('idle', 'command', null)).toBe('Ready to generate command-based test cases');
  });
});

describe('a completed run with failures does not read as a success (a departure, docs/PRODUCT.md#execution-states)', () => {
  it('says "successfully" only when every test passed', () => {
    expect(statusText('completed', 'full', null, { passed: 18, total: 18 })).toBe(
      'All tests completed successfully!',
    );
    expect(statusText('completed', 'command', null, { passed: 1, total: 1 })).toBe(
      'All tests completed successfully!',
    );
    expect(statusTone('completed', { passed: 18, total: 18 })).toBe('success');
  });

  it('says how many passed, as a warning, when any test failed', () => {
    expect(statusText('completed', 'full', null, { passed: 13, total: 18 })).toBe(
      'All tests completed: 13/18 passed',
    );
    expect(statusText('completed', 'full', null, { passed: 0, total: 3 })).toBe(
      'All tests completed: 0/3 passed',
    );
    expect(statusText('completed', 'full', null, { passed: 0, total: 3 })).not.toContain('successfully');
    expect(statusTone('completed', { passed: 13, total: 18 })).toBe('warning');
    expect(statusTone('completed', { passed: 0, total: 1 })).toBe('warning');
  });

  it('counts an empty run, or one whose outcome is unknown, as no failure', () => {
    expect(hasFailures({ passed: 0, total: 0 })).toBe(false);
    expect(hasFailures(null)).toBe(false);
    // Flaky tests (passed on a retry) fail nothing, but are said.
    expect(hasFailures({ passed: 4, total: 5, flaky: 1 })).toBe(false);
    expect(statusText('completed', 'full', null, { passed: 3, total: 5, flaky: 1 })).toBe(
      'All tests completed: 3/5 passed, 1 flaky',
    );
    expect(statusText('completed', 'full', null, null)).toBe('All tests completed successfully!');
    expect(statusTone('completed', null)).toBe('success');
  });

  it('leaves the other states as they were', () => {
    const outcome = { passed: 1, total: 2 };
    expect(statusText('running', 'full', 'Home loads', outcome)).toBe('Running: Home loads');
    expect(statusText('failed', 'full', null, outcome)).toBe('Test execution failed');
    expect(statusText('idle', 'full', null, outcome)).toBe('Ready to generate comprehensive test cases');
    expect(statusTone('generating', null)).toBe('busy');
    expect(statusTone('running', outcome)).toBe('busy');
    expect(statusTone('failed', outcome)).toBe('error');
    expect(statusTone('idle', outcome)).toBe('neutral');
  });
});
