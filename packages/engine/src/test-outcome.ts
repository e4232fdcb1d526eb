import type {
  CaseDiagnostics,
  CaseFailure,
  RecordingSettings,
  StepUpdate,
  VisualCheckOutcome,
} from '@argus/protocol';
import type { BrowserSession } from './browser-session';
import type { SessionRenewal } from './session-renewal';
import type { InterpreterUsage, StepInterpreter } from './step-interpreter';
import type { StepVariables } from './variables';
import type { VisualChecks } from './visual/visual-checks';

// What `runTestCase` (test-runner.ts) is given and answers: a case's run options and its outcome.

export interface CapturedScreenshot {
  step_index: number;
  step_name: string;
  /** JPEG bytes. */
  data: Buffer;
  width: number;
  height: number;
}

export interface LogEntry {
  timestamp: string;
  level: 'info' | 'warn' | 'error';
  message: string;
}

export interface TestOutcome {
  status: 'passed' | 'failed';
  error: string | null;
  /** Seconds. */
  executionTime: number;
  steps: StepUpdate[];
  screenshots: CapturedScreenshot[];
  logs: LogEntry[];
  /** Model calls the case's interpreted steps and judgement made (zero without an interpreter). */
  usage: InterpreterUsage;
  /**
   * What `recording` kept of this attempt (docs/DIAGNOSTICS.md): its Playwright trace (a zip, every
   * secret value already replaced by `{{NAME}}`) and its video (webm). Absent: nothing kept.
   */
  recorded?: RecordedFiles;
  /** Its console messages, page errors and requests, aligned with its steps (always collected). */
  diagnostics?: CaseDiagnostics;
  /**
   * Why it failed, labelled with its evidence; absent when it passed. This attempt's alone: `timing`
   * for a case that passed on a retry is the caller's to give.
   */
  failure?: CaseFailure;
  /**
   * Its visual checks (`Verify … looks as approved`), in order: `same`, or `changed` and `new` for
   * review (neither fails the case). Always set by `runTestCase` (empty when none).
   */
  visualChecks?: VisualCheckOutcome[];
}

/** The files one attempt kept. */
export interface RecordedFiles {
  trace?: Buffer;
  video?: Buffer;
}

export interface RunTestOptions {
  /** Resolves relative `Navigate to` targets; the first page when the case names none. */
  baseUrl: string;
  signal?: AbortSignal;
  /** Each step is reported twice: `pending` when it starts, then `success` or `error` with a screenshot. */
  onStep?: (update: StepUpdate, screenshot?: CapturedScreenshot) => void;
  /** @default 10000 */
  stepTimeoutMs?: number;
  /** @default 90000 */
  testTimeoutMs?: number;
  /** JPEG after every step. @default true */
  screenshots?: boolean;
  /** @default 1280x800 */
  viewport?: { width: number; height: number };
  /**
   * The LLM engine: carries out lines the step language does not parse (instead of failing them) and
   * judges the case's expected result once its steps have passed. Without it, such a line fails the
   * case with the grammar's message before a browser opens.
   */
  interpreter?: StepInterpreter;
  /** Time a free-form step may take, model calls included. @default 120000 */
  freeFormTimeoutMs?: number;
  /**
   * The test's browser session once it has one (to watch it: a screencast of the test in focus). The
   * runner still owns it: it closes when the test ends, whatever the caller started on it.
   */
  onSession?: (session: BrowserSession) => void;
  /** Told the test's place in line while it waits for a free browser (the pool's `onQueued`). */
  onQueued?: (position: number) => void;
  /** The project environment's `{{NAME}}` values; secrets are hidden again in everything reported. */
  variables?: StepVariables;
  /** A signed-in run: how to tell that the session expired and sign in again (once per test). */
  renewal?: SessionRenewal;
  /**
   * Record a Playwright trace (and, when `video`, a video) of the attempt; kept in the outcome per
   * the policy (`on-failure`: only when it failed). Absent: nothing recorded.
   */
  recording?: RecordingSettings;
  /**
   * Values to remove from the trace besides the variables' secrets (a login's password, its TOTP
   * codes): replaced by `{{NAME}}`.
   */
  extraSecrets?: () => Record<string, string>;
  /**
   * Called once the case is over, its session still open (the page as its last step left it), before
   * the browser closes: a repair explores the page there (docs/REPAIRS.md). Its errors are ignored.
   */
  atEnd?: (session: BrowserSession, outcome: TestOutcome) => Promise<void>;
  /** The port visual checks are made through (visual/visual-checks.ts); without it such a step fails. */
  visual?: VisualChecks;
}
