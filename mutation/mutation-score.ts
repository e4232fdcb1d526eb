/**
 * Mutation score of a generated suite: how many of an app's planted behavioural bugs the suite that
 * Argus generated on the clean app catches, and whether that suite is stable on the clean app.
 *
 * 1. Serve the clean app and generate a suite (`generateSuite`, the same path a user's generation takes).
 * 2. Run the suite twice on the clean app: every failure there is a false alarm, every test that
 *    passes once and fails once is flaky.
 * 3. For each planted bug: run the suite on an instance of the app serving only that bug; the bug is
 *    caught when at least one test that passed on the clean app fails. Several bugs run at once, each
 *    on its own instance (its own port), with the cases' origin rewritten to that instance's: a caught
 *    bug spends most of its run in a failing step's timeout, waiting, not working.
 */
import { BuiltinPlanner, generateSuite, poolBrowsers } from '@argus/ai';
import {
  type BrowserPool,
  runTestCase,
  type SessionOpener,
  SignedInSessions,
  type SignInPlan,
  type StepVariables,
  type TestOutcome,
} from '@argus/engine';
import type { ExplorationSummary, TestCase } from '@argus/protocol';
import { CART_BUGS, DESK_BUGS, LEDGER_BUGS, SHELF_BUGS, TODO_BUGS } from '../fixtures/apps/bugs';
import { DESK_ACCOUNTS, serveFixtureApp } from '../fixtures/apps/serve';

export type FixtureApp = 'todo' | 'cart' | 'shelf' | 'ledger' | 'desk';

export const BUGS: Record<FixtureApp, Record<string, string>> = {
  todo: TODO_BUGS,
  cart: CART_BUGS,
  shelf: SHELF_BUGS,
  ledger: LEDGER_BUGS,
  desk: DESK_BUGS,
};

/**
 * The apps behind a sign-in, with the project login a user would give Argus for them: the desk's
 * account with two-factor codes. Every instance of the app (the clean one, each bug's) is signed in
 * to on its own, as a run signs in once per environment.
 */
export const LOGINS: Partial<Record<FixtureApp, { plan: SignInPlan; variables: StepVariables }>> = {
  desk: {
    plan: { mode: 'credentials', loginUrl: '/login', username: 'EMAIL', password: 'PASSWORD', totp: 'TOTP' },
    variables: {
      source: 'environment "mutation" of project "desk"',
      values: new Map([
        ['EMAIL', { value: DESK_ACCOUNTS.twoFactor.email, secret: false }],
        ['PASSWORD', { value: DESK_ACCOUNTS.twoFactor.password, secret: true }],
        ['TOTP', { value: DESK_ACCOUNTS.twoFactor.totpSecret, secret: true }],
      ]),
    },
  },
};

/** What a user might ask for in command mode, one per app (covering the app's main features). */
export const COMMANDS: Record<FixtureApp, string> = {
  todo: 'test adding a todo, completing it, deleting it, editing it, the filters, clear completed and the counter',
  cart: 'check that the cart total updates when I change the quantity, removing an item, free shipping and the coupon code',
  shelf:
    'test adding a book, marking it as read, deleting it, mark all as read, the To read and Finished views, ' +
    'the tally, archive finished and that the list survives a reload',
  desk:
    'test creating a ticket with a priority, the Open, Closed and All filters, the open tickets count, ' +
    'closing and reopening a ticket, adding a comment, deleting a ticket and the reports page',
  ledger:
    'test adding an expense, editing it, deleting it, marking it as paid, mark all as paid, ' +
    'remove paid expenses, the category filters, the totals, the summary page and that expenses survive a reload',
};

export interface BugResult {
  bug: string;
  /** Wall-clock time of this bug's run (its runs overlap with other bugs'). */
  runMs: number;
  description: string;
  caught: boolean;
  /** Tests that failed with this bug switched on (the run stops starting tests at the first failure). */
  failedTests: string[];
  /** The first failure's message, to see that the failure is about the bug. */
  firstError: string | null;
}

