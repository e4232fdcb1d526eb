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
  type Rename,
  type RepairCaseRunner,
  type RepairOutcome,
  type RepairRequest,
  renamesOf,
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
  /** The evidence's signals (what was tried and why it failed). */
  signals: string[];
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
  /** Stop after the redesign's verdicts and the repaired runs (no planted bugs): for iterating on the engine. */
  redesignOnly?: boolean;
  onProgress?: (message: string) => void;
}

type Propose = (request: RepairRequest, options: { run: RepairCaseRunner }) => Promise<RepairOutcome>;

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
      return [{ index, selector: u.selector ?? null, url: u.url ?? null, element: u.element ?? null }];
    }),
  };
}

/**
 * Failed cases handed to proposeRepair at once (`REPAIRS_AT_ONCE`, default 2): a repair mostly waits
 * (on a step's timeout while a candidate is proved wrong), so more at once shortens the check.
 */
const REPAIRS_AT_ONCE = Number(process.env.REPAIRS_AT_ONCE ?? 2);
/** Passes over the failed cases at most: the first, then again with renames as the server's end of run does. */
const MAX_PASSES = 3;

type Failed = { testCase: TestCase; outcome: TestOutcome; lastPassing: RepairRequest['lastPassing'] };

/**
 * Hands each failed case to proposeRepair (two at once), then the ones labelled a bug once more with
 * the renames the others' proved repairs made (as the server does at the end of a run: docs/REPAIRS.md
 * "Renames learnt across the suite"); verdicts in order of `failed`.
 */
async function verdictsFor(
  failed: Failed[],
  run: RepairCaseRunner,
  propose: Propose,
): Promise<CaseVerdict[]> {
  let verdicts = await inParallel(failed, REPAIRS_AT_ONCE, (f) => verdictOf(f, run, propose, []));
  // Again while a pass taught a new rename (one case's repair may need another's): at most MAX_PASSES.
  let known = 0;
  for (let pass = 1; pass < MAX_PASSES; pass++) {
    const renames = verdicts.flatMap((v, i) =>
      v.verdict === 'repair' && v.after ? renamesOf(failed[i].testCase.steps, v.after, v.test) : [],
    );
    if (renames.length === known) break;
    known = renames.length;
    const was = verdicts;
    verdicts = await inParallel(
      failed.map((f, i) => ({ f, v: was[i] })),
      REPAIRS_AT_ONCE,
      async ({ f, v }) => (v.verdict === 'bug' ? verdictOf(f, run, propose, renames) : v),
    );
  }
  return verdicts;
}

