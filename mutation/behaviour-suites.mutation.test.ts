/**
 * The mutation test of generated suites (`npm run test:mutation`; README "Mutation test"): for each
 * fixture app and for full and command mode, the suite generated on the clean app must pass twice on
 * it (no false alarm, nothing flaky) and catch at least 90 % of the app's planted bugs. Then rows run
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
 * Apps held to another bar: the desk, behind a sign-in with its data shared by every session of the
 * account (and by the cases of a run, two at once), 80 % (mutation/README.md).
 */
const MIN_SCORES: Partial<Record<FixtureApp, number>> = { desk: 0.8 };
/**
 * Rows run again under CPU load (`app:mode`, comma-separated; empty for none). @default "todo:full"
 * (one row keeps CI's time in bounds; any row can be asked for).
 */
const LOADED_ROWS = (process.env.MUTATION_LOADED ?? 'todo:full')
  .split(',')
  .map((r) => r.trim())
  .filter(Boolean)
  .map((r) => {
    const [app, mode] = r.split(':') as [FixtureApp, 'full' | 'command'];
    if (!COMMANDS[app] || (mode !== 'full' && mode !== 'command'))
      throw new Error(`MUTATION_LOADED rows are app:mode (todo:full, cart:command…), not "${r}"`);
    return { app, mode };
  });
/** The idle reports of this run, by `app:mode`, for the loaded rows to be compared with. */
const idle = new Map<string, MutationReport>();
/** Cases of one run at once, and bug runs at once (each on its own instance of the app). */
const PARALLELISM = 2;
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
  ],
)('a suite generated for the %s app', (app) => {
  it.each(['full', 'command'] as const)(
    `in %s mode passes twice on the clean app and catches at least ${Math.round((MIN_SCORES[app] ?? MIN_SCORE) * 100)} % of the planted bugs`,
    async (mode) => {
      const report = await measure(app, mode, '');
      idle.set(`${app}:${mode}`, report);
      expectSound(report);
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

async function measure(app: FixtureApp, mode: 'full' | 'command', suffix: string): Promise<MutationReport> {
  const report = await measureMutationScore(pool, app, {
    command: mode === 'command' ? COMMANDS[app] : undefined,
    parallelism: PARALLELISM,
    bugsAtOnce: BUGS_AT_ONCE,
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
  expect(report.flaky, 'tests whose outcome changed between two clean runs').toEqual([]);
  const missed = report.bugs.filter((b) => !b.caught).map((b) => b.bug);
  expect(report.score, `missed: ${missed.join(', ')}`).toBeGreaterThanOrEqual(
    MIN_SCORES[report.app] ?? MIN_SCORE,
  );
}
