import {
  type ClauseCoverage,
  type ExplorationSummary,
  featureOf,
  type ModelUsage,
  type ServerMessage,
  type TestCase,
  type TestMode,
} from '@argus/protocol';
import { type ExecutionStatus, isAtRest, isBusy, nextStatus, type RunOutcome } from './execution';
import { type TestResultItem, upsertResult } from './results';
import { addScreenshot, type ScreenshotItem, screenshotFromStep, withFreshLinks } from './screenshots';
import { applyStepUpdate, type LogEntry, withoutTest } from './step-log';

/** What the user last asked to run, so execution_started knows what to clear. */
export type PendingRun = { kind: 'all' } | { kind: 'single'; testName: string };

export interface AutomationState {
  /**
   * The session whose work this screen follows (the one its requests name, or the one of work it
   * joined): messages about other sessions, like other features' messages, are not this screen's.
   */
  sessionId: string | null;
  status: ExecutionStatus;
  /** The mode of the last generation request (for its toast and the cases' label). */
  generationMode: TestMode | null;
  testCases: TestCase[];
  /** Which planner wrote the cases, as the server names it (e.g. 'builtin (rule-based, no LLM)'). */
  engine: string | null;
  /** What writing the cases cost in model calls; null for the built-in engine. */
  generationUsage: ModelUsage | null;
  /** Command mode: each clause of the command with the tests that cover it, or why none does. */
  commandCoverage: ClauseCoverage[] | null;
  /** What the generation explored by acting on the app, and what its budget left out. */
  exploration: ExplorationSummary | null;
  /** Which engine carries out the last run's steps, as execution_started / all_tests_completed name it. */
  runEngine: string | null;
  /** The last run's model calls, from all_tests_completed (all zero on a rerun replayed from the cache). */
  runUsage: ModelUsage | null;
  /** The test run the server created with the cases; sent back with every run. */
  testRunId: string | null;
  /** The page the cases were generated for. */
  targetUrl: string | null;
  /** Live messages while generating (latest last). */
  generationMessages: string[];
  /** What a run says before its tests act (waiting for a free browser: its place in line), until they do. */
  runNotice: string | null;
  progress: { current: number; total: number };
  currentTest: string | null;
  /** Tests started and not finished yet (two run at once). */
  activeTests: string[];
  log: LogEntry[];
  screenshots: ScreenshotItem[];
  results: TestResultItem[];
  /** Seconds, from all_tests_completed or execution_stopped. */
  runTime: number | null;
  /** Passed of total, from all_tests_completed; null until a run completes. */
  outcome: RunOutcome | null;
  pendingRun: PendingRun | null;
  lastError: string | null;
}

export const initialAutomationState: AutomationState = {
  sessionId: null,
  status: 'idle',
  generationMode: null,
  testCases: [],
  engine: null,
  generationUsage: null,
  commandCoverage: null,
  exploration: null,
  runEngine: null,
  runUsage: null,
  testRunId: null,
  targetUrl: null,
  generationMessages: [],
  runNotice: null,
  progress: { current: 0, total: 0 },
  currentTest: null,
  activeTests: [],
  log: [],
  screenshots: [],
  results: [],
  runTime: null,
  outcome: null,
  pendingRun: null,
  lastError: null,
};

export type AutomationAction =
  /** The screen's session: bound, created for a new site, or followed. */
  | { type: 'session'; sessionId: string | null }
  | { type: 'generate_requested'; url: string; mode: TestMode }
  /** The request never left (session or send failure): back to idle. */
  | { type: 'generate_aborted' }
  | { type: 'run_requested'; run: PendingRun }
  | { type: 'run_aborted' }
  | { type: 'server'; message: ServerMessage }
  | { type: 'socket_closed' }
  | { type: 'clear_results' }
  /** A case the user wrote; it runs like a generated one. `targetUrl` is the page when there was no case. */
  | { type: 'add_custom_case'; testCase: TestCase; targetUrl: string }
  | { type: 'remove_case'; testName: string }
  /** Fresh signed links for stored images (a run's screenshot list), replacing expiring ones. */
  | { type: 'screenshot_links'; refs: readonly { id: string; url: string }[] }
  /** The cases and results kept with the session, shown again when the screen opens. */
  | {
      type: 'restore';
      mode: TestMode;
      targetUrl: string;
      testCases: TestCase[];
      engine: string | null;
      generationUsage: ModelUsage | null;
      commandCoverage?: ClauseCoverage[] | null;
      exploration?: ExplorationSummary | null;
      runEngine: string | null;
      runUsage: ModelUsage | null;
      testRunId: string | null;
      results: TestResultItem[];
    };

const MAX_GENERATION_MESSAGES = 6;

