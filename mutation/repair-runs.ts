/**
 * The repairs check (README "Repairs on a redesign", issue 39): a suite generated on an app's original
 * design, run on its redesign (labels, markup and layout changed, behaviour not:
 * fixtures/apps/README.md#redesigns), repaired by `proposeRepair`, and measured:
 *
 * 1. Generate on the original (as the mutation test does) and run the suite once on a fresh original:
 *    the cases that pass there are the ones that say anything, and their step evidence is the "last
 *    passing run" a repair reads.
 * 2. Run it on a fresh redesign: each trusted case that fails is handed to `proposeRepair` with the
 *    run's executor over the redesign (as the server's hook does); the verdicts are counted.
 * 3. Apply the proposals (verdict `repair`) and run the repaired suite twice on a fresh redesign: a
 *    failure of a case that was repaired or passed unrepaired is a false failure.
 * 4. Each planted bug on the original, every trusted case run: the bugs the original suite catches
 *    (the score before), and every failure handed to `proposeRepair` on that bugged original: each
 *    must be labelled a bug (no repair of what the bug broke).
 * 5. Each planted bug on the redesign: the bugs the repaired suite catches (the score after).
 */
import { BuiltinPlanner, generateSuite, poolBrowsers } from '@argus/ai';
import {
  type BrowserPool,
  type RepairCaseRunner,
  type RepairOutcome,
  type RepairRequest,
  runTestCase,
  SignInLanes,
  type TestOutcome,
} from '@argus/engine';
import type { StepUpdate, TestCase } from '@argus/protocol';
import { inParallel } from '../fixtures/apps/bug-proofs';
import { serveFixtureApp } from '../fixtures/apps/serve';
import { BUGS, type FixtureApp, LOGINS } from './mutation-score';
import { type AppSessions, appSessions, rebaseCases, runSuite } from './suite-runs';

/** A failed case and the engine's verdict on it. */
export interface CaseVerdict {
  test: string;
  error: string | null;
  failure: string;
  /** The step that failed, as the run described it. */
  step: string | null;
  verdict: RepairOutcome['verdict'] | 'error';
  summary: string;
  after?: string[];
}

export interface BugRow {
  bug: string;
  /** The original suite on the original with the bug: tests that failed. */
  before: string[];
  /** The repaired suite on the redesign with the bug: tests that failed. */
  after: string[];
  /** Every failure of `before`, handed to proposeRepair on the bugged original. */
  verdicts: CaseVerdict[];
}

export interface RepairReport {
  app: FixtureApp;
  engine: string;
  cases: TestCase[];
  generationMs: number;
  /** Failed on the fresh original: left out of everything below. */
  untrusted: string[];
  /** Trusted cases failing on the redesign, with their verdicts. */
  redesign: CaseVerdict[];
  /** Verdict `repair` / failures on the redesign, 0..1. */
  proposedShare: number;
  /** The repaired suite's two runs on the redesign: false failures (repaired or unrepaired-passing cases). */
  repairedRuns: { test: string; error: string | null }[][];
  bugs: BugRow[];
  scoreBefore: number;
  scoreAfter: number;
  runMs: number;
}

export interface RepairCheckOptions {
  parallelism?: number;
  bugsAtOnce?: number;
  onProgress?: (message: string) => void;
}

type Served = Awaited<ReturnType<typeof serveFixtureApp>>;

/** Serves an instance, opens its sessions, works, closes it. */
async function onInstance<T>(
  pool: BrowserPool,
  app: FixtureApp,
  options: { bug?: string | null; redesign: boolean; parallelism: number },
  work: (site: Served, sessions: AppSessions, start: string) => Promise<T>,
): Promise<T> {
  const site = await serveFixtureApp(app, { bug: options.bug ?? null, redesign: options.redesign });
  try {
    const start = `${site.url}/`;
    return await work(site, await appSessions(pool, start, options.parallelism, LOGINS[app]), start);
  } finally {
    await site.close();
  }
}

/** The run's executor for the engine's proofs: the same sessions and base URL as the run's. */
function runnerOver(sessions: AppSessions, baseUrl: string): RepairCaseRunner {
  return (testCase, options) =>
    runTestCase(sessions.opener, testCase, {
      baseUrl,
      renewal: sessions.opener instanceof SignInLanes ? sessions.opener.renewal : undefined,
      ...options,
    });
}

/** What the case's passing run left, by the case's own step index (as the server stores it). */
export function lastPassingOf(steps: string[], updates: StepUpdate[]): RepairRequest['lastPassing'] {
  // The runner puts a `Navigate to` first when the case does not start with one.
  const offset =
    updates[0]?.description?.trim() === steps[0]?.trim() ? 0 : updates.length > steps.length ? 1 : 0;
  return {
    steps: updates.flatMap((u) => {
      const index = (u.step_index ?? -1) - offset;
      if (u.status !== 'success' || index < 0 || index >= steps.length) return [];
      return [{ index, selector: u.selector ?? null, url: u.url ?? null }];
    }),
  };
}

