import type { ServerMessage } from '@argus/protocol';
import type { AutomationState } from './automation-state';
import { resultLabel } from './results';

export interface Notice {
  kind: 'success' | 'error' | 'info';
  text: string;
  /** Milliseconds; react-hot-toast's defaults (docs/PRODUCT.md#toasts) when absent. */
  duration?: number;
}

/** The texts (docs/PRODUCT.md#automation-toasts) of the screen's own actions. */
export const NOTICES = {
  stopping: 'Stopping execution...',
  stopFailed: 'Failed to send stop command',
  stopFlagReset: 'Stop flag reset',
  resultsCleared: 'Results cleared',
  exported: 'Results exported successfully',
  serverErrorFallback: 'An error occurred during test execution',
  generateFailed: (reason: string) => `Failed to generate test cases: ${reason}`,
  startFailed: (reason: string) => `Failed to start test execution: ${reason}`,
  runFailed: (reason: string) => `Failed to run test: ${reason}`,
} as const;

/** docs/PRODUCT.md#automation-toasts: 'Stopping execution...' shows for 2 s; 'All tests completed!' for 6 s. */
export const STOPPING_TOAST_MS = 2000;
export const ALL_COMPLETED_TOAST_MS = 6000;

/** The toast a server message brings (docs/PRODUCT.md#automation-toasts), given the state before the message. */
export function noticeFor(message: ServerMessage, before: AutomationState): Notice | null {
  switch (message.type) {
    case 'test_cases_generated': {
      const mode = before.generationMode ?? 'full';
      return {
        kind: 'success',
        text: `Generated ${message.data.test_cases.length} test case(s) for ${mode} testing`,
      };
    }
    case 'execution_started':
      return { kind: 'success', text: 'Test execution started!' };
    case 'test_completed': {
      const status = message.data.result.status;
      if (message.data.flaky && status !== 'failed') {
        const { attempts, max_attempts } = message.data;
        const label = resultLabel({ status: 'flaky', attempts, maxAttempts: max_attempts });
        return {
          kind: 'info',
          text: `Test "${message.data.test_name}" ${label.charAt(0).toLowerCase()}${label.slice(1)}`,
        };
      }
      return {
        kind: status === 'failed' ? 'error' : 'success',
        text: `Test "${message.data.test_name}" ${status}`,
      };
    }
    case 'test_failed':
      return { kind: 'error', text: `Test failed: ${message.data.error}` };
    case 'all_tests_completed':
      return {
        // The spec's text either way; a run with failures is not shown as a success (see the header).
        kind:
          message.data.passed + (message.data.flaky ?? 0) === message.data.total_tests ? 'success' : 'info',
        text: `All tests completed! ${message.data.passed}/${message.data.total_tests} passed${message.data.flaky ? `, ${message.data.flaky} flaky` : ''}`,
        duration: ALL_COMPLETED_TOAST_MS,
      };
    case 'execution_stopped':
      // The server acknowledges every stop, even one that arrived after the run had ended: only a
      // run this screen saw stop earns the success toast.
      return before.status === 'running'
        ? { kind: 'success', text: 'Test execution stopped successfully!' }
        : null;
    case 'error': {
      const text = message.data.message?.trim();
      if (before.status === 'generating') {
        return { kind: 'error', text: NOTICES.generateFailed(text || 'unknown error') };
      }
      return { kind: 'error', text: text || NOTICES.serverErrorFallback };
    }
    default:
      return null;
  }
}
