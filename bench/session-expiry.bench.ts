/**
 * Expired sessions mid-run (not a test; issue 35): `node --import tsx bench/session-expiry.bench.ts`.
 *
 * A server-rendered app behind a credentials sign-in whose sessions live 10–15 s each (drawn per
 * sign-in; `startExpiringApp` in @argus/engine/testing), and a suite of six signed-in cases that add
 * items by form post, toggle them by fetch and check them after a reload, with pauses between filling
 * a form and posting it, so that expiries fall on actions as they do on a real app. The suite runs
 * BENCH_RUNS times (default 3) at parallelism 2 through `SignInLanes` (a sign-in per lane, as runs
 * do) with the runner's renewal; each run starts with fresh sign-ins. Reported per run: cases failed (with their errors), expiries
 * survived mid-case (the log's "Session expired during step N"), sign-ins, and every item a case made
 * counted on the server (exactly one each: a redone step never makes it twice).
 *
 * BENCH_CONTROL=1 adds one run without renewal, to show the expiries do break cases when nothing
 * survives them. BENCH_LIFETIME_MS="10000,15000" changes the session lifetime.
 */
import { cpus, loadavg } from 'node:os';
import { BrowserPool, runTestCase, SignInLanes, TargetPolicy, type TestOutcome } from '@argus/engine';
import { startExpiringApp } from '@argus/engine/testing';
import { TestCaseSchema } from '@argus/protocol';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONTROL = process.env.BENCH_CONTROL === '1';
const [minLife, maxLife] = (process.env.BENCH_LIFETIME_MS ?? '10000,15000').split(',').map(Number);
const PARALLEL = 2;

/** Each case, and the titles of the items it makes (`{{RUN_ID}}` is the case's own id). */
const SUITE: { name: string; steps: string[]; makes: string[] }[] = [
  {
    name: 'Adding an item by the form shows it',
    steps: [
      'Navigate to /items',
      'Fill "Title" with "Buy milk {{RUN_ID}}"',
      'Wait 4 seconds',
      'Click button "Add"',
      'Verify text "Buy milk {{RUN_ID}}" is visible',
    ],
    makes: ['Buy milk {{RUN_ID}}'],
  },
  {
    name: 'Ticking an item is kept after a reload',
    steps: [
      'Navigate to /items',
      'Fill "Title" with "Call the bank {{RUN_ID}}"',
      'Click button "Add"',
      'Wait 4 seconds',
      'Check the checkbox in "Call the bank {{RUN_ID}}"',
      'Reload',
      'Verify the checkbox in "Call the bank {{RUN_ID}}" is checked',
    ],
    makes: ['Call the bank {{RUN_ID}}'],
  },
  {
    name: 'Adding two items shows both',
    steps: [
      'Navigate to /items',
      'Fill "Title" with "Pay rent {{RUN_ID}}"',
      'Click button "Add"',
      'Wait 3 seconds',
      'Fill "Title" with "Book flights {{RUN_ID}}"',
      'Wait 2 seconds',
      'Click button "Add"',
      'Verify text "Pay rent {{RUN_ID}}" is visible',
      'Verify text "Book flights {{RUN_ID}}" is visible',
    ],
    makes: ['Pay rent {{RUN_ID}}', 'Book flights {{RUN_ID}}'],
  },
  {
    name: 'Unticking an item is kept after a reload',
    steps: [
      'Navigate to /items',
      'Fill "Title" with "Feed the cat {{RUN_ID}}"',
      'Click button "Add"',
      'Check the checkbox in "Feed the cat {{RUN_ID}}"',
      'Wait 4 seconds',
      'Uncheck the checkbox in "Feed the cat {{RUN_ID}}"',
      'Reload',
      'Verify the checkbox in "Feed the cat {{RUN_ID}}" is not checked',
    ],
    makes: ['Feed the cat {{RUN_ID}}'],
  },
  {
    name: 'The seeded items are listed',
    steps: ['Navigate to /items', 'Wait 3 seconds', 'Reload', 'Verify text "Water the plants" is visible'],
    makes: [],
  },
  {
    name: 'An item added after a pause is shown after a reload',
    steps: [
      'Navigate to /items',
      'Wait 3 seconds',
      'Fill "Title" with "Fix the tap {{RUN_ID}}"',
      'Wait 3 seconds',
      'Click button "Add"',
      'Reload',
      'Verify text "Fix the tap {{RUN_ID}}" is visible',
    ],
    makes: ['Fix the tap {{RUN_ID}}'],
  },
];

