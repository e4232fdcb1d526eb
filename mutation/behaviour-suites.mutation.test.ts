/**
 * The mutation test of generated suites (`npm run test:mutation`; README "Mutation test"): for each
 * fixture app and for full and command mode, the suite generated on the clean app must pass five
 * times at parallelism 2 on a fresh instance of it (no false alarm, nothing flaky) and catch at least
 * 90 % of the app's planted bugs; the newest apps also at parallelism 4. Then rows run
 * again with every core held busy by `cpu-load.ts` and must generate as many tests and catch as many
 * bugs as they did idle. Each report is printed and written to mutation/artifacts/<app>-<mode>.md
 * (and its cases to <app>-<mode>.cases.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserPool, TargetPolicy } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCpuLoad } from './cpu-load';
import {
  COMMANDS,
  type FixtureApp,
  formatReport,
  type MutationReport,
  measureMutationScore,
} from './mutation-score';

const ARTIFACTS = join(import.meta.dirname, 'artifacts');
/** At least 90 % of the planted bugs caught by a suite nobody edited (docs/TESTING.md). */
const MIN_SCORE = 0.9;
/**
 * Apps held to another bar (mutation/README.md): the desk, behind a sign-in, 80 % (it measures 92 %
 * with its pool of two accounts); the two newest apps, a floor (below).
 */
const MIN_SCORES: Partial<Record<FixtureApp, number>> = {
  desk: 0.8,
  // The two apps built for issue 35, held for now to a floor under what they measured (pantry 6/13 in
  // both modes; clinic 6/14 in full mode and 5/14 in command mode, 2026-11-28), a bug or two of
  // margin, so that a regression still fails: the explorer does not yet try refused input (a duplicate
  // or too long name, an empty required field), an edit's target, or a second tab. Raising them to
  // 90 % is open work (issue 35's closing note).
  pantry: 0.35,
  clinic: 0.25,
};
/**
 * Rows run again under CPU load (`app:mode`, comma-separated; empty for none). @default "todo:full"
 * (one row keeps CI's time in bounds; any row can be asked for).
 */
const LOADED_ROWS = rows(process.env.MUTATION_LOADED ?? 'todo:full', 'MUTATION_LOADED');
/** The idle reports of this run, by `app:mode`, for the loaded rows to be compared with. */
const idle = new Map<string, MutationReport>();
/** Cases of one run at once, and bug runs at once (each on its own instance of the app). */
const PARALLELISM = 2;
/** Clean runs of each suite (MUTATION_CLEAN_RUNS); any failure in any of them is a false alarm. */
const CLEAN_RUNS = Number(process.env.MUTATION_CLEAN_RUNS ?? 5);
/**
 * Rows run again with 4 cases at once (`app:mode`, comma-separated; empty for none), each lane signed
 * in on its own: more lanes than the app has accounts. @default "clinic:full" (the app whose account
 * pool the lanes outnumber; `pantry:full` too found a flaky case once: any row can be asked for).
 */
const WIDE_ROWS = rows(process.env.MUTATION_WIDE ?? 'clinic:full', 'MUTATION_WIDE');
/**
 * The apps whose suite is also generated from a command (`COMMANDS`), comma-separated. @default
 * "todo,desk" (one open app and one behind a login). Every row costs 1.5 to 7.5 minutes of CI's
 * 90: with all seven apps in both modes the project took 66 minutes (stop 43), so the other apps'
 * command rows are asked for by hand (`MUTATION_COMMAND_APPS=todo,cart,shelf,ledger,desk,pantry,clinic`).
 */
const COMMAND_APPS = new Set(
  (process.env.MUTATION_COMMAND_APPS ?? 'todo,desk').split(',').filter((a) => a.trim() !== ''),
);
const BUGS_AT_ONCE = Number(process.env.MUTATION_BUGS_AT_ONCE ?? 4);
if (!Number.isInteger(BUGS_AT_ONCE) || BUGS_AT_ONCE < 1) {
  throw new Error(
    `MUTATION_BUGS_AT_ONCE must be a whole number >= 1, not "${process.env.MUTATION_BUGS_AT_ONCE}"`,
  );
}

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({
    policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
    maxContexts: PARALLELISM * BUGS_AT_ONCE,
  });
  mkdirSync(ARTIFACTS, { recursive: true });
});
afterAll(() => pool?.close());

