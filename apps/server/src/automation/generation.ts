import { coverageOf, type GeneratedSuite, generateSuite, type SuiteBrowsers } from '@argus/ai';
import type { PageObservation } from '@argus/engine';
import type { ClientMessageOf, TestCase } from '@argus/protocol';
import type { Actor, AutomationActivity, AutomationDeps, Progress } from './automation-deps';
import type { AutomationMessages } from './automation-messages';
import type { AutomationWork } from './automation-progress';
import type { AutomationEngine } from './engines';
import { casesForTarget, type WorkTarget, workTarget } from './project-target';
import { originOf } from './run-origin';
import { signedInBrowsers } from './sign-in';

/** A generation's request, checked: what it explores, and the project environment it is on, if any. */
export interface GenerationRequest {
  /** Who asked (their session, their model settings). */
  userId: string;
  /** The organization the generated suite's run row belongs to. */
  ownerId: string;
  url: string;
  command: string | undefined;
  work: AutomationWork;
  target: WorkTarget | null;
}

/**
 * Checks a generation before anything starts: a session that is not the user's, or a project they do
 * not own, is refused here, so nothing is ever recorded against another user's records.
 */
export async function checkGeneration(
  deps: AutomationDeps,
  { userId, orgId: ownerId }: Actor,
  data: ClientMessageOf<'generate_test_cases'>['data'] & { command?: string },
): Promise<GenerationRequest> {
  await deps.recorder.checkSession(userId, data.session_id);
  const { url, command } = data;
  const target = await workTarget(deps.projects, ownerId, data, url);
  const work: AutomationWork = {
    ownerId,
    url,
    test_mode: command ? 'command' : 'full',
    command: command ?? null,
    session_id: data.session_id ?? null,
    test_cases: [],
  };
  return { userId, ownerId, url, command, work, target };
}

/**
 * The generation, as its activity's body: signs in (a wrong password fails here, before any model call
 * or exploring), drives generateSuite (@argus/ai, the pipeline the mutation test measures), and records
 * and hands out the cases. A Stop rejects the pipeline, and nothing is recorded.
 */
export async function generateCases(
  deps: AutomationDeps,
  request: GenerationRequest,
  activity: AutomationActivity,
  say: AutomationMessages,
): Promise<void> {
  const { userId, url, work, target } = request;
  const { signal, progress: view } = activity;
  const progress: Progress = (message) => {
    view.message(message);
    say.progress(message);
  };
  try {
    const signedIn = target
      ? await signedInBrowsers(
          deps,
          target,
          signal,
          progress,
          async (message) => say.failed('SIGN_IN_FAILED', message),
          activity.browsers,
        )
      : { browsers: deps.browsers, ownData: false };
    if (!signedIn) return;
    const engine = await deps.engineFor(userId, { session_id: work.session_id }, { redact: target?.redact });
    const started = `Exploring ${url} with the ${engine.planner.engine} engine${target?.plan ? `, signed in to ${target.label}` : ''}`;
    view.message(started);
    say.generationStarted(url, started);
    const suite = await explore(deps, request, engine, signedIn, activity, progress);
    const { cases: planned, notice } = suite;
    if (notice) progress(notice);
    if (planned.length === 0) {
      // Nothing unrelated is handed out: the user reads why, and how to get more.
      const why = notice ?? whyNoCases(url, suite.explored, suite.behaviours, engine.planner.engine);
      say.failed('GENERATION_FAILED', why);
      return;
    }
    await handOut(deps, request, suite, engine, say, progress);
  } catch (error) {
    if (signal.aborted) return;
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    deps.log.warn({ err: error, url }, 'generation failed');
    say.failed('GENERATION_FAILED', message);
  }
}

