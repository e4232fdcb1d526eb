import { BUILTIN_ENGINE, runTestCase, type SignInError } from '@argus/engine';
import { type RunVisuals, runVisuals } from '../visual/run-visuals';
import type { AutomationDeps, TestExecutor } from './automation-deps';
import { type AutomationEngine, BUILTIN_AUTOMATION_ENGINE } from './engines';
import type { RunContext } from './run-context';
import { originOf, savedRunName } from './run-origin';
import type { RunRequest } from './run-request';
import { signIn } from './sign-in';

/** Records the run as started: into the row it names (kept as it was when resumed), or a new one. */
export function recordRun({ recorder }: AutomationDeps, request: RunRequest): Promise<string> {
  const { userId, ownerId, data, cases, work, target, named, resuming } = request;
  const name = data.suite
    ? savedRunName(data.suite, target?.environment.name)
    : cases.length === 1
      ? cases[0].test_name
      : `Suite for ${new URL(data.url).host}`;
  return recorder.start(
    ownerId,
    named,
    {
      test_cases: cases,
      test_mode: work.test_mode,
      command: work.command,
      ...originOf(target, data.suite),
    },
    {
      session_id: work.session_id,
      url: data.url,
      target_url: data.url,
      test_suite_name: name,
      engine: BUILTIN_ENGINE,
      trigger: data.trigger ?? 'screen',
      branch: data.branch || null,
      // A schedule's run is started by no one.
      started_by: data.trigger === 'schedule' ? null : userId,
    },
    resuming,
  );
}

/**
 * Everything before the first case: what the run's log says of where it runs, the sign-in, the engine
 * its steps use, and `execution_started`. Null when signing in failed (the run is over, said so).
 */
export async function prepareRun(
  ctx: RunContext,
): Promise<{ runTest: TestExecutor; engine: AutomationEngine } | null> {
  const { deps, request, runId, say, control, progress } = ctx;
  const { recorder } = deps;
  const { ownerId, target, cases } = request;
  if (request.resuming) {
    const notice = control.resumedNotice(request.already.size, cases.length);
    progress(notice.progress);
    await recorder.note(ownerId, runId, notice.note, 'warn');
  }
  if (target)
    await recorder.note(ownerId, runId, `Environment: ${target.label} (${target.environment.base_url})`);
  const runTest = await executorFor(ctx);
  if (!runTest) return null;
  const engine = await runEngine(ctx);
  await recorder.note(ownerId, runId, `Steps run by: ${engine.runEngine}`);
  say.executionStarted(cases.length, runId, engine.runEngine);
  return { runTest, engine };
}

/**
 * How the run's tests run: on a project environment, in sessions that start signed in, one lane per
 * browser the run holds, each lane signed in on its own (the first before any test: a wrong password
 * fails the run here, with what the page showed); else the pool's executor. Null when signing in failed.
 */
async function executorFor({ deps, request, runId, activity, say, progress }: RunContext) {
  const { ownerId, target } = request;
  if (!target) return deps.runTest;
  const { recorder } = deps;
  const failed = async (message: string, error: SignInError) => {
    await recorder.note(ownerId, runId, message, 'warn');
    if (error.screenshot) {
      const shot = { step_index: 0, step_name: 'Sign in', ...error.screenshot };
      await recorder.saveScreenshot(ownerId, runId, 'Sign in', shot, request.storage).catch(() => null);
    }
    await recorder.failed(ownerId, runId);
    say.failed('SIGN_IN_FAILED', message);
  };
  // Each lane's sign-in and its cost go into the run's log (a lane signs in as its first case starts).
  const note = (line: string, level: 'info' | 'warn' = 'info') => {
    recorder.note(ownerId, runId, line, level).catch((err) => deps.log.warn({ err }, 'run note not kept'));
  };
  const sessions = await signIn(deps, target, activity.signal, progress, failed, {
    lanes: activity.browsers,
    note,
  });
  if (!sessions) return null;
  const runTest: TestExecutor = (testCase, options) =>
    runTestCase(sessions, testCase, {
      ...options,
      variables: target.variables,
      renewal: sessions.renewal,
      viewport: target.viewport,
    });
  return runTest;
}

/**
 * The engine a run's steps use. A model the user's Settings name that cannot be used as it stands
 * (no model named, a base URL now refused) does not stop a run of step-language lines: it runs on
 * the built-in engine, and the user reads why free-form steps will fail.
 */
async function runEngine({ deps, request, runId, say }: RunContext): Promise<AutomationEngine> {
  const { userId, ownerId, work, target } = request;
  try {
    return await deps.engineFor(
      userId,
      { session_id: work.session_id, test_run_id: runId },
      { redact: target?.redact },
    );
  } catch (error) {
    const message = `The model in your Settings cannot be used (${error instanceof Error ? error.message : String(error)}); this run uses the built-in engine, so free-form steps fail and expected results are not judged.`;
    say.progress(message);
    await deps.recorder.note(ownerId, runId, message, 'warn');
    return BUILTIN_AUTOMATION_ENGINE;
  }
}

/**
 * A project run's visual checks (docs/VISUAL-CHECKS.md), kept under its project, environment and
 * branch; null for a run on a bare URL, which has nowhere to keep a baseline.
 */
export function visualsOf(deps: AutomationDeps, request: RunRequest, runId: string): RunVisuals | null {
  const { target } = request;
  if (!deps.visual || !target) return null;
  return runVisuals(deps.visual, {
    ownerId: request.ownerId,
    runId,
    projectId: target.project.id,
    environmentId: target.environment.id,
    branch: request.data.branch ?? '',
    hide: target.redact,
  });
}
