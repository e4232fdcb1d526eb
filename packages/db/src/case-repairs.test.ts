import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewCaseRepair } from './case-repairs';
import { type Database, testEngines } from './index';
import { type TwoUsers, twoUserDatabase } from './repository-fixture';
import { caseRepairs, projects, savedSuites, screenshots, testResults, testRuns } from './schema';

// Repair verdicts (docs/REPAIRS.md) as the run writes them and review decides them, owner-scoped, going
// with their run and their suite.

const T0 = Date.parse('2026-11-01T08:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

describe.each(testEngines())('case repairs on $name', ({ open }) => {
  let db: Database;
  let repos: TwoUsers['repos'];
  let alice: string;
  let bob: string;
  const fixture = twoUserDatabase(open);
  const shop = randomUUID();
  const suite = randomUUID();
  const other = randomUUID();
  const bobShop = randomUUID();
  const bobSuite = randomUUID();

  async function run(owner: string, suiteId: string, when: Date, cases: [string, string][]) {
    const id = randomUUID();
    await db.orm.insert(testRuns).values({
      id,
      user_id: owner,
      url: 'https://shop.example',
      status: 'completed',
      suite_id: suiteId,
      created_at: when,
    });
    for (const [i, [name, status]] of cases.entries()) {
      await db.orm.insert(testResults).values({
        id: randomUUID(),
        test_run_id: id,
        user_id: owner,
        test_case_name: name,
        status,
        steps: [
          { step_index: 0, description: 'Navigate to /', selector: null, url: 'https://shop.example/' },
        ],
        created_at: new Date(when.getTime() + (i + 1) * 1000),
      });
    }
    return id;
  }

  const repair = (runId: string, over: Partial<NewCaseRepair> = {}): NewCaseRepair => ({
    test_run_id: runId,
    project_id: shop,
    suite_id: suite,
    suite_version: 1,
    case_name: 'Add a task',
    case_index: 0,
    result_id: null,
    verdict: 'repair',
    status: 'proposed',
    step_index: 1,
    steps_before: ['Open /', 'Click "Add"'],
    steps_after: ['Open /', 'Click "Create task"'],
    diff: [],
    weakenings: [],
    evidence: { summary: 'Button "Add" is now "Create task"', signals: [], engine: 'built-in', proof: null },
    page_state: 'p1',
    before_screenshot_id: null,
    after_screenshot_id: null,
    ...over,
  });

  beforeAll(async () => {
    ({ db, repos, alice, bob } = await fixture.open());
    await db.orm.insert(projects).values([
      { id: shop, user_id: alice, name: 'Shop' },
      { id: bobShop, user_id: bob, name: 'Shop' },
    ]);
    await db.orm.insert(savedSuites).values([
      { id: suite, project_id: shop, user_id: alice, name: 'Tasks' },
      { id: other, project_id: shop, user_id: alice, name: 'Other' },
      { id: bobSuite, project_id: bobShop, user_id: bob, name: 'Tasks' },
    ]);
  }, 60_000);
  afterAll(() => fixture.close());

  it("finds a case's last passing result in its suite, flaky included, never another suite's or owner's", async () => {
    const r1 = await run(alice, suite, at(1), [['Add a task', 'passed']]);
    const r2 = await run(alice, suite, at(2), [['Add a task', 'flaky']]);
    await run(alice, suite, at(3), [['Add a task', 'failed']]);
    await run(alice, other, at(4), [['Add a task', 'passed']]);
    await run(bob, bobSuite, at(5), [['Add a task', 'passed']]);
    const last = await repos.caseRepairs.lastPassing(alice, suite, 'Add a task');
    expect(last?.run_id).toBe(r2);
    expect(last?.steps).toHaveLength(1);
    expect(r1).not.toBe(r2);
    expect(await repos.caseRepairs.lastPassing(alice, suite, 'Never passed')).toBeUndefined();
    expect(await repos.caseRepairs.lastPassing(bob, suite, 'Add a task')).toBeUndefined();
  });

  it('lists a run in case order and counts its proposals and bugs; another owner reads nothing', async () => {
    const runId = await run(alice, suite, at(10), [
      ['Add a task', 'failed'],
      ['Filter', 'failed'],
    ]);
    const bug = await repos.caseRepairs.add(
      alice,
      repair(runId, { case_name: 'Filter', case_index: 1, verdict: 'bug', status: 'none', steps_after: [] }),
    );
    const fix = await repos.caseRepairs.add(alice, repair(runId));
    expect((await repos.caseRepairs.forRun(alice, runId)).map((r) => r.id)).toEqual([fix.id, bug.id]);
    expect(await repos.caseRepairs.runCounts(alice, runId)).toEqual({ proposed: 1, bugs: 1 });
    expect(await repos.caseRepairs.forRun(bob, runId)).toEqual([]);
    expect(await repos.caseRepairs.get(bob, fix.id)).toBeUndefined();
    expect(await repos.caseRepairs.runCounts(bob, runId)).toEqual({ proposed: 0, bugs: 0 });
    expect(await repos.caseRepairs.resultOf(alice, runId, 'Filter')).toEqual(expect.any(String));
    expect(await repos.caseRepairs.resultOf(bob, runId, 'Filter')).toBeNull();
  });

  it('rejects a proposal once, and hands the rejected page state and steps to later repairs', async () => {
    const runId = await run(alice, suite, at(20), [['Rename', 'failed']]);
    const made = await repos.caseRepairs.add(alice, repair(runId, { case_name: 'Rename', page_state: 'p9' }));
    expect(await repos.caseRepairs.reject(bob, made.id, { decided_by: 'bob', reason: null })).toBeUndefined();
    const rejected = await repos.caseRepairs.reject(alice, made.id, {
      decided_by: 'alice',
      reason: 'Wrong button',
    });
    expect(rejected).toMatchObject({
      status: 'rejected',
      decided_by: 'alice',
      decision_reason: 'Wrong button',
    });
    expect(rejected?.decided_at).toBeInstanceOf(Date);
    // Decided: not rejected (or approved) again.
    expect(
      await repos.caseRepairs.reject(alice, made.id, { decided_by: 'alice', reason: null }),
    ).toBeUndefined();
    expect(
      await repos.caseRepairs.approve(alice, suite, [made.id], { decided_by: 'a', saved_version: 2 }),
    ).toEqual([]);
    expect(await repos.caseRepairs.rejected(alice, suite, 'Rename')).toEqual([
      { page_state: 'p9', after: ['Open /', 'Click "Create task"'] },
    ]);
    expect(await repos.caseRepairs.rejected(bob, suite, 'Rename')).toEqual([]);
  });

  it("approves proposals into a version and supersedes the same cases' other proposals", async () => {
    const first = await run(alice, suite, at(30), [['Checkout', 'failed']]);
    const second = await run(alice, suite, at(31), [['Checkout', 'failed']]);
    const a = await repos.caseRepairs.add(alice, repair(first, { case_name: 'Checkout' }));
    const b = await repos.caseRepairs.add(alice, repair(second, { case_name: 'Checkout' }));
    const elsewhere = await repos.caseRepairs.add(
      alice,
      repair(second, { case_name: 'Search', case_index: 1 }),
    );
    // Bob cannot approve alice's.
    expect(
      await repos.caseRepairs.approve(bob, suite, [a.id], { decided_by: 'bob', saved_version: 9 }),
    ).toEqual([]);
    const approved = await repos.caseRepairs.approve(alice, suite, [a.id, 'not-a-uuid'], {
      decided_by: 'alice',
      saved_version: 2,
    });
    expect(approved.map((r) => [r.id, r.status, r.saved_version])).toEqual([[a.id, 'approved', 2]]);
    expect((await repos.caseRepairs.get(alice, b.id))?.status).toBe('superseded');
    expect((await repos.caseRepairs.get(alice, elsewhere.id))?.status).toBe('proposed');
    const listed = await repos.caseRepairs.forSuite(alice, suite, { status: 'approved' });
    expect(listed.map((r) => r.id)).toEqual([a.id]);
    expect(await repos.caseRepairs.forSuite(bob, suite)).toEqual([]);
  });

  it("replaces a verdict in place, the owner's only, its id and place in the run kept", async () => {
    const runId = await run(alice, suite, at(35), [['Complete all', 'failed']]);
    const bug = await repos.caseRepairs.add(
      alice,
      repair(runId, { case_name: 'Complete all', verdict: 'bug', status: 'none', steps_after: [] }),
    );
    const fix = repair(runId, {
      case_name: 'Complete all',
      steps_after: ['Open /', 'Click "Finish everything"'],
      page_state: 'p2',
    });
    expect(await repos.caseRepairs.replace(bob, bug.id, fix)).toBeUndefined();
    expect(await repos.caseRepairs.replace(alice, 'not-a-uuid', fix)).toBeUndefined();
    expect((await repos.caseRepairs.get(alice, bug.id))?.verdict).toBe('bug');
    const replaced = await repos.caseRepairs.replace(alice, bug.id, fix);
    expect(replaced).toMatchObject({
      id: bug.id,
      verdict: 'repair',
      status: 'proposed',
      steps_after: ['Open /', 'Click "Finish everything"'],
      page_state: 'p2',
      decided_by: null,
    });
    expect(replaced?.created_at).toEqual(bug.created_at);
    expect((await repos.caseRepairs.forRun(alice, runId)).map((r) => [r.id, r.verdict])).toEqual([
      [bug.id, 'repair'],
    ]);
    expect(await repos.caseRepairs.runCounts(alice, runId)).toEqual({ proposed: 1, bugs: 0 });
  });

  it("names a step's screenshot, and goes with its run; a screenshot's run going clears the id", async () => {
    const passed = await run(alice, suite, at(40), [['Shot', 'passed']]);
    const failed = await run(alice, suite, at(41), [['Shot', 'failed']]);
    const shot = await repos.testRuns.addScreenshot(alice, {
      test_run_id: passed,
      test_case_name: 'Shot',
      step_name: 'Click "Add"',
      step_index: 2,
      sha256: 'a'.repeat(64),
      mime: 'image/jpeg',
      bytes: 10,
      width: 1,
      height: 1,
      metadata: {},
    });
    expect(await repos.caseRepairs.stepScreenshot(alice, passed, 'Shot', 2)).toBe(shot.id);
    expect(await repos.caseRepairs.stepScreenshot(alice, passed, 'Shot', 1)).toBeNull();
    expect(await repos.caseRepairs.stepScreenshot(bob, passed, 'Shot', 2)).toBeNull();
    const made = await repos.caseRepairs.add(
      alice,
      repair(failed, { case_name: 'Shot', before_screenshot_id: shot.id }),
    );
    await db.orm.delete(testRuns).where(eq(testRuns.id, passed));
    expect((await repos.caseRepairs.get(alice, made.id))?.before_screenshot_id).toBeNull();
    expect(await db.orm.select().from(screenshots).where(eq(screenshots.id, shot.id))).toEqual([]);
    await db.orm.delete(testRuns).where(eq(testRuns.id, failed));
    expect(await repos.caseRepairs.get(alice, made.id)).toBeUndefined();
  });

  it('goes with its suite', async () => {
    const gone = randomUUID();
    await db.orm.insert(savedSuites).values({ id: gone, project_id: shop, user_id: alice, name: 'Gone' });
    const runId = await run(alice, gone, at(50), [['X', 'failed']]);
    const made = await repos.caseRepairs.add(alice, repair(runId, { suite_id: gone, case_name: 'X' }));
    await db.orm.delete(savedSuites).where(eq(savedSuites.id, gone));
    expect(await db.orm.select().from(caseRepairs).where(eq(caseRepairs.id, made.id))).toEqual([]);
  });
});
