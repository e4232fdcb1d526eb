import type { SavedSuite, TestCase } from '@argus/protocol';
import { AppError } from '../errors';
import type { Send } from '../realtime/user-channel';
import { withVisualCheckAtEnd } from '../visual/visual-each-case';
import type { Actor, AutomationDeps, RunTrigger } from './automation-deps';
import type { ProjectTarget, ProjectTargets } from './project-target';
import type { RunControl } from './run-control';
import { savedRunName } from './run-origin';
import type { StartRun } from './run-request';

/** Which saved suite runs, on which of its project's environments (the default when none is named). */
export interface SavedRunIds {
  project_id: string;
  suite_id: string;
  environment_id?: string | null;
  trigger?: RunTrigger;
  /** The branch its visual checks compare on first ('' or absent: the default branch). */
  branch?: string;
}

/** Where a saved suite's run records: its run row and the environment it runs on. */
export interface SavedRun {
  test_run_id: string;
  environment_id: string;
  environment_name: string;
}

/**
 * The cases a run of the suite carries out: its own, each ending with `Verify the page looks as
 * approved` when the suite has a visual check after every case (docs/VISUAL-CHECKS.md). The suite
 * itself is not changed.
 */
function casesToRun(suite: SavedSuite): TestCase[] {
  return suite.visual_each_case ? withVisualCheckAtEnd(suite.test_cases) : suite.test_cases;
}

/**
 * A project's saved suites, run on one of its environments: the suite's relative URLs resolve against
 * the environment's base URL. The run itself is the automation screen's (`start`).
 */
export class SavedSuiteRuns {
  constructor(
    private readonly deps: AutomationDeps,
    private readonly start: StartRun,
  ) {}

  /**
   * Runs the suite; answers once the run is recorded (its row is made first, pending, so a run that
   * waits its turn has its id at once). `done` settles after the project is told it is over.
   */
  async run(
    actor: Actor,
    ids: SavedRunIds & {
      /** A run row made for it already (`prepare`), which it records into. */
      test_run_id?: string | null;
    },
    send: Send,
    control?: RunControl,
  ): Promise<SavedRun & { done: Promise<void> }> {
    const ownerId = actor.orgId;
    const { suite, environment } = await this.suiteOn(ownerId, ids);
    const rowId = ids.test_run_id ?? (await this.prepare(actor, ids)).test_run_id;
    const started = this.start(
      actor,
      {
        url: environment.base_url,
        test_cases: casesToRun(suite),
        test_mode: 'full',
        project_id: ids.project_id,
        environment_id: environment.id,
        suite: { id: suite.id, version: suite.version, name: suite.name },
        trigger: ids.trigger,
        retries: suite.retries,
        recording: suite.recording,
        branch: ids.branch ?? '',
        test_run_id: rowId,
      },
      send,
      control,
    );
    // A run refused before it starts leaves no pending row behind it.
    const { done } = await started.catch(async (error: unknown) => {
      if (!ids.test_run_id) await this.deps.recorder.failed(ownerId, rowId);
      throw error;
    });
    // Recorded into the row made above, once its turn comes.
    const id = rowId;
    return {
      test_run_id: id,
      environment_id: environment.id,
      environment_name: environment.name,
      done: this.finished(ownerId, id, done),
    };
  }

  /**
   * The run row of a saved suite's run, made before the run starts (pending), with what the run will
   * record: a run queued to start later is answered with its id at once, and records into it when it
   * starts (`run` with `test_run_id`).
   */
  async prepare(actor: Actor, ids: SavedRunIds): Promise<SavedRun> {
    const { suite, environment } = await this.suiteOn(actor.orgId, ids);
    const id = await this.deps.recorder.prepare(actor.orgId, {
      // A schedule's run is started by no one.
      started_by: ids.trigger === 'schedule' ? null : actor.userId,
      url: environment.base_url,
      target_url: environment.base_url,
      test_suite_name: savedRunName(suite, environment.name),
      test_cases: casesToRun(suite),
      trigger: ids.trigger ?? 'screen',
      project_id: ids.project_id,
      environment_id: environment.id,
      environment_name: environment.name,
      suite_id: suite.id,
      suite_version: suite.version,
      branch: ids.branch || null,
    });
    return { test_run_id: id, environment_id: environment.id, environment_name: environment.name };
  }

  /** The user's suite and the environment it runs on (refused when either is not theirs). */
  private async suiteOn(
    userId: string,
    ids: SavedRunIds,
  ): Promise<{ suite: SavedSuite; environment: ProjectTarget['environment'] }> {
    const projects: ProjectTargets | undefined = this.deps.projects;
    if (!projects) throw new AppError('NOT_IMPLEMENTED', 'Projects are not available on this server');
    const suite = await projects.getSuite(userId, ids.project_id, ids.suite_id);
    const { environment } = await projects.target(userId, ids.project_id, ids.environment_id);
    return { suite, environment };
  }

  /** `done`, after the project is told the run is over (`savedRunFinished`); its failure is only logged. */
  private finished(userId: string, runId: string, done: Promise<void>): Promise<void> {
    const { savedRunFinished, log } = this.deps;
    if (!savedRunFinished) return done;
    return done.finally(() =>
      savedRunFinished(userId, runId).catch((error: unknown) =>
        log.error({ err: error, runId }, 'after a saved suite run'),
      ),
    );
  }
}