/** Hands each failed case to proposeRepair (two at once); verdicts in order of `failed`. */
async function verdictsFor(
  failed: { testCase: TestCase; outcome: TestOutcome; lastPassing: RepairRequest['lastPassing'] }[],
  run: RepairCaseRunner,
  propose: (request: RepairRequest, options: { run: RepairCaseRunner }) => Promise<RepairOutcome>,
): Promise<CaseVerdict[]> {
  return inParallel(failed, 2, async ({ testCase, outcome, lastPassing }) => {
    const base = {
      test: testCase.test_name,
      error: outcome.error,
      failure: outcome.failure?.kind ?? 'none',
      step: outcome.steps.findLast((s) => s.status === 'error')?.description ?? null,
    };
    if (!outcome.failure) return { ...base, verdict: 'error' as const, summary: 'no failure label' };
    try {
      const verdict = await propose(
        { testCase, failure: outcome.failure, error: outcome.error ?? '', lastPassing, rejected: [] },
        { run },
      );
      return {
        ...base,
        verdict: verdict.verdict,
        summary: verdict.evidence.summary,
        ...(verdict.verdict === 'bug' ? {} : { after: verdict.after }),
      };
    } catch (error) {
      return { ...base, verdict: 'error' as const, summary: String(error) };
    }
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function measureRepairs(
  pool: BrowserPool,
  app: FixtureApp,
  propose: (request: RepairRequest, options: { run: RepairCaseRunner }) => Promise<RepairOutcome>,
  options: RepairCheckOptions = {},
): Promise<RepairReport> {
  const parallelism = options.parallelism ?? 2;
  const say = options.onProgress ?? (() => {});
  const t0 = performance.now();
  const { suite, explored } = await onInstance(
    pool,
    app,
    { redesign: false, parallelism },
    async (site, sessions, start) => ({
      explored: site.url,
      suite: await generateSuite(poolBrowsers(sessions.opener), start, {
        planner: new BuiltinPlanner(),
        behaviour: { sharedState: !!LOGINS[app], ownData: sessions.ownData },
        check: { runs: 2, parallelism },
      }),
    }),
  );
  const generationMs = performance.now() - t0;
  say(`${app}: generated ${suite.cases.length} cases in ${seconds(generationMs)}`);
  const on = (url: string) => rebaseCases(suite.cases, explored, url);

  // 1. The fresh original: which cases say anything, and their last passing evidence.
  const clean = await onInstance(pool, app, { redesign: false, parallelism }, async (site, sessions, start) =>
    runSuite(sessions.opener, on(site.url), start, parallelism),
  );
  const trusted = new Set(suite.cases.flatMap((_, i) => (clean[i]?.status === 'passed' ? [i] : [])));
  const untrusted = suite.cases.filter((_, i) => !trusted.has(i)).map((c) => c.test_name);
  const lastPassing = suite.cases.map((c, i) => lastPassingOf(c.steps, clean[i]?.steps ?? []));
  say(`${app}: ${trusted.size} of ${suite.cases.length} cases pass on the fresh original`);

  // 2. The redesign: its failures and their verdicts. Repaired steps are kept relative to the origin
  // of the instance they were proved on, and rebased with the rest.
  let redesignOrigin = '';
  const redesign = await onInstance(
    pool,
    app,
    { redesign: true, parallelism },
    async (site, sessions, start) => {
      redesignOrigin = site.url;
      const cases = on(site.url);
      const outcomes = await runSuite(sessions.opener, cases, start, parallelism);
      const failed = [...trusted]
        .filter((i) => outcomes[i]?.status === 'failed')
        .map((i) => ({
          testCase: cases[i],
          outcome: outcomes[i] as TestOutcome,
          lastPassing: lastPassing[i],
        }));
      say(
        `${app}: ${failed.length} of ${trusted.size} trusted cases fail on the redesign; proposing repairs`,
      );
      return verdictsFor(failed, runnerOver(sessions, start), propose);
    },
  );
  const proposed = redesign.filter((v) => v.verdict === 'repair').length;
  say(`${app}: ${proposed} repairs proposed for ${redesign.length} failures`);

  // 3. The repaired suite (the proposals applied, as approving them would), twice on a fresh redesign.
  // A proposal's steps name the instance it was proved on: they are brought back to the explored one.
  const byName = new Map(redesign.map((v) => [v.test, v]));
  const repairedSuite = suite.cases.map((c) => {
    const v = byName.get(c.test_name);
    if (v?.verdict !== 'repair' || !v.after) return c;
    return rebaseCases([{ ...c, steps: v.after }], redesignOrigin, explored)[0];
  });
  const repairedOn = (url: string) => rebaseCases(repairedSuite, explored, url);
  // A case counts after repair when it was repaired or passed on the redesign unrepaired.
  const counted = new Set(
    [...trusted].filter((i) => {
      const v = byName.get(suite.cases[i].test_name);
      return !v || v.verdict === 'repair';
    }),
  );
  const repairedRuns = await onInstance(
    pool,
    app,
    { redesign: true, parallelism },
    async (site, sessions, start) => {
      const runs: RepairReport['repairedRuns'] = [];
      for (let run = 0; run < 2; run++) {
        const outcomes = await runSuite(sessions.opener, repairedOn(site.url), start, parallelism);
        runs.push(
          [...counted]
            .filter((i) => outcomes[i]?.status === 'failed')
            .map((i) => ({ test: suite.cases[i].test_name, error: outcomes[i]?.error ?? null })),
        );
        say(`${app}: repaired suite on the redesign, run ${run + 1}: ${runs[run].length} false failures`);
      }
      return runs;
    },
  );

  // 4 and 5. Each planted bug, on the original (before, and the verdicts) and on the redesign (after).
  const bugNames = Object.keys(BUGS[app]);
  const bugs = await inParallel(bugNames, options.bugsAtOnce ?? 2, async (bug): Promise<BugRow> => {
    const before = await onInstance(
      pool,
      app,
      { bug, redesign: false, parallelism },
      async (site, sessions, start) => {
        const cases = on(site.url);
        const outcomes = await runSuite(sessions.opener, cases, start, parallelism);
        const failed = [...trusted]
          .filter((i) => outcomes[i]?.status === 'failed')
          .map((i) => ({
            testCase: cases[i],
            outcome: outcomes[i] as TestOutcome,
            lastPassing: lastPassing[i],
          }));
        return verdictsFor(failed, runnerOver(sessions, start), propose);
      },
    );
    const after = await onInstance(
      pool,
      app,
      { bug, redesign: true, parallelism },
      async (site, sessions, start) => {
        const outcomes = await runSuite(sessions.opener, repairedOn(site.url), start, parallelism);
        return [...counted]
          .filter((i) => outcomes[i]?.status === 'failed')
          .map((i) => suite.cases[i].test_name);
      },
    );
    const labelled = before.filter((v) => v.verdict === 'bug').length;
    say(
      `${app}: ${bug}: caught before by ${before.length}, after by ${after.length}; ` +
        `${labelled} of ${before.length} failures on the original labelled a bug`,
    );
    return { bug, before: before.map((v) => v.test), after, verdicts: before };
  });
  const score = (pick: (b: BugRow) => string[]) =>
    bugs.filter((b) => pick(b).length > 0).length / (bugs.length || 1);
  return {
    app,
    engine: suite.engine,
    cases: suite.cases,
    generationMs,
    untrusted,
    redesign,
    proposedShare: redesign.length ? proposed / redesign.length : 1,
    repairedRuns,
    bugs,
    scoreBefore: score((b) => b.before),
    scoreAfter: score((b) => b.after),
    runMs: performance.now() - t0,
  };
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

/** The report as Markdown: the figures, then one row per bug and one per verdict. */
export function formatRepairReport(r: RepairReport): string {
  const proposed = r.redesign.filter((v) => v.verdict === 'repair').length;
  const labelled = r.bugs.flatMap((b) => b.verdicts);
  const asBug = labelled.filter((v) => v.verdict === 'bug').length;
  const head =
    `### ${r.app}: repairs on the redesign\n\n` +
    `Engine: ${r.engine}. ${r.cases.length} generated tests in ${seconds(r.generationMs)} (${r.untrusted.length} failing on the fresh original, left out). ` +
    `Failing on the redesign: **${r.redesign.length}**; repairs proposed: **${proposed}/${r.redesign.length} (${percent(r.proposedShare)})**; ` +
    `repaired suite on the redesign: **${r.repairedRuns.map((run) => run.length).join(' and ')} false failures**; ` +
    `mutation score before **${percent(r.scoreBefore)}**, after repair on the redesign **${percent(r.scoreAfter)}**; ` +
    `failures with a bug and no redesign labelled a bug: **${asBug}/${labelled.length}**. Took ${seconds(r.runMs)}.\n\n`;
  const bugRows = r.bugs
    .map((b) => {
      const repaired = b.verdicts.filter((v) => v.verdict !== 'bug').map((v) => `${v.test}: ${v.verdict}`);
      return `| \`${b.bug}\` | ${b.before.length ? `caught (${b.before.length})` : 'missed'} | ${b.after.length ? `caught (${b.after.length})` : 'missed'} | ${b.verdicts.length - repaired.length}/${b.verdicts.length}${repaired.length ? ` — NOT a bug: ${repaired.join('; ')}` : ''} |`;
    })
    .join('\n');
  const verdictRows = r.redesign
    .map(
      (v) =>
        `| ${v.test} | ${v.failure}: \`${v.step ?? '?'}\` | ${v.verdict} | ${v.summary.replace(/\|/g, '\\|').slice(0, 240)} |`,
    )
    .join('\n');
  const falseFailures = r.repairedRuns
    .flatMap((run, i) => run.map((f) => `- run ${i + 1}: ${f.test}: ${f.error}`))
    .join('\n');
  return (
    `${head}| bug | original suite, original | repaired suite, redesign | failures labelled a bug (no redesign) |\n|---|---|---|---|\n${bugRows}\n\n` +
    `| failed on the redesign | failure | verdict | evidence |\n|---|---|---|---|\n${verdictRows}\n` +
    (falseFailures ? `\nFalse failures of the repaired suite:\n${falseFailures}\n` : '')
  );
}
