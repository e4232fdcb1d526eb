import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGroupsSql, sightingsSql } from './failure-groups';
import { type Database, testEngines } from './index';
import { type TwoUsers, twoUserDatabase } from './repository-fixture';
import { projects, savedSuites, testResults, testRuns } from './schema';

// Failures grouped by fingerprint across runs (docs/DIAGNOSTICS.md): the rows H2a's run end writes
// (test_results.failure_*) are inserted here directly, on runs of two projects of alice's and one of bob's.

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T08:00:00Z');
const NOW = new Date(T0 + 6 * DAY);
const at = (days: number, hours = 0) => new Date(T0 + days * DAY + hours * 3_600_000);
const A = 'aaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbb';
const C = 'cccccccccccccccc';
const D = 'dddddddddddddddd';

interface Failing {
  name: string;
  fingerprint?: string;
  kind?: string;
}

describe.each(testEngines())('failure groups on $name', ({ name: engine, open }) => {
  let db: Database;
  let repos: TwoUsers['repos'];
  let alice: string;
  let bob: string;
  const fixture = twoUserDatabase(open);
  const shop = randomUUID();
  const blog = randomUUID();
  const bobs = randomUUID();
  const checkout = randomUUID();
  const search = randomUUID();
  const posts = randomUUID();
  const bobSuite = randomUUID();
  const runs: Record<string, string> = {};

  /** A run of `suite` in `project` at `when` with these cases (a fingerprint marks a failure). */
  async function run(
    key: string,
    owner: string,
    where: { project: string | null; suite: string | null; url?: string; name?: string },
    when: Date,
    cases: Failing[],
    status = 'completed',
  ) {
    const id = randomUUID();
    runs[key] = id;
    await db.orm.insert(testRuns).values({
      id,
      user_id: owner,
      url: where.url ?? 'https://shop.example',
      test_suite_name: where.name ?? null,
      status,
      project_id: where.project,
      suite_id: where.suite,
      created_at: when,
    });
    if (cases.length === 0) return;
    await db.orm.insert(testResults).values(
      cases.map((c, i) => ({
        id: randomUUID(),
        test_run_id: id,
        user_id: owner,
        test_case_name: c.name,
        status: c.fingerprint ? 'failed' : 'passed',
        failure_kind: c.fingerprint ? (c.kind ?? 'assertion') : null,
        failure_fingerprint: c.fingerprint ?? null,
        failure_summary: c.fingerprint ? `summary of ${c.fingerprint.slice(0, 1)} in ${key}` : null,
        created_at: new Date(when.getTime() + (i + 1) * 1000),
      })),
    );
  }

  beforeAll(async () => {
    ({ db, repos, alice, bob } = await fixture.open());
    await db.orm.insert(projects).values([
      { id: shop, user_id: alice, name: 'Shop', kind: 'web' },
      { id: blog, user_id: alice, name: 'Blog', kind: 'web' },
      { id: bobs, user_id: bob, name: 'Shop', kind: 'web' },
    ]);
    await db.orm.insert(savedSuites).values([
      { id: checkout, project_id: shop, user_id: alice, name: 'Checkout' },
      { id: search, project_id: shop, user_id: alice, name: 'Search' },
      { id: posts, project_id: blog, user_id: alice, name: 'Posts' },
      { id: bobSuite, project_id: bobs, user_id: bob, name: 'Checkout' },
    ]);
    const inCheckout = { project: shop, suite: checkout };
    const inSearch = { project: shop, suite: search };
    await run('r1', alice, inCheckout, at(1), [{ name: 'Pay', fingerprint: A }, { name: 'Refund' }]);
    await run('r2', alice, inCheckout, at(2), [
      { name: 'Pay', fingerprint: A },
      { name: 'Refund', fingerprint: B },
    ]);
    await run('r3', alice, inCheckout, at(3), [{ name: 'Pay' }, { name: 'Refund', fingerprint: A }]);
    await run('r4', alice, inCheckout, at(4), [
      { name: 'Pay', fingerprint: A, kind: 'app_error' },
      { name: 'Refund' },
    ]);
    // Still running: not the suite's latest finished run, so C is not open.
    await run('r5', alice, inCheckout, at(5), [{ name: 'Pay', fingerprint: C }], 'running');
    await run('s1', alice, inSearch, at(2, 1), [{ name: 'Find', fingerprint: B }]);
    await run('s2', alice, inSearch, at(3), [{ name: 'Find' }]);
    // A run outside any saved suite: its latest run of (project, address, name) counts.
    await run('adhoc', alice, { project: shop, suite: null, name: 'Ad hoc' }, at(4, 2), [
      { name: 'Look', fingerprint: D, kind: 'not_found' },
    ]);
    await run('p1', alice, { project: blog, suite: posts }, at(4, 3), [{ name: 'Read', fingerprint: A }]);
    // Bob's runs fail the same way; they are his.
    await run('b1', bob, { project: bobs, suite: bobSuite }, at(5), [{ name: 'Pay', fingerprint: A }]);
    await run('b2', bob, { project: bobs, suite: bobSuite }, at(5, 1), [{ name: 'Pay', fingerprint: A }]);
  }, 60_000);
  afterAll(() => fixture.close());

  it("counts a fingerprint's distinct runs in the project, with its first and last run", async () => {
    const found = await repos.failureGroups.sightings(alice, shop, [A, B, 'eeeeeeeeeeeeeeee', A]);
    const byPrint = Object.fromEntries(found.map((s) => [s.fingerprint, s]));
    expect(Object.keys(byPrint).sort()).toEqual([A, B]);
    expect(byPrint[A]).toEqual({
      fingerprint: A,
      runs: 4,
      first_run_id: runs.r1,
      first_seen_at: at(1),
      last_run_id: runs.r4,
      last_seen_at: at(4),
    });
    expect(byPrint[B]).toMatchObject({ runs: 2, first_run_id: runs.r2, last_run_id: runs.s1 });
  });

  it("counts only the project's runs, and only the owner's", async () => {
    expect(await repos.failureGroups.sightings(alice, blog, [A])).toMatchObject([{ runs: 1 }]);
    expect(await repos.failureGroups.sightings(bob, bobs, [A])).toMatchObject([
      { runs: 2, first_run_id: runs.b1 },
    ]);
    expect(await repos.failureGroups.sightings(bob, shop, [A])).toEqual([]);
    expect(await repos.failureGroups.sightings(alice, 'not-a-uuid', [A])).toEqual([]);
    expect(await repos.failureGroups.sightings(alice, shop, [])).toEqual([]);
  });

  it('lists the groups failing in the latest finished run of their suite, last seen first', async () => {
    const groups = await repos.failureGroups.openGroups(alice, { projectId: shop, limit: 50 }, NOW);
    expect(groups.map((g) => g.fingerprint)).toEqual([D, A]);
    const [adhoc, pay] = groups;
    expect(adhoc).toMatchObject({ project_id: shop, kind: 'not_found', runs: 1, cases: ['Look'] });
    expect(pay).toEqual({
      fingerprint: A,
      project_id: shop,
      kind: 'app_error',
      summary: 'summary of a in r4',
      // The most recently failing case first.
      cases: ['Pay', 'Refund'],
      runs: 4,
      first_run_id: runs.r1,
      first_seen_at: at(1),
      last_run_id: runs.r4,
      last_seen_at: at(4),
    });
  });

  it("keeps each project's group apart, and another owner's out", async () => {
    const groups = await repos.failureGroups.openGroups(alice, { limit: 50 }, NOW);
    expect(groups.map((g) => [g.project_id, g.fingerprint, g.runs])).toEqual([
      [blog, A, 1],
      [shop, D, 1],
      [shop, A, 4],
    ]);
    const his = await repos.failureGroups.openGroups(bob, { limit: 50 }, NOW);
    expect(his.map((g) => [g.project_id, g.fingerprint, g.runs])).toEqual([[bobs, A, 2]]);
  });

  it('filters by the day last seen and answers at most `limit`', async () => {
    const since = await repos.failureGroups.openGroups(alice, { since: at(4, 1), limit: 50 }, NOW);
    expect(since.map((g) => g.fingerprint)).toEqual([A, D]);
    expect(since.map((g) => g.project_id)).toEqual([blog, shop]);
    expect(await repos.failureGroups.openGroups(alice, { limit: 1 }, NOW)).toHaveLength(1);
  });

  it('leaves out a run outside a saved suite older than the window it looks at', async () => {
    const later = new Date(NOW.getTime() + 40 * DAY);
    const groups = await repos.failureGroups.openGroups(alice, { projectId: shop, limit: 50 }, later);
    expect(groups.map((g) => g.fingerprint)).toEqual([A]);
  });

  it.runIf(engine === 'postgresql')(
    'reads sightings through the fingerprint index (PostgreSQL plan)',
    async () => {
      // On a handful of rows any plan is cheapest; with sequential scans priced out the planner shows
      // whether the partial index can answer both queries at all.
      const plans = await db.orm.transaction(async (tx) => {
        await tx.execute('SET LOCAL enable_seqscan = off');
        const explain = async (query: SQL) => {
          const { rows } = (await tx.execute(sql`EXPLAIN ${query}`)) as unknown as {
            rows: Record<string, string>[];
          };
          return rows.map((r) => Object.values(r)[0]).join('\n');
        };
        return [
          await explain(sightingsSql(alice, shop, [A, B])),
          await explain(openGroupsSql(alice, { limit: 50 }, NOW)),
        ];
      });
      for (const plan of plans) expect(plan).toContain('test_results_user_fingerprint_idx');
    },
  );
});
