import { DEFAULT_RECORDING, type RecordingSettings, type TestCase } from '@argus/protocol';
import { AppError } from '../errors';
import { checkRunSize } from '../limits/quotas';
import type { Send } from '../realtime/user-channel';
import type { RunRecorder, ScreenshotStorage } from '../runs/run-recorder';
import type { Actor, AutomationDeps, RunTrigger } from './automation-deps';
import type { AutomationWork } from './automation-progress';
import { type WorkTarget, workTarget } from './project-target';
import type { RunControl } from './run-control';

/** run_all_tests and run_single_test: the same execution, over one case or many. */
export interface RunData {
  url: string;
  test_cases: TestCase[];
  test_mode: 'full' | 'command';
  command?: string | null;
  session_id?: string | null;
  test_run_id?: string | null;
  project_id?: string | null;
  environment_id?: string | null;
  /** A saved suite's run: which suite and version it ran (recorded with the run). */
  suite?: { id: string; version: number; name: string } | null;
  /** @default 'screen' */
  trigger?: RunTrigger;
  /** How many times a failed case runs again (docs/HISTORY.md#retries). @default 0 */
  retries?: number;
  /** Which cases keep a trace and a video (a saved suite's setting). @default DEFAULT_RECORDING */
  recording?: RecordingSettings;
  /** The branch its visual checks compare on first (docs/VISUAL-CHECKS.md#branches). @default '' (the default branch) */
  branch?: string;
}

/** A started run: `done` settles when it is over; `runId` once it is recorded (null if it never is). */
export interface StartedRun {
  done: Promise<void>;
  runId: Promise<string | null>;
}

/** Starts a run (`AutomationService.run`), for the saved suites' runs to go through. */
export type StartRun = (actor: Actor, data: RunData, send: Send, control?: RunControl) => Promise<StartedRun>;

/** A run's request once checked: everything the run needs that was read before it started. */
export interface RunRequest {
  /** Who asked (their session, their model settings). */
  userId: string;
  /** The organization the run's records belong to (`work.ownerId`). */
  ownerId: string;
  data: RunData;
  cases: TestCase[];
  work: AutomationWork;
  /** The project environment it runs on, or null for a bare URL. */
  target: WorkTarget | null;
  /** The run row `test_run_id` names (the user's), which the run records into. */
  named: Awaited<ReturnType<RunRecorder['ownRun']>> | undefined;
  /** A run stores a screenshot per step: once the quota is used up, runs wait for room to be made. */
  storage: ScreenshotStorage;
  /** Runs of a case at most: the first and its retries. */
  maxAttempts: number;
  /** Which of its cases keep a trace and a video (docs/DIAGNOSTICS.md). */
  recording: RecordingSettings;
  /** The named run is resumed (`RunControl.resume`): `already` holds what it recorded before. */
  resuming: boolean;
  /** The cases a resumed run recorded before, by name, with their verdicts (empty otherwise). */
  already: Map<string, string>;
}

/**
 * Checks a run before anything starts (an AppError, and nothing starts): its size, and that the
 * session, project and run it names are the user's, so a run is never recorded against another
 * user's records; then reads what it resumes from.
 */
export async function checkRun(
  deps: AutomationDeps,
  { userId, orgId: ownerId }: Actor,
  data: RunData,
  control: RunControl,
): Promise<RunRequest> {
  const { recorder, config } = deps;
  if (data.test_cases.length === 0) throw new AppError('BAD_REQUEST', 'No test cases to run');
  checkRunSize(data.test_cases, config);
  await recorder.checkSession(userId, data.session_id);
  const target = await workTarget(deps.projects, ownerId, data, data.url);
  const named = data.test_run_id ? await recorder.ownRun(ownerId, data.test_run_id) : undefined;
  const storage = await recorder.openStorage(ownerId);
  const cases = data.test_cases;
  const work: AutomationWork = {
    ownerId,
    url: data.url,
    test_mode: data.test_mode,
    command: data.command ?? null,
    session_id: data.session_id ?? null,
    test_cases: cases,
  };
  const resuming = Boolean(control.resume && named);
  const already =
    resuming && named ? await recorder.recordedCases(ownerId, named.id) : new Map<string, string>();
  const maxAttempts = 1 + Math.max(0, Math.floor(data.retries ?? 0));
  const recording = data.recording ?? DEFAULT_RECORDING;
  return {
    userId,
    ownerId,
    data,
    cases,
    work,
    target,
    named,
    storage,
    maxAttempts,
    recording,
    resuming,
    already,
  };
}
