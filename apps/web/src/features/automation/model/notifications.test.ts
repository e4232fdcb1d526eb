import { type ServerMessage, ServerMessageSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { type AutomationState, initialAutomationState } from './automation-state';
import { noticeFor } from './notifications';

/** An automation message about no session in particular (an `error` is automation's unless it says otherwise). */
function message(type: string, data: unknown = {}): ServerMessage {
  const body = type === 'error' ? { feature: 'automation', ...(data as object) } : data;
  return ServerMessageSchema.parse({ type, session_id: null, data: body }) as ServerMessage;
}

const idle = initialAutomationState;
const generating: AutomationState = { ...idle, status: 'generating', generationMode: 'command' };
const running: AutomationState = { ...idle, status: 'running' };

describe('noticeFor (docs/PRODUCT.md#automation-toasts)', () => {
  it('announces generated cases with their count and mode', () => {
    const cases = [{ test_name: 'a' }, { test_name: 'b' }];
    expect(noticeFor(message('test_cases_generated', { test_cases: cases }), generating)).toEqual({
      kind: 'success',
      text: 'Generated 2 test case(s) for command testing',
    });
    expect(noticeFor(message('test_cases_generated', { test_cases: [] }), idle)?.text).toBe(
      'Generated 0 test case(s) for full testing',
    );
  });

  it('follows the run', () => {
    expect(noticeFor(message('execution_started', { total_tests: 3 }), idle)?.text).toBe(
      'Test execution started!',
    );
    expect(
      noticeFor(
        message('test_completed', {
          test_name: 'Home',
          result: { status: 'passed', test_case: { test_name: 'Home' }, execution_time: 1 },
        }),
        running,
      ),
    ).toEqual({ kind: 'success', text: 'Test "Home" passed' });
    expect(
      noticeFor(
        message('test_failed', { test_name: 'About', error: 'Broken link', execution_time: 1 }),
        running,
      ),
    ).toEqual({ kind: 'error', text: 'Test failed: Broken link' });
    expect(
      noticeFor(message('all_tests_completed', { total_tests: 5, passed: 3, execution_time: 9 }), running),
    ).toEqual({ kind: 'info', text: 'All tests completed! 3/5 passed', duration: 6000 });
    expect(
      noticeFor(message('all_tests_completed', { total_tests: 5, passed: 5, execution_time: 9 }), running),
    ).toEqual({ kind: 'success', text: 'All tests completed! 5/5 passed', duration: 6000 });
    // A test that passed on a retry is flaky: said as such, and it fails nothing.
    expect(
      noticeFor(
        message('test_completed', {
          test_name: 'Cart',
          result: { status: 'passed', test_case: { test_name: 'Cart' }, execution_time: 3 },
          flaky: true,
          attempts: 2,
          max_attempts: 3,
        }),
        running,
      ),
    ).toEqual({ kind: 'info', text: 'Test "Cart" flaky: passed on attempt 2 of 3' });
    expect(
      noticeFor(
        message('all_tests_completed', { total_tests: 5, passed: 4, flaky: 1, execution_time: 9 }),
        running,
      ),
    ).toEqual({ kind: 'success', text: 'All tests completed! 4/5 passed, 1 flaky', duration: 6000 });
    expect(noticeFor(message('execution_stopped', { execution_time: 1 }), running)?.text).toBe(
      'Test execution stopped successfully!',
    );
    // A stop that reached the server after the run had ended is acknowledged without a toast.
    const completed = { ...running, status: 'completed' as const };
    expect(noticeFor(message('execution_stopped', { execution_time: 0 }), completed)).toBeNull();
    expect(
      noticeFor(
        message('step_update', {
          step_data: { step_number: 1, action: 'a', status: 'pending', timestamp: 't' },
        }),
        running,
      ),
    ).toBeNull();
  });

  it('shows server errors, as a generation failure while generating', () => {
    expect(noticeFor(message('error', { message: 'Target refused' }), generating)).toEqual({
      kind: 'error',
      text: 'Failed to generate test cases: Target refused',
    });
    expect(noticeFor(message('error', { message: 'Browser crashed' }), running)?.text).toBe(
      'Browser crashed',
    );
    expect(noticeFor(message('error', { message: '  ' }), running)?.text).toBe(
      'An error occurred during test execution',
    );
  });

  it("shows a project's failed sign-in, before a run (nothing running yet) or a generation", () => {
    const failed = { message: 'Sign-in failed for Desk/staging: wrong password', code: 'SIGN_IN_FAILED' };
    expect(noticeFor(message('error', failed), { ...idle, pendingRun: { kind: 'all' } })).toEqual({
      kind: 'error',
      text: 'Sign-in failed for Desk/staging: wrong password',
    });
    expect(noticeFor(message('error', failed), generating)?.text).toBe(
      'Failed to generate test cases: Sign-in failed for Desk/staging: wrong password',
    );
  });
});