/** The pipeline the mutation test measures, over the browser work and planner given. */
function explore(
  { config }: AutomationDeps,
  { url, command, target }: GenerationRequest,
  { planner }: AutomationEngine,
  { browsers, ownData }: { browsers: SuiteBrowsers; ownData: boolean },
  { signal, browsers: concurrency }: AutomationActivity,
  progress: Progress,
): Promise<GeneratedSuite> {
  return generateSuite(browsers, url, {
    planner,
    command,
    signal,
    onProgress: progress,
    maxPages: config.exploreMaxPages,
    timeBudgetMs: config.exploreTimeBudgetMs,
    behaviour: {
      concurrency,
      maxActions: config.exploreBehaviourMaxActions,
      timeBudgetMs: config.exploreBehaviourTimeBudgetMs,
      // Signed in, the sessions work on the accounts' data on the server, left for the next run.
      sharedState: !!target?.plan,
      // With an account per lane, nothing else changes a session's data while it works.
      ownData,
    },
    // A case that fails on the app as it is never reaches the user's pipeline (docs/ARCHITECTURE.md).
    ...(config.generationCheckRuns > 0
      ? { check: { runs: config.generationCheckRuns, parallelism: concurrency } }
      : {}),
  });
}

/** Records the generated suite (a run waiting to be run) and hands its cases out. */
async function handOut(
  deps: AutomationDeps,
  { userId, ownerId, url, command, work, target }: GenerationRequest,
  suite: GeneratedSuite,
  { planner, usage }: AutomationEngine,
  say: AutomationMessages,
  progress: Progress,
): Promise<void> {
  const cases = withinRunLimits(deps, target ? casesForTarget(suite.cases, target) : suite.cases, progress);
  const run = await deps.recorder.create(ownerId, {
    started_by: userId,
    ...originOf(target),
    session_id: work.session_id,
    url,
    target_url: url,
    test_suite_name: command ? `Command: ${command.slice(0, 200)}` : `Full suite for ${new URL(url).host}`,
    test_mode: work.test_mode,
    command: work.command,
    engine: planner.engine,
    test_cases: cases,
    total_tests: cases.length,
    status: 'pending',
  });
  say.casesGenerated({
    test_cases: cases,
    engine: planner.engine,
    test_run_id: run.id,
    usage: usage?.(),
    ...(suite.exploration ? { exploration: suite.exploration } : {}),
    ...(suite.coverage ? { command_coverage: coverageOf(suite.coverage, cases) } : {}),
  });
}

/**
 * The cases a generation hands out, within MAX_STEPS_PER_CASE and MAX_CASES_PER_RUN, so they can be
 * run as they are; what was left out is said in the progress messages.
 */
function withinRunLimits({ config }: AutomationDeps, cases: TestCase[], progress: Progress): TestCase[] {
  const { maxCasesPerRun, maxStepsPerCase } = config;
  const fit = cases.filter((c) => c.steps.length <= maxStepsPerCase);
  const long = cases.length - fit.length;
  if (long > 0) {
    progress(
      `Left out ${long} test case${long === 1 ? '' : 's'} longer than ${maxStepsPerCase} steps (MAX_STEPS_PER_CASE)`,
    );
  }
  if (fit.length <= maxCasesPerRun) return fit;
  progress(`Kept the first ${maxCasesPerRun} of ${fit.length} test cases (MAX_CASES_PER_RUN)`);
  return fit.slice(0, maxCasesPerRun);
}

/**
 * Why a generation handed out nothing, when the planner did not say: what was explored, so the user
 * reads the real cause (nothing explored, an empty page, or the engine) rather than a verdict on the page.
 */
export function whyNoCases(
  url: string,
  pages: PageObservation[],
  behaviours: number,
  engine: string,
): string {
  if (pages.length === 0) {
    return `Nothing was explored at ${url}: no page could be read before the generation ended. Try again.`;
  }
  const [start] = pages;
  const none = (items: unknown[] | undefined) => !items?.length;
  const empty =
    pages.length === 1 &&
    none(start.headings) &&
    none(start.links) &&
    none(start.forms) &&
    none(start.buttons) &&
    none(start.listItems) &&
    none(start.tables);
  if (empty) {
    return `${start.url ?? url} opened but showed nothing to act on or check (no headings, links, forms, buttons, lists or tables), and it links to no other page.`;
  }
  const found = `${pages.length} page${pages.length === 1 ? '' : 's'} and ${behaviours} behaviour${behaviours === 1 ? '' : 's'}`;
  return `The ${engine} engine wrote no test cases from the ${found} explored at ${url}. Try again, or name what to test in a command.`;
}
