/**
 * Mutation score of a generated suite: how many of an app's planted behavioural bugs the suite that
 * Argus generated on the clean app catches, and whether that suite is stable on the clean app.
 *
 * 1. Serve the clean app and generate a suite (`generateSuite`, the same path a user's generation
 *    takes, its cases checked as runs run them before they are handed out).
 * 2. Serve the app afresh (its seeded data only, as every CI run starts) and run the suite on it
 *    `cleanRuns` times: every failure there is a false alarm (a case that depends on what the
 *    exploration left behind fails here), every test whose outcome changes is flaky.
 * 3. For each planted bug: run the suite on an instance of the app serving only that bug; the bug is
 *    caught when at least one test that passed every clean run fails. Several bugs run at once, each
 *    on its own instance (its own port), with the cases' origin rewritten to that instance's: a caught
 *    bug spends most of its run in a failing step's timeout, waiting, not working.
 * Behind a login, every instance is signed in to per lane (suite-runs.ts), as runs are.
 */
import { BuiltinPlanner, generateSuite, poolBrowsers } from '@argus/ai';
import type { BrowserPool, SignInPlan, StepVariables, TestOutcome } from '@argus/engine';
import type { ExplorationSummary, TestCase } from '@argus/protocol';
import {
  CART_BUGS,
  CLINIC_BUGS,
  DESK_BUGS,
  LEDGER_BUGS,
  PANTRY_BUGS,
  SHELF_BUGS,
  TODO_BUGS,
} from '../fixtures/apps/bugs';
import { CLINIC_POOL_VARIABLES, DESK_ACCOUNTS, serveFixtureApp } from '../fixtures/apps/serve';
import { appSessions, rebaseCases, runSuite } from './suite-runs';

export { rebaseCases } from './suite-runs';

export type FixtureApp = 'todo' | 'cart' | 'shelf' | 'ledger' | 'desk' | 'pantry' | 'clinic';

export const BUGS: Record<FixtureApp, Record<string, string>> = {
  todo: TODO_BUGS,
  cart: CART_BUGS,
  shelf: SHELF_BUGS,
  ledger: LEDGER_BUGS,
  desk: DESK_BUGS,
  pantry: PANTRY_BUGS,
  clinic: CLINIC_BUGS,
};