export interface MutationReport {
  app: FixtureApp;
  mode: 'full' | 'command';
  command?: string;
  engine: string;
  generationMs: number;
  /** What the generation explored and what its budget left out. */
  exploration?: ExplorationSummary;
  cases: TestCase[];
  /** Tests that failed in either clean run (false alarms), with their errors. */
  falseFailures: { test: string; error: string | null }[];
  /** Tests whose outcome differed between the two clean runs. */
  flaky: string[];
  bugs: BugResult[];
  /** Wall-clock time of each clean run and of all the bug runs. */
  phases: { cleanMs: [number, number]; bugsMs: number };
  caught: number;
  planted: number;
  /** caught / planted, 0..1. */
  score: number;
  runMs: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The cases as they would have been generated on `to` instead of `from` (both origins): a generated
 * case names its start page and may navigate to or check absolute URLs. Only the origin changes, so
 * every step still does on the bug's instance what it did on the clean app.
 */
export function rebaseCases(cases: TestCase[], from: string, to: string): TestCase[] {
  const [fromHost, toHost] = [new URL(from).host, new URL(to).host];
  const text = JSON.stringify(cases).split(fromHost).join(toHost);
  return JSON.parse(text) as TestCase[];
}

/**
 * Runs the cases, `parallelism` at a time, without screenshots; outcomes in case order. With
 * `untilFailure`, no case is started once one of `counted` has failed (a bug is caught by its first
 * failing test; the cases not run stay undefined).
 */
async function runSuite(
  pool: SessionOpener,
  cases: TestCase[],
  baseUrl: string,
  parallelism: number,
  untilFailure?: { counted: Set<number> },
): Promise<(TestOutcome | undefined)[]> {
  const outcomes: (TestOutcome | undefined)[] = new Array(cases.length);
  let next = 0;
  let failed = false;
  await Promise.all(
    Array.from({ length: Math.min(parallelism, cases.length) }, async () => {
      while (next < cases.length && !failed) {
        const i = next++;
        if (untilFailure && !untilFailure.counted.has(i)) continue;
        const outcome = await runTestCase(pool, cases[i], {
          baseUrl,
          screenshots: false,
          renewal: pool instanceof SignedInSessions ? pool.renewal : undefined,
        });
        outcomes[i] = outcome;
        if (untilFailure && outcome.status === 'failed') failed = true;
      }
    }),
  );
  return outcomes;
}

export interface MutationOptions {
  command?: string;
  /** Cases of one run at once. @default 2 */
  parallelism?: number;
  /**
   * Bug runs at once, each on its own instance of the app; the pool needs `parallelism` contexts
   * for each (the test gives it 8). 1 runs them one after the other. @default 4
   */
  bugsAtOnce?: number;
  onProgress?: (message: string) => void;
}

export async function measureMutationScore(
  pool: BrowserPool,
  app: FixtureApp,
  options: MutationOptions = {},
): Promise<MutationReport> {
  const parallelism = options.parallelism ?? 2;
  const bugsAtOnce = Math.max(1, options.bugsAtOnce ?? 4);
  const say = options.onProgress ?? (() => {});
  const site = await serveFixtureApp(app);
  // Behind a sign-in: each instance is signed in to once, and every session on it starts signed in.
  const login = LOGINS[app];
  const on = async (base: string): Promise<SessionOpener> => {
    if (!login) return pool;
    const sessions = new SignedInSessions(pool, login.plan, { baseUrl: base, variables: login.variables });
    await sessions.start();
    return sessions;
  };
  try {
    const start = `${site.url}/`;
    let t = performance.now();
    const clean = await on(start);
    const suite = await generateSuite(login ? poolBrowsers(clean) : pool, start, {
      planner: new BuiltinPlanner(),
      command: options.command,
      // Signed in, every session works on the same account's data on the server.
      behaviour: { sharedState: !!login },
    });
    const generationMs = performance.now() - t;
    const cases = suite.cases;
    say(`${app}: generated ${cases.length} cases in ${seconds(generationMs)}`);

    // One clean run after the other, as the suite's user would run it twice; nothing shares the
    // machine with a clean run, so a false alarm or a flaky test is the suite's, not the load's.
    t = performance.now();
    const cleanRuns: TestOutcome[][] = [];
    const cleanMs: [number, number] = [0, 0];
    for (const run of [0, 1]) {
      const runStart = performance.now();
      cleanRuns.push((await runSuite(clean, cases, start, parallelism)) as TestOutcome[]);
      cleanMs[run] = performance.now() - runStart;
      const failed = cleanRuns[run].filter((o) => o.status === 'failed').length;
      say(`${app}: clean run ${run + 1}: ${failed} of ${cases.length} failed in ${seconds(cleanMs[run])}`);
    }
    const falseFailures: MutationReport['falseFailures'] = [];
    const flaky: string[] = [];
    cases.forEach((c, i) => {
      const [a, b] = [cleanRuns[0][i], cleanRuns[1][i]];
      if (a.status !== b.status) flaky.push(c.test_name);
      for (const outcome of [a, b]) {
        if (outcome.status === 'failed') falseFailures.push({ test: c.test_name, error: outcome.error });
      }
    });

    // Only tests that passed both times on the clean app can say anything about a bug.
    const trusted = new Set(
      cases.flatMap((_, i) =>
        cleanRuns[0][i].status === 'passed' && cleanRuns[1][i].status === 'passed' ? [i] : [],
      ),
    );
    const bugsStart = performance.now();
    const runBug = async ([bug, description]: [string, string]): Promise<BugResult> => {
      const runStart = performance.now();
      const instance = await serveFixtureApp(app, { bug });
      try {
        const rebased = rebaseCases(cases, site.url, instance.url);
        const outcomes = await runSuite(
          await on(`${instance.url}/`),
          rebased,
          `${instance.url}/`,
          parallelism,
          {
            counted: trusted,
          },
        );
        const failed = outcomes.flatMap((o, i) => (trusted.has(i) && o?.status === 'failed' ? [i] : []));
        const runMs = performance.now() - runStart;
        say(
          `${app}: ${bug} ${failed.length ? `caught by ${failed.length} test(s)` : 'NOT caught'} in ${seconds(runMs)}`,
        );
        return {
          bug,
          runMs,
          description,
          caught: failed.length > 0,
          failedTests: failed.map((i) => cases[i].test_name),
          firstError: failed.length ? (outcomes[failed[0]]?.error ?? null) : null,
        };
      } finally {
        await instance.close();
      }
    };
    const planted = Object.entries(BUGS[app]);
    const bugs: BugResult[] = new Array(planted.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(bugsAtOnce, planted.length) }, async () => {
        while (next < planted.length) {
          const i = next++;
          bugs[i] = await runBug(planted[i]);
        }
      }),
    );
    const bugsMs = performance.now() - bugsStart;
    say(`${app}: ${planted.length} bug runs (${bugsAtOnce} at once) in ${seconds(bugsMs)}`);
    const caught = bugs.filter((b) => b.caught).length;
    return {
      app,
      mode: options.command ? 'command' : 'full',
      ...(options.command ? { command: options.command } : {}),
      engine: suite.engine,
      generationMs,
      ...(suite.exploration ? { exploration: suite.exploration } : {}),
      cases,
      falseFailures,
      flaky,
      bugs,
      phases: { cleanMs, bugsMs },
      caught,
      planted: bugs.length,
      score: bugs.length ? caught / bugs.length : 0,
      runMs: performance.now() - t,
    };
  } finally {
    await site.close();
  }
}

