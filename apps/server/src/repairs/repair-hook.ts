import type { LastPassingRow, NewCaseRepair } from '@argus/db';
import {
  proposeRepair,
  type Rename,
  type RepairCaseRunner,
  type RepairOutcome,
  type RepairRequest,
  type TestOutcome,
} from '@argus/engine';
import { diffSteps, ElementKeySchema, type TestCase } from '@argus/protocol';
import type { CaseEnd } from '../automation/automation-messages';
import type { CaseContext } from '../automation/run-context';
import { loginSecrets } from '../diagnostics/login-secrets';
import { sameSteps } from './approval';
import type { RepairStore } from './repair-store';
import { suiteRenames } from './suite-renames';

export type { RepairStore };

/** The engine's proposer, as the hook calls it (a test hands its own). */
export type ProposeRepair = typeof proposeRepair;

export type SavedSuite = NonNullable<CaseContext['request']['data']['suite']>;

/**
 * A case of the run labelled a bug, as the second pass (second-pass.ts) tries it again: its place in
 * the run, how it ended, the renames its try knew, and its stored row.
 */
export interface TriedBug {
  index: number;
  end: CaseEnd;
  renames: Rename[];
  repairId: string;
}

/**
 * After a case of a saved suite's run failed for good (its retries spent, the run not stopped), its
 * verdict (docs/REPAIRS.md): the engine proposes a repair proved on the current app, or labels it a
 * bug; the verdict is stored and said on the run. Called in the case's lane once its result is
 * recorded, so the live view never waits for it, and before the lane takes its next case. A repair
 * that fails is logged and leaves no row: it never fails the run. A case labelled a bug is answered
 * (`TriedBug`), for the run's second pass to try again should the suite learn a rename meanwhile.
 */
export async function repairFailedCase(
  ctx: CaseContext,
  index: number,
  end: CaseEnd,
  propose: ProposeRepair = proposeRepair,
): Promise<TriedBug | undefined> {
  const { deps, request, activity, runId } = ctx;
  const suite = request.data.suite;
  const store = deps.repairs;
  const { outcome, testCase } = end;
  if (!suite || !store || !request.data.project_id) return;
  if (outcome.status === 'passed' || !outcome.failure || activity.signal.aborted) return;
  try {
    const last = await store.lastPassing(request.ownerId, suite.id, testCase.test_name);
    const repairRequest = await requestOf(ctx, store, suite, end, last);
    const verdict = await propose(repairRequest, proposeOptions(ctx));
    // A verdict reached while the run was being stopped is not kept: the run ended without it.
    if (activity.signal.aborted) return;
    if (verdict.verdict !== 'bug' && sameSteps(verdict.after, testCase.steps)) {
      // The case passed again as it is: the failure did not come from a change of the app, and there
      // is nothing to review.
      await sayUnchanged(ctx, testCase.test_name);
      return;
    }
    const row = await rowOf(ctx, store, { suite, index, testCase, last }, verdict);
    const stored = await store.add(request.ownerId, row);
    await say(ctx, testCase.test_name, verdict);
    if (verdict.verdict === 'bug') {
      return { index, end, renames: repairRequest.renames ?? [], repairId: stored.id };
    }
  } catch (error) {
    // Stopped mid-repair: the run ended without it, nothing went wrong.
    if (activity.signal.aborted) return;
    deps.log.warn({ err: error, runId, case: testCase.test_name }, 'a repair could not be made');
  }
}

/** How the hook asks the engine: the run's own runner, its signal, its engine's proposer. */
export function proposeOptions(ctx: CaseContext): Parameters<ProposeRepair>[1] {
  return { run: runnerOf(ctx), signal: ctx.activity.signal, proposer: ctx.engine.repairProposer };
}

/**
 * The failed case as the engine takes it: its failure, its last passing evidence, its rejected
 * repairs, and the renames the suite's repairs proposed or approved so far taught (`renames`, when the
 * caller read them already).
 */
export async function requestOf(
  ctx: CaseContext,
  store: RepairStore,
  suite: SavedSuite,
  { testCase, outcome }: CaseEnd,
  last: LastPassingRow | undefined,
  renames?: Rename[],
): Promise<RepairRequest> {
  const { ownerId } = ctx.request;
  const [rejected, learnt] = await Promise.all([
    store.rejected(ownerId, suite.id, testCase.test_name),
    renames ?? suiteRenames(store, ownerId, suite.id),
  ]);
  const failure = outcome.failure as NonNullable<TestOutcome['failure']>;
  return {
    testCase,
    failure,
    error: outcome.error ?? 'Test failed',
    lastPassing: last ? { steps: passingSteps(testCase.steps, last.steps) } : null,
    rejected,
    renames: learnt,
  };
}

/** A stored step as the runner reported it (StepUpdate's fields read here). */
interface StoredStep {
  step_index?: unknown;
  description?: unknown;
  selector?: unknown;
  url?: unknown;
  element?: unknown;
}

/**
 * How far the runner's step numbers are from the case's own: the runner puts a `Navigate to <start>`
 * before a case whose first step does not navigate, so its steps are one further on.
 */