describe.each<FixtureApp>(
  (process.env.MUTATION_APPS?.split(',') as FixtureApp[] | undefined) ?? [
    'todo',
    'cart',
    'shelf',
    'ledger',
    'desk',
    'pantry',
    'clinic',
  ],
)('a suite generated for the %s app', (app) => {
  it.each(COMMAND_APPS.has(app) ? (['full', 'command'] as const) : (['full'] as const))(
    `in %s mode passes ${CLEAN_RUNS} times on the fresh clean app at parallelism ${PARALLELISM} and catches at least ${Math.round((MIN_SCORES[app] ?? MIN_SCORE) * 100)} % of the planted bugs`,
    async (mode) => {
      const report = await measure(app, mode, '');
      idle.set(`${app}:${mode}`, report);
      expectSound(report);
    },
  );
});

describe.skipIf(WIDE_ROWS.length === 0)('with 4 cases at once, each lane signed in on its own', () => {
  it.each(WIDE_ROWS)(
    'the $app app in $mode mode passes every clean run and catches its bugs',
    async ({ app, mode }) => {
      expectSound(await measure(app, mode, '-p4', 4));
    },
  );
});

// MUTATION_LOADED= (empty) runs no loaded row: the block is skipped rather than left without a test.
describe.skipIf(LOADED_ROWS.length === 0)(
  'on a machine whose every core is busy (cpu-load.ts: one spinning thread per core)',
  () => {
    it.each(LOADED_ROWS)(
      'the $app app in $mode mode generates as many tests and catches as many bugs as idle',
      async ({ app, mode }) => {
        const before = idle.get(`${app}:${mode}`) ?? (await measure(app, mode, ''));
        const stop = startCpuLoad();
        let report: MutationReport;
        try {
          report = await measure(app, mode, '-loaded');
        } finally {
          await stop();
        }
        expectSound(report);
        const names = (r: MutationReport) => r.cases.map((c) => c.test_name);
        expect(names(report), 'the tests generated idle, and no other').toEqual(names(before));
        const caught = (r: MutationReport) => r.bugs.filter((b) => b.caught).map((b) => b.bug);
        expect(caught(report), 'the bugs caught idle, and no other').toEqual(caught(before));
      },
    );
  },
);

async function measure(
  app: FixtureApp,
  mode: 'full' | 'command',
  suffix: string,
  parallelism = PARALLELISM,
): Promise<MutationReport> {
  const report = await measureMutationScore(pool, app, {
    command: mode === 'command' ? COMMANDS[app] : undefined,
    parallelism,
    cleanRuns: CLEAN_RUNS,
    // The pool holds PARALLELISM × BUGS_AT_ONCE contexts: wider rows run fewer bugs at once.
    bugsAtOnce: Math.max(1, Math.floor((BUGS_AT_ONCE * PARALLELISM) / parallelism)),
    onProgress: (m) => console.log(m),
  });
  const text = formatReport(report);
  console.log(text);
  writeFileSync(join(ARTIFACTS, `${app}-${mode}${suffix}.md`), text);
  // The cases themselves, to read why a bug was missed.
  writeFileSync(join(ARTIFACTS, `${app}-${mode}${suffix}.cases.json`), JSON.stringify(report.cases, null, 2));
  return report;
}

/** Some tests, none failing on the clean app, none flaky, at least MIN_SCORE of the bugs caught. */
function expectSound(report: MutationReport): void {
  expect(report.cases.length).toBeGreaterThan(0);
  expect(report.falseFailures, 'tests that fail on the clean app').toEqual([]);
  expect(report.flaky, 'tests whose outcome changed between the clean runs').toEqual([]);
  const missed = report.bugs.filter((b) => !b.caught).map((b) => b.bug);
  expect(report.score, `missed: ${missed.join(', ')}`).toBeGreaterThanOrEqual(
    MIN_SCORES[report.app] ?? MIN_SCORE,
  );
}

/** `app:mode` rows of an environment variable (comma-separated; empty for none). */
function rows(value: string, variable: string): { app: FixtureApp; mode: 'full' | 'command' }[] {
  return value
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => {
      const [app, mode] = r.split(':') as [FixtureApp, 'full' | 'command'];
      if (!COMMANDS[app] || (mode !== 'full' && mode !== 'command'))
        throw new Error(`${variable} rows are app:mode (todo:full, cart:command…), not "${r}"`);
      return { app, mode };
    });
}