/** The report as Markdown: the summary line, then one row per bug. */
export function formatReport(report: MutationReport): string {
  const head =
    `### ${report.app}, ${report.mode} mode${report.command ? ` ("${report.command}")` : ''}\n\n` +
    `Engine: ${report.engine}. ${report.cases.length} generated tests in ${(report.generationMs / 1000).toFixed(1)} s; ` +
    `mutation score **${report.caught}/${report.planted} (${Math.round(report.score * 100)} %)**; ` +
    `false failures on the clean app: ${report.falseFailures.length}; flaky: ${report.flaky.length}; ` +
    `runs took ${(report.runMs / 1000).toFixed(0)} s (clean runs ${report.phases.cleanMs.map(seconds).join(' and ')}, ` +
    `bug runs ${seconds(report.phases.bugsMs)}).\n\n` +
    (report.exploration ? `${explorationLine(report.exploration)}\n\n` : '');
  const rows = report.bugs
    .map(
      (b) =>
        `| \`${b.bug}\` | ${b.description} | ${b.caught ? `caught by ${b.failedTests.map((t) => `"${t}"`).join(', ')}` : '**missed**'} | ${seconds(b.runMs)} |`,
    )
    .join('\n');
  const tests = report.cases.map((c) => `- ${c.test_name}`).join('\n');
  const alarms = report.falseFailures.map((f) => `- ${f.test}: ${f.error}`).join('\n');
  return `${head}| bug | what it breaks | result | run |\n|---|---|---|---|\n${rows}\n\nGenerated tests:\n${tests}\n${alarms ? `\nFalse failures:\n${alarms}\n` : ''}`;
}

/** What the generation explored, in a line: actions, states, latency, limit, and what it left out. */
export function explorationLine(e: ExplorationSummary): string {
  return (
    `Explored ${e.actions} of ${e.maxActions} actions in ${e.states} states in ${seconds(e.elapsedMs)} ` +
    `(page latency ${e.latencyMs} ms, time limit ${seconds(e.timeLimitMs)}); ended: ${e.ended}` +
    (e.skipped.length ? `; not tried: ${e.skipped.join('; ')}` : '')
  );
}