/** A retried test's attempts, as test_completed and test_failed tell them (nothing for a single attempt). */
function attemptsOf(data: { attempts?: number; max_attempts?: number }): Partial<TestResultItem> {
  if (!data.attempts || data.attempts < 2) return {};
  return { attempts: data.attempts, ...(data.max_attempts ? { maxAttempts: data.max_attempts } : {}) };
}

/**
 * Whether a server message is this screen's. The user's one socket carries every screen's messages:
 * only automation's count (an `error` says its feature), and only those about the session this screen
 * follows, so another screen's failure, or another automation session's, never fails this one.
 * `automation_in_progress` is the answer to this screen's own question (work of the user's already
 * under way): the screen joins that work, and its session.
 */
export function concernsAutomation(state: AutomationState, message: ServerMessage): boolean {
  if (featureOf(message) !== 'automation') return false;
  if (message.type === 'automation_in_progress') return true;
  return message.session_id === state.sessionId;
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

function onServerMessage(state: AutomationState, message: ServerMessage): AutomationState {
  switch (message.type) {
    case 'generation_started':
      return {
        ...state,
        generationMessages: message.data.message ? [message.data.message] : state.generationMessages,
      };
    case 'progress_update':
      // A run says where it is before its tests start (signing in to a project), and while they wait.
      if (state.status === 'running' || (state.pendingRun && isAtRest(state.status)))
        return { ...state, runNotice: message.data.message };
      if (state.status !== 'generating') return state;
      return {
        ...state,
        generationMessages: [...state.generationMessages, message.data.message].slice(
          -MAX_GENERATION_MESSAGES,
        ),
      };
    case 'test_cases_generated':
      return {
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
      };
    case 'execution_started': {
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
    }
    case 'automation_in_progress': {
      const work = message.data;
      if (work.kind === 'generating') {
        return {
          ...state,
          sessionId: work.session_id,
          status: 'generating',
          generationMode: work.test_mode,
          targetUrl: work.url,
          generationMessages: work.messages.slice(-MAX_GENERATION_MESSAGES),
          lastError: null,
        };
      }
      // The server's results and steps are the truth. Screenshots this screen already holds (after a
      // dropped socket) are kept for the tests of this run, since their images are here already; the
      // others come as stored images. A run id can be reused by a later run, hence the name filter.
      const sameRun = state.testRunId === work.test_run_id;
      const mentioned = new Set([...work.results.map((r) => r.test_name), ...work.active_tests]);
      const kept = sameRun ? state.screenshots.filter((shot) => mentioned.has(shot.testName)) : [];
      const screenshots = work.steps.reduce((items, { test_name, step_data, screenshot_url }) => {
        if (!screenshot_url) return items;
        const shot = screenshotFromStep(test_name, step_data, screenshot_url, work.test_run_id);
        return shot && !items.some((item) => item.key === shot.key) ? addScreenshot(items, shot) : items;
      }, kept);
      return {
        ...state,
        sessionId: work.session_id,
        status: 'running',
        generationMode: work.test_mode,
        targetUrl: work.url,
        testCases: work.test_cases,
        testRunId: work.test_run_id,
        // The answer does not name the run's engine: kept when it is the run this screen already showed.
        runEngine: sameRun ? state.runEngine : null,
        runUsage: null,
        generationMessages: [],
        progress: {
          current: Math.min(work.total_tests, work.results.length + work.active_tests.length),
          total: work.total_tests,
        },
        activeTests: work.active_tests,
        currentTest: work.active_tests.at(-1) ?? null,
        results: work.results.reduce<TestResultItem[]>(
          (results, r) =>
            upsertResult(results, {
              testName: r.test_name,
              status: r.flaky ? 'flaky' : r.status,
              executionTime: r.execution_time,
              error: r.error,
              ...(r.attempts ? { attempts: r.attempts } : {}),
            }),
          [],
        ),
        log: work.steps.reduce<LogEntry[]>(
          (log, { test_name, step_data }) => applyStepUpdate(log, test_name, step_data),
          [],
        ),
        screenshots,
        runTime: null,
        outcome: null,
        pendingRun: null,
        lastError: null,
      };
    }
    case 'test_progress': {
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
    }
    case 'step_update': {
      const testName = message.data.test_name || state.currentTest || 'Test';
      const step = message.data.step_data;
      const shot = screenshotFromStep(testName, step);
      return {
        ...state,
        runNotice: null,
        log: applyStepUpdate(state.log, testName, step),
        screenshots: shot ? addScreenshot(state.screenshots, shot) : state.screenshots,
      };
    }
    case 'test_completed': {
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
    }
    case 'test_failed':
      return {
        ...state,
        ...finishTest(state, message.data.test_name),
        results: upsertResult(state.results, {
          testName: message.data.test_name,
          status: 'failed',
          executionTime: message.data.execution_time,
          error: message.data.error,
          ...attemptsOf(message.data),
        }),
      };
    case 'all_tests_completed':
      return {
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
      };
    case 'execution_stopped':
      return {
        ...state,
        status: nextStatus(state.status, 'execution_stopped'),
        runNotice: null,
        currentTest: null,
        activeTests: [],
        runTime: message.data.execution_time,
        // What a stopped run of the LLM engine spent before it stopped.
        runUsage: message.data.usage ?? state.runUsage,
      };
    case 'error':
      return {
        ...state,
        status: nextStatus(state.status, 'error'),
        runNotice: null,
        currentTest: null,
        activeTests: [],
        pendingRun: null,
        generationMessages: [],
        lastError: message.data.message,
      };
    default:
      return state;
  }
}

export function automationReducer(state: AutomationState, action: AutomationAction): AutomationState {
  switch (action.type) {
    case 'session':
      return state.sessionId === action.sessionId ? state : { ...state, sessionId: action.sessionId };
    case 'generate_requested':
      if (!isAtRest(state.status)) return state;
      return {
        ...state,
        status: 'generating',
        generationMode: action.mode,
        targetUrl: action.url,
        generationMessages: [],
        lastError: null,
      };
    case 'generate_aborted':
      return state.status === 'generating' ? { ...state, status: 'idle', generationMessages: [] } : state;
    case 'run_requested':
      return { ...state, pendingRun: action.run };
    case 'run_aborted':
      return { ...state, pendingRun: null, runNotice: null };
    case 'server':
      return concernsAutomation(state, action.message) ? onServerMessage(state, action.message) : state;
    case 'socket_closed':
      return {
        ...state,
        status: nextStatus(state.status, 'socket_closed'),
        currentTest: null,
        activeTests: [],
        pendingRun: null,
        runNotice: null,
        generationMessages: [],
      };
    case 'restore':
      if (state.status !== 'idle' || state.testCases.length > 0) return state;
      return {
        ...state,
        generationMode: action.mode,
        targetUrl: action.targetUrl,
        testCases: action.testCases,
        engine: action.engine,
        generationUsage: action.generationUsage,
        commandCoverage: action.commandCoverage ?? null,
        exploration: action.exploration ?? null,
        runEngine: action.runEngine,
        runUsage: action.runUsage,
        testRunId: action.testRunId,
        results: action.results,
      };
    case 'add_custom_case':
      if (isBusy(state.status)) return state;
      return {
        ...state,
        testCases: [...state.testCases, action.testCase],
        // The page of the cases there are; with none left, the page of this one.
        targetUrl: state.testCases.length > 0 ? (state.targetUrl ?? action.targetUrl) : action.targetUrl,
      };
    case 'remove_case':
      if (isBusy(state.status)) return state;
      return {
        ...state,
        testCases: state.testCases.filter((c) => c.test_name !== action.testName),
        results: state.results.filter((r) => r.testName !== action.testName),
      };
    case 'screenshot_links': {
      const screenshots = withFreshLinks(state.screenshots, action.refs);
      return screenshots === state.screenshots ? state : { ...state, screenshots };
    }
    case 'clear_results':
      return {
        ...state,
        log: [],
        screenshots: [],
        results: [],
        progress: { current: 0, total: 0 },
        runTime: null,
        outcome: null,
        runEngine: null,
        runUsage: null,
        lastError: null,
        status: state.status === 'completed' || state.status === 'failed' ? 'idle' : state.status,
      };
  }
}

/** A tiny store, so a message handler always reads the state the last message left. */
export interface AutomationStore {
  getState: () => AutomationState;
  dispatch: (action: AutomationAction) => AutomationState;
  subscribe: (listener: () => void) => () => void;
  /** Drops a pending deferred notification (on unmount). */
  dispose: () => void;
}

export interface AutomationStoreOptions {
  /**
   * Server messages come in bursts (two tests' steps, each with a screenshot): listeners hear of them
   * at most once per this many milliseconds, so the screen redraws once per burst. The state itself
   * is always current. 0 (the default) notifies at once. The user's own actions always notify at once.
   */
  serverBatchMs?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export function createAutomationStore(
  initial: AutomationState = initialAutomationState,
  options: AutomationStoreOptions = {},
): AutomationStore {
  const batchMs = options.serverBatchMs ?? 0;
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer =
    options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let state = initial;
  let timer: unknown = null;
  const listeners = new Set<() => void>();

  const notify = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
    for (const listener of listeners) listener();
  };

  return {
    getState: () => state,
    dispatch: (action) => {
      const next = automationReducer(state, action);
      if (next === state) return state;
      state = next;
      if (action.type === 'server' && batchMs > 0) {
        timer ??= setTimer(notify, batchMs);
      } else {
        notify();
      }
      return state;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: () => {
      if (timer !== null) clearTimer(timer);
      timer = null;
    },
  };
}