/**
 * The apps behind a sign-in, with the project login a user would give Argus for them: the desk's
 * two-factor accounts (a pool of two), the clinic's pool of two. Every instance of the app (the clean one, each bug's) is signed in
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
        // A pool of two two-factor accounts (docs/PROJECTS.md#an-account-per-lane): each lane of two
        // has an account of its own, so counts and totals are checked against their rows.
        ...(['twoFactor', 'twoFactorB'] as const).flatMap(
          (key, i): [string, { value: string; secret: boolean }][] => [
            [`EMAIL_${i + 1}`, { value: DESK_ACCOUNTS[key].email, secret: false }],
            [`PASSWORD_${i + 1}`, { value: DESK_ACCOUNTS[key].password, secret: true }],
            [`TOTP_${i + 1}`, { value: DESK_ACCOUNTS[key].totpSecret, secret: true }],
          ],
        ),
      ]),
    },
  },
  // The clinic with an account pool of two (EMAIL_1/PASSWORD_1, EMAIL_2/PASSWORD_2; the plain names
  // hold the first), so that two lanes can each have an account of their own.
  clinic: {
    plan: { mode: 'credentials', loginUrl: '/login', username: 'EMAIL', password: 'PASSWORD' },
    variables: {
      source: 'environment "mutation" of project "clinic"',
      values: new Map(
        Object.entries(CLINIC_POOL_VARIABLES).map(([name, value]) => [
          name,
          { value, secret: name.startsWith('PASSWORD') },
        ]),
      ),
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
  pantry:
    'test adding an item, a duplicate or too long name being refused, renaming, the quantity stepper, ' +
    'switching an item in and out of stock, restock all, removing an item, the search, the category and ' +
    'low stock filters, the items count and that changes survive a reload',
  clinic:
    'test booking an appointment, a blank patient name being refused, editing and cancelling an appointment, ' +
    'marking one attended, the status filters, the search, the upcoming count, the booked time and the settings',
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
  /** Tests that failed in any clean run (false alarms), with their errors. */
  falseFailures: { test: string; error: string | null }[];
  /** Tests whose outcome differed between the clean runs. */
  flaky: string[];
  bugs: BugResult[];
  /** Wall-clock time of each clean run and of all the bug runs. */
  phases: { cleanMs: number[]; bugsMs: number };
  /** Cases of one run at once. */
  parallelism: number;
  caught: number;
  planted: number;
  /** caught / planted, 0..1. */
  score: number;
  runMs: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export interface MutationOptions {
  command?: string;
  /** Cases of one run at once (lanes, each signed in on its own behind a login). @default 2 */
  parallelism?: number;
  /** Runs of the suite on the fresh clean app; a failure in any is a false alarm. @default 5 */
  cleanRuns?: number;
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
  const runs = Math.max(2, options.cleanRuns ?? 5);
  const say = options.onProgress ?? (() => {});
  const login = LOGINS[app];
  let t = performance.now();
  // Generated on one instance of the app, which the exploration leaves changed ...
  const explored = await serveFixtureApp(app);
  let suite: Awaited<ReturnType<typeof generateSuite>>;
  try {
    const on = await appSessions(pool, `${explored.url}/`, parallelism, login);
    suite = await generateSuite(poolBrowsers(on.opener), `${explored.url}/`, {
      planner: new BuiltinPlanner(),
      command: options.command,
      // Signed in, the sessions work on the accounts' data on the server, left for the next run.
      behaviour: { sharedState: !!login, ownData: on.ownData },
      // Checked as runs run it before it is handed out, as a user's generation is.
      check: { runs: 2, parallelism },
    });
  } finally {
    await explored.close();
  }
  const generationMs = performance.now() - t;
  const dropped = suite.exploration?.checked?.dropped ?? [];
  say(
    `${app}: generated ${suite.cases.length} cases in ${seconds(generationMs)}` +
      (dropped.length
        ? ` (${dropped.length} dropped by the check: ${dropped.map((d) => d.test).join('; ')})`
        : ''),
  );
  // ... and run on a fresh one holding only its seeded data, as every CI run starts.
  const site = await serveFixtureApp(app);
  try {
    const start = `${site.url}/`;
    const cases = rebaseCases(suite.cases, explored.url, site.url);
    const clean = (await appSessions(pool, start, parallelism, login)).opener;

    // One clean run after the other; nothing shares the machine with a clean run, so a false alarm
    // or a flaky test is the suite's, not the load's.
    t = performance.now();
    const cleanRuns: TestOutcome[][] = [];
    const cleanMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      const runStart = performance.now();
      cleanRuns.push((await runSuite(clean, cases, start, parallelism)) as TestOutcome[]);
      cleanMs.push(performance.now() - runStart);
      const failed = cleanRuns[run].filter((o) => o.status === 'failed').length;
      say(`${app}: clean run ${run + 1}: ${failed} of ${cases.length} failed in ${seconds(cleanMs[run])}`);
    }
    const falseFailures: MutationReport['falseFailures'] = [];
    const flaky: string[] = [];
    cases.forEach((c, i) => {
      const statuses = new Set(cleanRuns.map((r) => r[i].status));
      if (statuses.size > 1) flaky.push(c.test_name);
      for (const run of cleanRuns) {
        if (run[i].status === 'failed') falseFailures.push({ test: c.test_name, error: run[i].error });
      }
    });

    // Only tests that passed every time on the clean app can say anything about a bug.
    const trusted = new Set(
      cases.flatMap((_, i) => (cleanRuns.every((r) => r[i].status === 'passed') ? [i] : [])),
    );
    const bugsStart = performance.now();
    const runBug = async ([bug, description]: [string, string]): Promise<BugResult> => {
      const runStart = performance.now();
      const instance = await serveFixtureApp(app, { bug });
      try {
        const rebased = rebaseCases(cases, site.url, instance.url);
        const outcomes = await runSuite(
          (await appSessions(pool, `${instance.url}/`, parallelism, login)).opener,
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
      parallelism,
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
    `### ${report.app}, ${report.mode} mode, parallelism ${report.parallelism}${report.command ? ` ("${report.command}")` : ''}\n\n` +
    `Engine: ${report.engine}. ${report.cases.length} generated tests in ${(report.generationMs / 1000).toFixed(1)} s; ` +
    `mutation score **${report.caught}/${report.planted} (${Math.round(report.score * 100)} %)**; ` +
    `false failures on the clean app: ${report.falseFailures.length}; flaky: ${report.flaky.length}; ` +
    `runs took ${(report.runMs / 1000).toFixed(0)} s (${report.phases.cleanMs.length} clean runs on a fresh instance: ${report.phases.cleanMs.map(seconds).join(', ')}; ` +
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
  const dropped = (report.exploration?.checked?.dropped ?? [])
    .map((d) => `- ${d.test}: ${d.reason}`)
    .join('\n');
  return `${head}| bug | what it breaks | result | run |\n|---|---|---|---|\n${rows}\n\nGenerated tests:\n${tests}\n${alarms ? `\nFalse failures:\n${alarms}\n` : ''}${dropped ? `\nDropped by the generation's check (failed when run as runs run):\n${dropped}\n` : ''}`;
}

/** What the generation explored, in a line: actions, states, latency, limit, and what it left out. */
export function explorationLine(e: ExplorationSummary): string {
  return (
    `Explored ${e.actions} of ${e.maxActions} actions in ${e.states} states in ${seconds(e.elapsedMs)} ` +
    `(page latency ${e.latencyMs} ms, time limit ${seconds(e.timeLimitMs)}); ended: ${e.ended}` +
    (e.skipped.length ? `; not tried: ${e.skipped.join('; ')}` : '')
  );
}
