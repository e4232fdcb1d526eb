import type { InterpreterUsage, TestOutcome } from '@argus/engine';
import type {
  AutomationInProgressInput,
  ScreenshotRef,
  ServerMessageInput,
  StepUpdate,
  TestCase,
} from '@argus/protocol';
import { addressed, type Send, type Unaddressed } from '../realtime/user-channel';

type DataOf<T extends ServerMessageInput['type']> = Extract<ServerMessageInput, { type: T }>['data'];

/** The automation failures the user is told of, by code. */
type FailureCode = 'SIGN_IN_FAILED' | 'GENERATION_FAILED' | 'INTERNAL';

/** How a case ended, as `test_completed` or `test_failed` says it. */
export interface CaseEnd {
  testCase: TestCase;
  outcome: TestOutcome;
  screenshots: ScreenshotRef[];
  /** The attempt that ended it, of `maxAttempts` (docs/HISTORY.md#retries). */
  attempt: number;
  maxAttempts: number;
}

/**
 * Every message automation sends the user's sockets (docs/PRODUCT.md#realtime-messages), in one place
 * so their shapes are read together: a generation's, a run's and a stop's, each addressed to the
 * session of the work it is about.
 */
export class AutomationMessages {
  private readonly emit: (message: Unaddressed) => void;

  constructor(send: Send, sessionId: string | null) {
    this.emit = addressed(send, sessionId);
  }

  /** The work waits its turn: `ahead` start before it (docs/CI.md#runs-wait-their-turn). */
  queued(kind: 'generating' | 'running', ahead: number, runId: string | null = null): void {
    this.emit({ type: 'automation_queued', data: { kind, ahead, test_run_id: runId } });
  }

  progress(message: string): void {
    this.emit({ type: 'progress_update', data: { message } });
  }

  failed(code: FailureCode, message: string): void {
    this.emit({ type: 'error', data: { message, code, feature: 'automation' } });
  }

  generationStarted(url: string, message: string): void {
    this.emit({ type: 'generation_started', data: { url, message } });
  }

  casesGenerated(data: DataOf<'test_cases_generated'>): void {
    this.emit({ type: 'test_cases_generated', data });
  }

  executionStarted(total: number, runId: string, engine: string): void {
    this.emit({ type: 'execution_started', data: { total_tests: total, test_run_id: runId, engine } });
  }

  /** A case starts (`attempt` of `maxAttempts` when it is a retry). */
  testProgress(index: number, total: number, name: string, retry?: { attempt: number; maxAttempts: number }) {
    this.emit({
      type: 'test_progress',
      data: {
        current_test: index + 1,
        total_tests: total,
        test_name: name,
        ...(retry ? { attempt: retry.attempt, max_attempts: retry.maxAttempts } : {}),
      },
    });
  }

  step(name: string, update: StepUpdate): void {
    this.emit({ type: 'step_update', data: { step_data: update, test_name: name } });
  }

  /** A case's verdict: `test_completed` (flaky when a retry passed) or `test_failed`. */
  testFinished({ testCase, outcome, screenshots, attempt, maxAttempts }: CaseEnd): void {
    const name = testCase.test_name;
    if (outcome.status === 'passed') {
      this.emit({
        type: 'test_completed',
        data: {
          test_name: name,
          result: {
            status: 'passed',
            test_case: { id: testCase.id, test_name: name, description: testCase.description },
            execution_time: outcome.executionTime,
            error: null,
            screenshots,
            logs: outcome.logs,
          },
          ...(attempt > 1 ? { flaky: true } : {}),
          ...(maxAttempts > 1 ? { attempts: attempt, max_attempts: maxAttempts } : {}),
        },
      });
      return;
    }
    this.emit({
      type: 'test_failed',
      data: {
        test_name: name,
        error: outcome.error ?? 'Test failed',
        execution_time: outcome.executionTime,
        screenshots,
        logs: outcome.logs,
        ...(maxAttempts > 1 ? { attempts: attempt } : {}),
      },
    });
  }

  allTestsCompleted(data: DataOf<'all_tests_completed'>): void {
    this.emit({ type: 'all_tests_completed', data });
  }

  stopping(): void {
    this.emit({ type: 'execution_stopping', data: {} });
  }

  /** The work is over, stopped; a run that used a model says what it cost. */
  stopped(executionTime: number, usage?: InterpreterUsage): void {
    this.emit({
      type: 'execution_stopped',
      data: { execution_time: executionTime, ...(usage ? { usage } : {}) },
    });
  }
}

/** `automation_in_progress`: where the work stands, for a socket that connects while it goes on. */
export function inProgressMessage(
  sessionId: string | null,
  data: AutomationInProgressInput,
): ServerMessageInput {
  return { type: 'automation_in_progress', session_id: sessionId, data };
}
