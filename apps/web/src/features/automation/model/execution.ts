import type { TestMode } from '@argus/protocol';

/** docs/PRODUCT.md#execution-states: the automation execution states. */
export type ExecutionStatus = 'idle' | 'generating' | 'running' | 'completed' | 'failed';

/** What moves the execution state (docs/PRODUCT.md#execution-states). */
export type ExecutionEvent =
  | 'generate_requested'
  | 'test_cases_generated'
  | 'execution_started'
  | 'all_tests_completed'
  | 'execution_stopped'
  | 'error'
  | 'socket_closed';

/** States from which a new generation or run may begin: idle, or a finished run shown at rest. */
export function isAtRest(status: ExecutionStatus): boolean {
  return status === 'idle' || status === 'completed' || status === 'failed';
}

/** Generating or running: the mode cannot change and nothing new can start. */
export function isBusy(status: ExecutionStatus): boolean {
  return status === 'generating' || status === 'running';
}

/**
 * The transitions of docs/PRODUCT.md#execution-states. idle→generating on a generation request; generating→idle on
 * test_cases_generated; idle→running on execution_started; running→completed on all_tests_completed;
 * running→idle on execution_stopped; any→failed on an error; a socket close resets to idle.
 * Completed and failed are idle states that still show the last outcome, so they start new work too.
 * Anything else leaves the state as it is.
 */
export function nextStatus(status: ExecutionStatus, event: ExecutionEvent): ExecutionStatus {
  switch (event) {
    case 'generate_requested':
      return isAtRest(status) ? 'generating' : status;
    case 'test_cases_generated':
      return status === 'generating' ? 'idle' : status;
    case 'execution_started':
      return isAtRest(status) ? 'running' : status;
    case 'all_tests_completed':
      return status === 'running' ? 'completed' : status;
    case 'execution_stopped':
      return status === 'running' ? 'idle' : status;
    case 'error':
      return 'failed';
    case 'socket_closed':
      return 'idle';
  }
}

/** How the last run ended, from all_tests_completed: tests passed of the run's total. */
export interface RunOutcome {
  passed: number;
  total: number;
  /** Tests that passed only on a retry (not in `passed`; they fail nothing). */
  flaky?: number;
}

/** Whether a completed run had a failing test (fewer passed, at once or on a retry, than ran). */
export function hasFailures(outcome: RunOutcome | null | undefined): boolean {
  return !!outcome && outcome.passed + (outcome.flaky ?? 0) < outcome.total;
}

/**
 * How the status line reads: a completed run is a success only if every test passed; with any
 * failure it is a warning (a departure from the original product, which says 'successfully' whatever the outcome).
 */
export type StatusTone = 'busy' | 'success' | 'warning' | 'error' | 'neutral';

export function statusTone(status: ExecutionStatus, outcome: RunOutcome | null | undefined): StatusTone {
  switch (status) {
    case 'generating':
    case 'running':
      return 'busy';
    case 'completed':
      return hasFailures(outcome) ? 'warning' : 'success';
    case 'failed':
      return 'error';
    case 'idle':
      return 'neutral';
  }
}

/**
 * The status texts of docs/PRODUCT.md#execution-states, except a completed run with failures: 'All tests completed: P/T passed'
 * instead of 'All tests completed successfully!' (see ARCHITECTURE.md, departures).
 */
export function statusText(
  status: ExecutionStatus,
  mode: TestMode,
  currentTest: string | null,
  outcome: RunOutcome | null = null,
): string {
  switch (status) {
    case 'generating':
      return mode === 'command'
        ? 'Analyzing website and generating command-based test cases...'
        : 'Analyzing website and generating test cases...';
    case 'running':
      return currentTest ? `Running: ${currentTest}` : 'Executing tests...';
    case 'completed':
      return outcome && hasFailures(outcome)
        ? `All tests completed: ${outcome.passed}/${outcome.total} passed${outcome.flaky ? `, ${outcome.flaky} flaky` : ''}`
        : 'All tests completed successfully!';
    case 'failed':
      return 'Test execution failed';
    case 'idle':
      return mode === 'command'
        ? 'Ready to generate command-based test cases'
        : 'Ready to generate comprehensive test cases';
  }
}
