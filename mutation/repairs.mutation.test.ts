/**
 * Repairs on a redesign (mutation/README.md "Repairs on a redesign", issue 39), CI's `repairs` project:
 * for each fixture app with a redesign, the suite generated on the original design is run on the
 * redesign and its failures handed to `proposeRepair` (the built-in engine). Required:
 * - repairs proposed (verdict `repair`) for at least 90 % of those failures;
 * - the repaired suite passes on the redesign twice with no false failure;
 * - with each planted bug on the redesign, the repaired suite catches every bug the original suite
 *   caught on the original (score after ≥ before: no bug healed away);
 * - with each planted bug and no redesign, every failure of the original suite is labelled a bug.
 * Each report is printed and written to mutation/artifacts/repairs-<app>.md.
 *
 *   REPAIR_APPS=todo npx vitest run --project repairs mutation/repairs.mutation.test.ts
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserPool, proposeRepair, TargetPolicy } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS_ROOT } from '../fixtures/apps/serve';
import type { FixtureApp } from './mutation-score';
import { formatRepairReport, measureRepairs } from './repair-runs';

// The mutation project's glob takes this file too: it runs only in the repairs project, which sets this.
const IN_REPAIRS_PROJECT = process.env.ARGUS_REPAIRS_CHECK === '1';
const ARTIFACTS = join(import.meta.dirname, 'artifacts');
/** Repairs proposed for at least 90 % of the failures the redesign causes (issue 39). */
const MIN_PROPOSED = 0.9;
const PARALLELISM = 2;
const BUGS_AT_ONCE = Number(process.env.REPAIR_BUGS_AT_ONCE ?? 2);
/** `REPAIR_STAGES=redesign`: the redesign's verdicts and repaired runs only, the bug checks skipped. */
const REDESIGN_ONLY = process.env.REPAIR_STAGES === 'redesign';
const APPS = (process.env.REPAIR_APPS ?? 'todo,cart,shelf,pantry,ledger,desk,clinic')
  .split(',')
  .map((a) => a.trim())
  .filter(Boolean) as FixtureApp[];

/** Whether the app has a redesign yet: a `redesign…` or `…-redesign…` file in its folder. */
function hasRedesign(app: FixtureApp): boolean {
  const folder = join(APPS_ROOT, app);
  return existsSync(folder) && readdirSync(folder).some((f) => /(^|-)redesign/.test(f));
}

let pool: BrowserPool;
beforeAll(() => {
  if (!IN_REPAIRS_PROJECT) return;
  pool = new BrowserPool({
    policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
    maxContexts: PARALLELISM * (BUGS_AT_ONCE + 1) + 2,
  });
  mkdirSync(ARTIFACTS, { recursive: true });
});
afterAll(() => pool?.close());

describe.skipIf(!IN_REPAIRS_PROJECT)('repairs on the redesigns', () => {
  describe.each(APPS)('the %s app’s suite, on its redesign', (app) => {
    // An app whose redesign is not written yet is skipped, and says so in the test's name.
    it.skipIf(!hasRedesign(app))(
      `${hasRedesign(app) ? '' : '(no redesign yet, skipped) '}gets repairs for ≥ ${MIN_PROPOSED * 100} % of its failures, passes twice repaired, heals no bug away, and labels every failure a bug causes a bug`,
      async () => {
        const report = await measureRepairs(pool, app, proposeRepair, {
          parallelism: PARALLELISM,
          bugsAtOnce: BUGS_AT_ONCE,
          redesignOnly: REDESIGN_ONLY,
          onProgress: (m) => console.log(m),
        });
        const text = formatRepairReport(report);
        console.log(text);
        writeFileSync(join(ARTIFACTS, `repairs-${app}.md`), text);
        writeFileSync(join(ARTIFACTS, `repairs-${app}.json`), JSON.stringify(report, null, 2));

        expect(report.redesign.length, 'the redesign breaks some generated cases').toBeGreaterThan(0);
        const unrepaired = report.redesign.filter((v) => v.verdict !== 'repair');
        expect(
          report.proposedShare,
          `no repair for: ${unrepaired.map((v) => `${v.test} (${v.verdict}: ${v.summary})`).join('; ')}`,
        ).toBeGreaterThanOrEqual(MIN_PROPOSED);
        expect(
          report.repairedRuns.map((run) => run.length),
          'false failures of the repaired suite',
        ).toEqual([0, 0]);
        if (REDESIGN_ONLY) return;
        const healed = report.bugs
          .filter((b) => b.before.length > 0 && b.after.length === 0)
          .map((b) => b.bug);
        expect(healed, 'bugs the original suite caught that the repaired suite misses').toEqual([]);
        expect(report.scoreAfter).toBeGreaterThanOrEqual(report.scoreBefore);
        const notBug = report.bugs.flatMap((b) =>
          b.verdicts.filter((v) => v.verdict !== 'bug').map((v) => `${b.bug}: ${v.test} got ${v.verdict}`),
        );
        expect(notBug, 'failures a planted bug caused that were not labelled a bug').toEqual([]);
      },
    );
  });
});