async function verdictOf(
  { testCase, outcome, lastPassing }: Failed,
  run: RepairCaseRunner,
  propose: Propose,
  renames: Rename[],
): Promise<CaseVerdict> {
  const base = {
    test: testCase.test_name,
    error: outcome.error,
    failure: outcome.failure?.kind ?? 'none',
    step: outcome.steps.findLast((s) => s.status === 'error')?.description ?? null,
  };
  if (!outcome.failure)
    return { ...base, verdict: 'error' as const, summary: 'no failure label', signals: [] };
  try {
    const verdict = await propose(
      { testCase, failure: outcome.failure, error: outcome.error ?? '', lastPassing, rejected: [], renames },
      { run },
    );
    return {
      ...base,
      verdict: verdict.verdict,
      summary: verdict.evidence.summary,
      signals: verdict.evidence.signals,
      ...(verdict.verdict === 'bug' ? {} : { after: verdict.after }),
    };
  } catch (error) {
    return { ...base, verdict: 'error' as const, summary: String(error), signals: [] };
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function measureRepairs(
  pool: BrowserPool,
  app: FixtureApp,
  propose: Propose,
  options: RepairCheckOptions = {},
): Promise<RepairReport> {
  const t0 = performance.now();
  const check = await RepairCheck.generated(pool, app, propose, options);
  const generationMs = performance.now() - t0;
  const say = options.onProgress ?? (() => {});
  say(`${app}: generated ${check.cases.length} cases in ${seconds(generationMs)}`);
  await check.runClean();
  say(`${app}: ${check.trusted.size} of ${check.cases.length} cases pass on the fresh original`);
  const redesign = await check.onRedesign();
  const proposed = redesign.filter((v) => v.verdict === 'repair').length;
  say(`${app}: ${proposed} repairs proposed for ${redesign.length} failures`);
  const repairedRuns = await check.repairedTwice();
  const bugNames = options.redesignOnly ? [] : Object.keys(BUGS[app]);
  // Each planted bug, on the original (before, and the verdicts) and on the redesign (after).
  const bugs = await inParallel(bugNames, options.bugsAtOnce ?? 2, async (bug) => {
    const row = await check.withBug(bug);
    const labelled = row.verdicts.filter((v) => v.verdict === 'bug').length;
    say(
      `${app}: ${bug}: caught before by ${row.before.length}, after by ${row.after.length}; ` +
        `${labelled} of ${row.before.length} failures on the original labelled a bug`,
    );
    return row;
  });
  const score = (pick: (b: BugRow) => string[]) =>
    bugs.filter((b) => pick(b).length > 0).length / (bugs.length || 1);
  return {
    app,
    engine: check.engine,
    cases: check.cases,
    generationMs,
    untrusted: check.cases.filter((_, i) => !check.trusted.has(i)).map((c) => c.test_name),
    redesign,
    proposedShare: redesign.length ? proposed / redesign.length : 1,
    repairedRuns,
    bugs,
    scoreBefore: score((b) => b.before),
    scoreAfter: score((b) => b.after),
    runMs: performance.now() - t0,
  };
}

/** One app's check, step by step (the module's comment); each step on fresh instances of its own. */
class RepairCheck {
  /** Cases that passed on the fresh original: the only ones counted. */
  trusted = new Set<number>();
  private lastPassing: RepairRequest['lastPassing'][] = [];
  /** Cases counted after repair: repaired, or passing on the redesign unrepaired. */
  private counted = new Set<number>();
  /** The suite with the proposals applied, relative to the explored instance. */
  private repaired: TestCase[] = [];
  private readonly parallelism: number;
  private readonly say: (message: string) => void;

  private constructor(
    private readonly pool: BrowserPool,
    private readonly app: FixtureApp,
    private readonly propose: Propose,
    options: RepairCheckOptions,
    readonly cases: TestCase[],
    readonly engine: string,
    /** The origin the cases were generated on. */
    private readonly explored: string,
  ) {
    this.parallelism = options.parallelism ?? 2;
    this.say = options.onProgress ?? (() => {});
  }

  /** Generates the suite on the original design, as the mutation test does. */
  static async generated(
    pool: BrowserPool,
    app: FixtureApp,
    propose: Propose,
    options: RepairCheckOptions,
  ): Promise<RepairCheck> {
    const parallelism = options.parallelism ?? 2;
    return onInstance(pool, app, { redesign: false, parallelism }, async (site, sessions, start) => {
      const suite = await generateSuite(poolBrowsers(sessions.opener), start, {
        planner: new BuiltinPlanner(),
        behaviour: { sharedState: !!LOGINS[app], ownData: sessions.ownData },
        check: { runs: 2, parallelism },
      });
      return new RepairCheck(pool, app, propose, options, suite.cases, suite.engine, site.url);
    });
  }

  private instance<T>(
    design: { bug?: string; redesign: boolean },
    work: (cases: (suite: TestCase[]) => TestCase[], sessions: AppSessions, start: string) => Promise<T>,
  ): Promise<T> {
    return onInstance(
      this.pool,
      this.app,
      { ...design, parallelism: this.parallelism },
      (site, sessions, start) =>
        work((suite) => rebaseCases(suite, this.explored, site.url), sessions, start),
    );
  }

  /** 1. The fresh original: which cases say anything, and their last passing evidence. */
  async runClean(): Promise<void> {
    const clean = await this.instance({ redesign: false }, (on, sessions, start) =>
      runSuite(sessions.opener, on(this.cases), start, this.parallelism),
    );
    this.trusted = new Set(this.cases.flatMap((_, i) => (clean[i]?.status === 'passed' ? [i] : [])));
    this.lastPassing = this.cases.map((c, i) => lastPassingOf(c.steps, clean[i]?.steps ?? []));
  }

  /** The trusted cases failing on an instance, with the engine's verdict on each. */
  private async verdicts(
    on: (suite: TestCase[]) => TestCase[],
    sessions: AppSessions,
    start: string,
  ): Promise<CaseVerdict[]> {
    const cases = on(this.cases);
    const outcomes = await runSuite(sessions.opener, cases, start, this.parallelism);
    const failed = [...this.trusted]
      .filter((i) => outcomes[i]?.status === 'failed')
      .map((i) => ({
        testCase: cases[i],
        outcome: outcomes[i] as TestOutcome,
        lastPassing: this.lastPassing[i],
      }));
    return verdictsFor(failed, runnerOver(sessions, start), this.propose);
  }

  /** 2. The redesign's failures and their verdicts; the proposals applied as approving them would. */
  async onRedesign(): Promise<CaseVerdict[]> {
    let origin = '';
    const verdicts = await this.instance({ redesign: true }, (on, sessions, start) => {
      origin = new URL(start).origin;
      return this.verdicts(on, sessions, start);
    });
    const byName = new Map(verdicts.map((v) => [v.test, v]));
    // A proposal's steps name the instance it was proved on: they are brought back to the explored one.
    this.repaired = this.cases.map((c) => {
      const v = byName.get(c.test_name);
      if (v?.verdict !== 'repair' || !v.after) return c;
      return rebaseCases([{ ...c, steps: v.after }], origin, this.explored)[0];
    });
    this.counted = new Set(
      [...this.trusted].filter((i) => {
        const v = byName.get(this.cases[i].test_name);
        return !v || v.verdict === 'repair';
      }),
    );
    return verdicts;
  }

  /** The counted cases of the repaired suite that fail on an instance. */
  private async repairedFailures(
    on: (suite: TestCase[]) => TestCase[],
    sessions: AppSessions,
    start: string,
  ): Promise<{ test: string; error: string | null }[]> {
    const outcomes = await runSuite(sessions.opener, on(this.repaired), start, this.parallelism);
    return [...this.counted]
      .filter((i) => outcomes[i]?.status === 'failed')
      .map((i) => ({ test: this.cases[i].test_name, error: outcomes[i]?.error ?? null }));
  }

  /** 3. The repaired suite twice on a fresh redesign: its false failures per run. */
  repairedTwice(): Promise<RepairReport['repairedRuns']> {
    return this.instance({ redesign: true }, async (on, sessions, start) => {
      const runs: RepairReport['repairedRuns'] = [];
      for (let run = 0; run < 2; run++) {
        runs.push(await this.repairedFailures(on, sessions, start));
        this.say(
          `${this.app}: repaired suite on the redesign, run ${run + 1}: ${runs[run].length} false failures`,
        );
      }
      return runs;
    });
  }

  /** 4 and 5. One planted bug: the original suite on the original (and the verdicts), the repaired on the redesign. */
  async withBug(bug: string): Promise<BugRow> {
    const verdicts = await this.instance({ bug, redesign: false }, (on, sessions, start) =>
      this.verdicts(on, sessions, start),
    );
    const after = await this.instance({ bug, redesign: true }, (on, sessions, start) =>
      this.repairedFailures(on, sessions, start),
    );
    return { bug, before: verdicts.map((v) => v.test), after: after.map((f) => f.test), verdicts };
  }
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