export function stepOffset(caseSteps: string[], stored: unknown[]): number {
  const first = caseSteps[0]?.trim();
  const described = (i: number) => {
    const step = stored[i] as StoredStep | undefined;
    return typeof step?.description === 'string' ? step.description.trim() : undefined;
  };
  if (first !== undefined && described(0) === first) return 0;
  if (first !== undefined && described(1) === first) return 1;
  return stored.length > caseSteps.length ? 1 : 0;
}

/** The last passing result's steps by the case's own step index: the selector that matched and the URL. */
export function passingSteps(
  caseSteps: string[],
  stored: unknown[],
): NonNullable<RepairRequest['lastPassing']>['steps'] {
  const offset = stepOffset(caseSteps, stored);
  return stored.flatMap((raw, i) => {
    const step = raw as StoredStep;
    const index = (typeof step.step_index === 'number' ? step.step_index : i) - offset;
    if (index < 0 || index >= caseSteps.length) return [];
    return [
      {
        index,
        selector: typeof step.selector === 'string' ? step.selector : null,
        url: typeof step.url === 'string' ? step.url : null,
        element: ElementKeySchema.safeParse(step.element).data ?? null,
      },
    ];
  });
}

/**
 * The run's own executor for the engine's proofs: the run's base URL, timeouts, engine and secrets
 * (and, through ctx.runTest, its variables and signed-in sessions), keeping no trace or video.
 */
function runnerOf(ctx: CaseContext): RepairCaseRunner {
  const { deps, request, activity, engine } = ctx;
  return (testCase, options) =>
    ctx.runTest(testCase, {
      baseUrl: request.data.url,
      stepTimeoutMs: deps.config.stepTimeoutMs,
      testTimeoutMs: deps.config.testTimeoutMs,
      interpreter: engine.interpreter,
      extraSecrets: loginSecrets(request.target),
      ...options,
      signal: options.signal ?? activity.signal,
    });
}

/** The verdict as a row: the steps as saved and as repaired, their diff and both screenshots. */
export async function rowOf(
  ctx: CaseContext,
  store: RepairStore,
  {
    suite,
    index,
    testCase,
    last,
  }: { suite: SavedSuite; index: number; testCase: TestCase; last: LastPassingRow | undefined },
  verdict: RepairOutcome,
): Promise<NewCaseRepair> {
  const { request, runId } = ctx;
  const { ownerId } = request;
  const name = testCase.test_name;
  const before = testCase.steps;
  const common = {
    test_run_id: runId,
    project_id: request.data.project_id as string,
    suite_id: suite.id,
    suite_version: suite.version,
    case_name: name,
    case_index: index,
    result_id: await store.resultOf(ownerId, runId, name),
    steps_before: before,
    evidence: verdict.evidence,
    page_state: verdict.page_state,
    step_index: verdict.stepIndex,
  };
  if (verdict.verdict === 'bug') {
    return {
      ...common,
      verdict: 'bug',
      status: 'none',
      steps_after: [],
      diff: [],
      weakenings: [],
      before_screenshot_id: null,
      after_screenshot_id: null,
    };
  }
  const [beforeShot, afterShot] = await Promise.all([
    last ? passingScreenshot(ctx, store, last, testCase, verdict.stepIndex) : null,
    verdict.screenshot
      ? ctx.deps.recorder.saveScreenshot(
          ownerId,
          runId,
          name,
          { ...verdict.screenshot, step_name: `Repair proof: ${verdict.screenshot.step_name}` },
          request.storage,
        )
      : null,
  ]);
  return {
    ...common,
    verdict: verdict.verdict,
    status: 'proposed',
    steps_after: verdict.after,
    diff: diffSteps(before, verdict.after),
    weakenings: verdict.weakenings,
    before_screenshot_id: beforeShot,
    after_screenshot_id: afterShot?.id ?? null,
  };
}

/** The last passing run's screenshot of the repaired step (its id only), or null. */
function passingScreenshot(
  ctx: CaseContext,
  store: RepairStore,
  last: LastPassingRow,
  testCase: TestCase,
  stepIndex: number,
): Promise<string | null> {
  const { ownerId } = ctx.request;
  const offset = stepOffset(testCase.steps, last.steps);
  return store.stepScreenshot(ownerId, last.run_id, testCase.test_name, stepIndex + offset);
}

/** A proof that passed with the case's own steps, said on the run. */
async function sayUnchanged(ctx: CaseContext, name: string): Promise<void> {
  const line = `No repair for "${name}": it passed unchanged when run again (a flaky failure, not a change of the app)`;
  ctx.progress(line);
  await ctx.deps.recorder.note(ctx.request.ownerId, ctx.runId, line, 'warn');
}

/** The verdict said live on the run and kept in its log. */
export async function say(ctx: CaseContext, name: string, verdict: RepairOutcome): Promise<void> {
  const { summary } = verdict.evidence;
  const line =
    verdict.verdict === 'bug'
      ? `Looks like a bug: "${name}" — ${summary}`
      : `Repair proposed for "${name}"${verdict.verdict === 'weakens' ? ' (it weakens an assertion)' : ''}: ${summary}`;
  ctx.progress(line);
  await ctx.deps.recorder.note(
    ctx.request.ownerId,
    ctx.runId,
    line,
    verdict.verdict === 'bug' ? 'warn' : 'info',
  );
}
