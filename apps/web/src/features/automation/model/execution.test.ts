import { describe, expect, it } from 'vitest';
import { type ExecutionEvent, type ExecutionStatus, isBusy, nextStatus, statusText } from './execution';

describe('nextStatus (spec §4 automation execution states)', () => {
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

describe('statusText (spec §4 texts)', () => {
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
