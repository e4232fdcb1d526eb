import type { ServerMessage } from '@argus/protocol';
import { type AutomationState, MAX_GENERATION_MESSAGES } from './automation-state';
import { isAtRest, nextStatus } from './execution';
import { joinWork } from './joined-work';
import { type TestResultItem, upsertResult } from './results';
import { addScreenshot, screenshotFromStep } from './screenshots';
import { applyStepUpdate, withoutTest } from './step-log';

type MessageOf<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;

/** How each server message of automation's changes the state; a message not named here changes nothing. */
type Handlers = {
  [T in ServerMessage['type']]?: (state: AutomationState, message: MessageOf<T>) => AutomationState;
};

/** A retried test's attempts, as test_completed and test_failed tell them (nothing for a single attempt). */
function attemptsOf(data: { attempts?: number; max_attempts?: number }): Partial<TestResultItem> {
  if (!data.attempts || data.attempts < 2) return {};
  return { attempts: data.attempts, ...(data.max_attempts ? { maxAttempts: data.max_attempts } : {}) };
}

/** A test ended: it leaves the active list, and the status names a test still running. */
function finishTest(state: AutomationState, testName: string) {
  const activeTests = state.activeTests.filter((name) => name !== testName);
  const currentTest =
    state.currentTest && activeTests.includes(state.currentTest)
      ? state.currentTest
      : (activeTests[activeTests.length - 1] ?? null);
  return { activeTests, currentTest };
}

/** Generation: its live messages, then the cases. */
const GENERATION: Handlers = {
  generation_started: (state, message) => ({
    ...state,
    generationMessages: message.data.message ? [message.data.message] : state.generationMessages,
  }),
  progress_update: (state, message) => {
    // A run says where it is before its tests start (signing in to a project), and while they wait.
    if (state.status === 'running' || (state.pendingRun && isAtRest(state.status)))
      return { ...state, runNotice: message.data.message };
    if (state.status !== 'generating') return state;
    return {
      ...state,
      generationMessages: [...state.generationMessages, message.data.message].slice(-MAX_GENERATION_MESSAGES),
    };
  },
  test_cases_generated: (state, message) => ({
    ...state,
    status: nextStatus(state.status, 'test_cases_generated'),
    testCases: message.data.test_cases,
    engine: message.data.engine ?? null,
    generationUsage: message.data.usage ?? null,
    commandCoverage: message.data.command_coverage ?? null,
    exploration: message.data.exploration ?? null,
    testRunId: message.data.test_run_id ?? state.testRunId,
    generationMessages: [],
    lastError: null,
  }),
  automation_in_progress: (state, message) => joinWork(state, message.data),
  // Waiting its turn (docs/CI.md#runs-wait-their-turn): its place, replaced as it moves up; the work's
  // start (generation_started, execution_started) replaces it.
  automation_queued: (state, message) => {
    const notice = waitingNotice(message.data.ahead);
    if (message.data.kind === 'running') return { ...state, runNotice: notice };
    if (state.status !== 'generating') return state;
    return { ...state, generationMessages: [notice] };
  },
};

/** What the screen says of work waiting its turn: 'Waiting: 2 ahead'. */
export function waitingNotice(ahead: number): string {
  return `Waiting: ${ahead} ahead`;
}

