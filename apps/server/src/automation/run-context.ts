import type { InterpreterUsage, QueuePositions } from '@argus/engine';
import type { RunVisuals } from '../visual/run-visuals';
import type { AutomationActivity, AutomationDeps, Progress, TestExecutor } from './automation-deps';
import type { AutomationMessages } from './automation-messages';
import type { AutomationVideo } from './automation-video';
import type { AutomationEngine } from './engines';
import type { RunControl } from './run-control';
import type { RunRequest } from './run-request';

/** One run under way, as each of its jobs (start, cases, end) works on it. */
export interface RunContext {
  deps: AutomationDeps;
  request: RunRequest;
  /** The test run it records into. */
  runId: string;
  activity: AutomationActivity;
  say: AutomationMessages;
  control: RunControl;
  /** A progress line, kept for a late tab and said to the user's sockets. */
  progress: Progress;
}

/** What the run's cases run with, once the run has signed in and has its engine. */
export interface CaseContext extends RunContext {
  runTest: TestExecutor;
  engine: AutomationEngine;
  /** The model calls of every attempt so far, added up as each ends. */
  usage: InterpreterUsage;
  video: AutomationVideo;
  /** While its tests wait for browsers (MAX_BROWSERS, shared by every user), the run says its place in line. */
  line: QueuePositions;
  /** A project run's visual checks (null: the run keeps no baselines). */
  visuals: RunVisuals | null;
}