const app = await startExpiringApp({ lifetimeMs: [minLife, maxLife] });
const pool = new BrowserPool({
  policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
  maxContexts: PARALLEL + 1,
});
const variables = {
  source: 'environment "bench" of project "Items"',
  values: new Map([
    ['EMAIL', { value: app.account.email, secret: false }],
    ['PASSWORD', { value: app.account.password, secret: true }],
  ]),
};

interface RunResult {
  failed: { name: string; error: string }[];
  /** Each expiry survived mid-case: the case and its log line. */
  expiries: string[];
  signIns: number;
  /** Items a case made that the server holds other than exactly once. */
  miscounted: string[];
  seconds: number;
}

async function runSuite(renew: boolean): Promise<RunResult> {
  app.reset();
  const started = Date.now();
  const sessions = new SignInLanes(
    pool,
    { mode: 'credentials', loginUrl: '/login', username: 'EMAIL', password: 'PASSWORD' },
    { baseUrl: app.url, variables, maxLanes: PARALLEL },
  );
  await sessions.start();
  const results: { name: string; outcome: TestOutcome; made: string[] }[] = [];
  const queue = [...SUITE];
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const one = next;
        let runId = '';
        const outcome = await runTestCase(
          sessions,
          TestCaseSchema.parse({ test_name: one.name, steps: one.steps }),
          {
            baseUrl: app.url,
            variables,
            renewal: renew ? sessions.renewal : undefined,
            screenshots: false,
            onSession: (session) => {
              runId = session.runId;
            },
          },
        );
        results.push({ name: one.name, outcome, made: one.makes.map((t) => t.replace('{{RUN_ID}}', runId)) });
      }
    }),
  );
  const held = app.items();
  return {
    failed: results
      .filter((r) => r.outcome.status === 'failed')
      .map((r) => ({ name: r.name, error: r.outcome.error ?? '' })),
    expiries: results.flatMap((r) =>
      r.outcome.logs
        .filter((l) => l.message.startsWith('Session expired during step'))
        .map((l) => `${r.name}: ${l.message.replace(app.url, '')}`),
    ),
    signIns: app.signIns(),
    miscounted: results
      .filter((r) => r.outcome.status === 'passed')
      .flatMap((r) => r.made)
      .filter((title) => held.filter((i) => i.title === title).length !== 1),
    seconds: (Date.now() - started) / 1000,
  };
}

console.log(
  `Session expiry: ${SUITE.length} signed-in cases at parallelism ${PARALLEL}, sessions of ${minLife / 1000}–${maxLife / 1000} s; ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}`,
);
let failures = 0;
let expiries = 0;
try {
  for (let run = 1; run <= RUNS; run++) {
    const result = await runSuite(true);
    failures += result.failed.length;
    expiries += result.expiries.length;
    console.log(
      `run ${run}: ${SUITE.length - result.failed.length}/${SUITE.length} passed, ${result.expiries.length} expiries survived mid-case, ${result.signIns} sign-ins, items made not exactly once: ${result.miscounted.length}, ${result.seconds.toFixed(1)} s`,
    );
    for (const f of result.failed) console.log(`  failed: ${f.name}: ${f.error}`);
    for (const line of result.expiries) console.log(`  ${line}`);
    for (const title of result.miscounted) console.log(`  not exactly once on the server: ${title}`);
  }
  console.log(`over ${RUNS} runs: ${failures} failures, ${expiries} expiries survived`);
  if (CONTROL) {
    const result = await runSuite(false);
    console.log(
      `control (no renewal): ${SUITE.length - result.failed.length}/${SUITE.length} passed, ${result.seconds.toFixed(1)} s`,
    );
    for (const f of result.failed) console.log(`  failed: ${f.name}: ${f.error}`);
  }
} finally {
  await pool.close();
  await app.close();
}
process.exitCode = failures > 0 ? 1 : 0;
