import { featureOf, type ServerMessage, type TestCase, type TestMode } from '@argus/protocol';
import type { ExecutionStatus, RunOutcome } from './execution';
import type { KeptWork, RestoredWork } from './kept-work';
import type { ScreenshotItem } from './screenshots';
import type { LogEntry } from './step-log';

/** What the user last asked to run, so execution_started knows what to clear. */
export type PendingRun = { kind: 'all' } | { kind: 'single'; testName: string };

/** The automation screen's state: the kept work (kept-work.ts) and what a live run shows beside it. */
export interface AutomationState extends KeptWork {
  /**
   * The session whose work this screen follows (the one its requests name, or the one of work it
   * joined): messages about other sessions, like other features' messages, are not this screen's.
   */
  sessionId: string | null;
  status: ExecutionStatus;
  /** The mode of the last generation request (for its toast and the cases' label). */
  generationMode: TestMode | null;
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
  | ({ type: 'restore'; mode: TestMode; targetUrl: string } & RestoredWork);

/** Generation messages shown at once (the latest). */
export const MAX_GENERATION_MESSAGES = 6;

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
