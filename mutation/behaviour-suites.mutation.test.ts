/**
 * The mutation test of generated suites (`npm run test:mutation`; README "Mutation test"): for each
 * fixture app and for full and command mode, the suite generated on the clean app must pass twice on
 * it (no false alarm, nothing flaky) and catch at least 80 % of the app's planted bugs. Each report is
 * printed and written to mutation/artifacts/<app>-<mode>.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserPool, TargetPolicy } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, type FixtureApp, formatReport, measureMutationScore } from './mutation-score';

const ARTIFACTS = join(import.meta.dirname, 'artifacts');
/** The aim of issue 8: at least 80 % of the planted bugs caught by a suite nobody edited. */
const MIN_SCORE = 0.8;
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
  (process.env.MUTATION_APPS?.split(',') as FixtureApp[] | undefined) ?? ['todo', 'cart', 'shelf'],
)('a suite generated for the %s app', (app) => {
  it.each(['full', 'command'] as const)(
    'in %s mode passes twice on the clean app and catches at least 80 % of the planted bugs',
    async (mode) => {
      const report = await measureMutationScore(pool, app, {
        command: mode === 'command' ? COMMANDS[app] : undefined,
        parallelism: PARALLELISM,
        bugsAtOnce: BUGS_AT_ONCE,
        onProgress: (m) => console.log(m),
      });
      const text = formatReport(report);
      console.log(text);
      writeFileSync(join(ARTIFACTS, `${app}-${mode}.md`), text);
      expect(report.cases.length).toBeGreaterThan(0);
      expect(report.falseFailures, 'tests that fail on the clean app').toEqual([]);
      expect(report.flaky, 'tests whose outcome changed between two clean runs').toEqual([]);
      const missed = report.bugs.filter((b) => !b.caught).map((b) => b.bug);
      expect(report.score, `missed: ${missed.join(', ')}`).toBeGreaterThanOrEqual(MIN_SCORE);
    },
  );
});
