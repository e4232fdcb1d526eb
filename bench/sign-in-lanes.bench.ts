/**
 * What a session per lane costs and what it saves (not a test; issue 35):
 * `node --import tsx bench/sign-in-lanes.bench.ts`.
 *
 * The clinic fixture app (server-side sessions with flash messages and a CSRF token per form, an
 * account pool of two) and a suite of eight cases that each book an appointment and read the flash
 * "Appointment booked." the next page shows. The suite runs BENCH_RUNS times (default 5) at each
 * parallelism of BENCH_PARALLEL (default "2,4"), in the same process, two ways:
 * - shared: one sign-in for the run, every case from its storage state (`SignedInSessions`, what
 *   runs did before), so cases at once share one server session;
 * - lanes: `SignInLanes`, a sign-in per lane (an account of its own while the pool lasts).
 * Reported per way: cases failed, the suite's time (median of the runs), sign-ins and their time.
 */
import { cpus, loadavg } from 'node:os';
import {
  BrowserPool,
  type LaneSignIn,
  runTestCase,
  type SessionOpener,
  type SessionRenewal,
  SignedInSessions,
  SignInLanes,
  type SignInPlan,
  type StepVariables,
  TargetPolicy,
} from '@argus/engine';
import { TestCaseSchema } from '@argus/protocol';
import { CLINIC_POOL_VARIABLES, serveFixtureApp } from '../fixtures/apps/serve';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PARALLEL = (process.env.BENCH_PARALLEL ?? '2,4').split(',').map(Number);
const PLAN: SignInPlan = { mode: 'credentials', loginUrl: '/login', username: 'EMAIL', password: 'PASSWORD' };
const variables: StepVariables = {
  source: 'the clinic bench',
  values: new Map(
    Object.entries(CLINIC_POOL_VARIABLES).map(([name, value]) => [
      name,
      { value, secret: name.startsWith('PASSWORD') },
    ]),
  ),
};
const SUITE = Array.from({ length: 8 }, (_, i) =>
  TestCaseSchema.parse({
    test_name: `Booking patient ${i + 1} says so`,
    steps: [
      'Navigate to /appointments/new',
      `Fill "Patient name" with "Patient ${i + 1} {{RUN_ID}}"`,
      'Fill "Reason for visit" with "Check-up"',
      'Click button "Book appointment"',
      'Verify text "Appointment booked." is visible',
    ],
  }),
);

const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 4 });
const clinic = await serveFixtureApp('clinic');
const base = `${clinic.url}/`;

type Opener = SessionOpener & { renewal?: SessionRenewal };

/** One run of the suite at `parallel`: failures and seconds. */
async function runOnce(opener: Opener, parallel: number): Promise<{ failed: number; seconds: number }> {
  const started = performance.now();
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < SUITE.length) {
        const outcome = await runTestCase(opener, SUITE[next++], {
          baseUrl: base,
          screenshots: false,
          stepTimeoutMs: 4_000,
          renewal: opener.renewal,
        });
        if (outcome.status === 'failed') failed++;
      }
    }),
  );
  return { failed, seconds: (performance.now() - started) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(
  `cores ${cpus().length}, load ${loadavg()[0].toFixed(1)}; ${RUNS} runs of ${SUITE.length} cases each`,
);
for (const parallel of PARALLEL) {
  for (const way of ['shared', 'lanes'] as const) {
    const signIns: LaneSignIn[] = [];
    let opener: Opener;
    const signInStart = performance.now();
    if (way === 'shared') {
      const shared = new SignedInSessions(pool, PLAN, { baseUrl: base, variables });
      await shared.start();
      signIns.push({ lane: 1, account: null, ms: Math.round(performance.now() - signInStart) });
      opener = shared;
    } else {
      const lanes = new SignInLanes(pool, PLAN, {
        baseUrl: base,
        variables,
        maxLanes: parallel,
        onSignedIn: (s) => signIns.push(s),
      });
      await lanes.start();
      opener = lanes;
    }
    const runs = [];
    for (let r = 0; r < RUNS; r++) runs.push(await runOnce(opener, parallel));
    const failed = runs.reduce((n, r) => n + r.failed, 0);
    const ms = signIns.map((s) => s.ms);
    console.log(
      `parallelism ${parallel}, ${way.padEnd(6)}: ${failed} of ${RUNS * SUITE.length} cases failed; ` +
        `suite ${median(runs.map((r) => r.seconds)).toFixed(1)} s (median); ` +
        `${signIns.length} sign-in${signIns.length === 1 ? '' : 's'} of ${median(ms)} ms (median)` +
        (way === 'lanes' ? `, accounts ${signIns.map((s) => s.account ?? '-').join(', ')}` : ''),
    );
  }
}
await pool.close();
await clinic.close();