/** A run's start and its tests: their progress, steps and outcomes. */
const RUN: Handlers = {
  execution_started: (state, message) => {
    const run = state.pendingRun;
    const single = run?.kind === 'single' ? run.testName : null;
    return {
      ...state,
      status: nextStatus(state.status, 'execution_started'),
      testRunId: message.data.test_run_id ?? state.testRunId,
      runEngine: message.data.engine ?? null,
      runUsage: null,
      runNotice: null,
      progress: { current: 0, total: message.data.total_tests },
      currentTest: null,
      activeTests: [],
      runTime: null,
      outcome: null,
      pendingRun: null,
      lastError: null,
      // A full run starts clean; a single test replaces only its own earlier outcome.
      log: single ? withoutTest(state.log, single) : [],
      screenshots: single ? state.screenshots.filter((shot) => shot.testName !== single) : [],
      results: single ? state.results.filter((result) => result.testName !== single) : [],
    };
  },
  test_progress: (state, message) => {
    const { attempt, test_name } = message.data;
    // A retry (docs/HISTORY.md#retries) starts the test's steps over: the failed attempt's go.
    const retry = attempt !== undefined && attempt > 1;
    return {
      ...state,
      ...(retry
        ? {
            log: withoutTest(state.log, test_name),
            screenshots: state.screenshots.filter((shot) => shot.testName !== test_name),
          }
        : {}),
      progress: { current: message.data.current_test, total: message.data.total_tests },
      currentTest: message.data.test_name,
      activeTests: state.activeTests.includes(message.data.test_name)
        ? state.activeTests
        : [...state.activeTests, message.data.test_name],
    };
  },
  step_update: (state, message) => {
    const testName = message.data.test_name || state.currentTest || 'Test';
    const step = message.data.step_data;
    const shot = screenshotFromStep(testName, step);
    return {
      ...state,
      runNotice: null,
      log: applyStepUpdate(state.log, testName, step),
      screenshots: shot ? addScreenshot(state.screenshots, shot) : state.screenshots,
    };
  },
  test_completed: (state, message) => {
    const { result } = message.data;
    return {
      ...state,
      ...finishTest(state, message.data.test_name),
      results: upsertResult(state.results, {
        testName: message.data.test_name,
        status: result.status === 'failed' ? 'failed' : message.data.flaky ? 'flaky' : 'passed',
        executionTime: result.execution_time,
        error: result.error ?? null,
        ...attemptsOf(message.data),
      }),
    };
  },
  test_failed: (state, message) => ({
    ...state,
    ...finishTest(state, message.data.test_name),
    results: upsertResult(state.results, {
      testName: message.data.test_name,
      status: 'failed',
      executionTime: message.data.execution_time,
      error: message.data.error,
      ...attemptsOf(message.data),
    }),
  }),
};

/** How work ends: completed, stopped, or failed with an error. */
const ENDINGS: Handlers = {
  all_tests_completed: (state, message) => ({
    ...state,
    status: nextStatus(state.status, 'all_tests_completed'),
    progress: { current: message.data.total_tests, total: message.data.total_tests },
    runNotice: null,
    currentTest: null,
    activeTests: [],
    runTime: message.data.execution_time,
    outcome: {
      passed: message.data.passed,
      total: message.data.total_tests,
      ...(message.data.flaky ? { flaky: message.data.flaky } : {}),
    },
    runEngine: message.data.engine ?? state.runEngine,
    runUsage: message.data.usage ?? null,
  }),
  execution_stopped: (state, message) => ({
    ...state,
    status: nextStatus(state.status, 'execution_stopped'),
    runNotice: null,
    currentTest: null,
    activeTests: [],
    runTime: message.data.execution_time,
    // What a stopped run of the LLM engine spent before it stopped.
    runUsage: message.data.usage ?? state.runUsage,
  }),
  error: (state, message) => ({
    ...state,
    status: nextStatus(state.status, 'error'),
    runNotice: null,
    currentTest: null,
    activeTests: [],
    pendingRun: null,
    generationMessages: [],
    lastError: message.data.message,
  }),
};

const HANDLERS: Handlers = { ...GENERATION, ...RUN, ...ENDINGS };

/** A server message of automation's (concernsAutomation) applied to the state. */
export function applyServerMessage(state: AutomationState, message: ServerMessage): AutomationState {
  const handler = HANDLERS[message.type] as
    | ((state: AutomationState, message: ServerMessage) => AutomationState)
    | undefined;
  return handler ? handler(state, message) : state;
}
