import type { SuiteBrowsers } from '@argus/ai';
import type { RunTestOptions, SessionOpener, TestOutcome } from '@argus/engine';
import type { TestCase } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Activity, ActivityRegistry } from '../activity/activity-registry';
import type { Config } from '../config';
import type { UserChannel } from '../realtime/user-channel';
import type { RepairStore } from '../repairs/repair-store';
import type { RunLine } from '../run-lines/run-line';
import type { RunRecorder } from '../runs/run-recorder';
import type { VisualStore } from '../visual/visual-store';
import type { AutomationProgress } from './automation-progress';
import type { EngineResolver } from './engines';
import type { ProjectTargets } from './project-target';

/** Explores what the app does by acting on it (the engine's `exploreBehaviours`, over the pool). */
export type BehaviourExplorer = NonNullable<SuiteBrowsers['exploreBehaviours']>;
/** Runs one test case in a browser context of its own (the engine's `runTestCase`, over the pool). */
export type TestExecutor = (testCase: TestCase, options: RunTestOptions) => Promise<TestOutcome>;

/** What a piece of automation work is, in the activity registry. */
export type AutomationKind = 'generating' | 'running';
export type AutomationActivity = Activity<AutomationProgress, AutomationKind>;

/** A progress line of the work: kept for a tab that connects later, and said to the user's sockets. */
export type Progress = (message: string) => void;

export interface AutomationDeps {
  config: Pick<
    Config,
    | 'exploreMaxPages'
    | 'exploreTimeBudgetMs'
    | 'exploreBehaviourMaxActions'
    | 'exploreBehaviourTimeBudgetMs'
    | 'generationCheckRuns'
    | 'automationParallelism'
    | 'maxBrowsersPerUser'
    | 'stepTimeoutMs'
    | 'testTimeoutMs'
    | 'maxCasesPerRun'
    | 'maxStepsPerCase'
  >;
  /** What is under way per user (any number of runs and generations, each with the browsers it holds). */
  activities: ActivityRegistry;
  /**
   * Where runs and generations wait their turn: ORG_MAX_CONCURRENT_RUNS per organization, the
   * server's MAX_BROWSERS in all, organizations' lines taking turns (run-lines/run-line.ts).
   */
  line: RunLine;
  /** Writes the runs, results, logs and screenshots as they happen. */
  recorder: RunRecorder;
  /**
   * The browser work of a generation: explore the pages, act on the app to find behaviours (none are
   * looked for without it), and a JPEG of the start page for models that read images.
   */
  browsers: SuiteBrowsers;
  runTest: TestExecutor;
  /** The planner and step interpreter a user's work runs on (their Settings, the server's AI_*, or built-in). */
  engineFor: EngineResolver;
  log: FastifyBaseLogger;
  /**
   * The browser pool, for work on a project environment: its login signs in through it, and that
   * work's exploring and tests then open sessions signed in (docs/PROJECTS.md#sites-behind-a-login).
   */
  sessions?: SessionOpener;
  /** Where a watched run's frames go (`watchSession`): the user's sockets, here or through Redis. */
  channel?: Pick<UserChannel, 'sendFrame'>;
  /** Project environments; without it, work that names a project is refused. */
  projects?: ProjectTargets;
  /**
   * Told when a saved suite's run is over, whoever started it (screen, API, schedule): the project's
   * notifications go out from here. Its failures are logged, never the run's.
   */
  savedRunFinished?: (userId: string, runId: string) => Promise<void>;
  /** Where a saved suite's failed cases' repair verdicts go (docs/REPAIRS.md); none: no repairs are made. */
  repairs?: RepairStore;
  /**
   * Where a project run's visual checks compare with their baselines and are kept for review
   * (docs/VISUAL-CHECKS.md); none, or a run on no project: a visual check's step fails, unchecked.
   */
  visual?: VisualStore;
}

/**
 * Who asks for the work: the user it runs as, and the organization whose line it waits in (over HTTP
 * `currentOrg(request).id`; on the socket, for now, the user's personal organization, whose id is theirs).
 */
export interface Actor {
  userId: string;
  orgId: string;
}

/** Who or what started a run (recorded with it): the screens, the API (a token, the CLI), a schedule. */
export type RunTrigger = 'screen' | 'api' | 'schedule';
