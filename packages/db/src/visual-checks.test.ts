import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, testEngines } from './index';
import { type TwoUsers, twoUserDatabase } from './repository-fixture';
import { environments, projects, testRuns, visualBaselines, visualChecks } from './schema';
import type { NewVisualCheck, VisualKey } from './visual-checks';

// Visual checks' baselines and review (docs/VISUAL-CHECKS.md): a key's rows as its history, branches
// falling back to the default branch, review decided once, everything owner-scoped.

describe.each(testEngines())('visual checks on $name', ({ open }) => {
  let db: Database;
  let repos: TwoUsers['repos'];
  let alice: string;
  let bob: string;
  const fixture = twoUserDatabase(open);
  const shop = randomUUID();
  const staging = randomUUID();
  const production = randomUUID();
  const bobShop = randomUUID();
  const bobStaging = randomUUID();

  /** A key of alice's shop on staging; each test names its own case so tests do not meet. */
  const key = (case_name: string, over: Partial<VisualKey> = {}): VisualKey => ({
    project_id: shop,
    environment_id: staging,
    branch: '',
    case_name,
    check_name: 'page',
    viewport_width: 1280,
    viewport_height: 720,
    browser: 'chromium',
    ...over,
  });

  const baseline = (k: VisualKey, sha256: string, over: Record<string, unknown> = {}) =>
    repos.visual.addBaseline(alice, {
      ...k,
      sha256,
      width: 1280,
      height: 2000,
      approved_by: 'alice',
      ...over,
    });

  const capture = (k: VisualKey, over: Partial<NewVisualCheck> = {}): NewVisualCheck => ({
    ...k,
    region: null,
    step_index: 2,
    status: 'changed',
    issues: [],
    message: 'The page changed',
    sha256: `cap-${randomUUID()}`,
    diff_sha256: null,
    width: 1280,
    height: 2000,
    moving_masks: [{ x: 0, y: 0, width: 100, height: 20 }],
    url: 'https://shop.example/',
    baseline_id: null,
    review: 'pending',
    ...over,
  });

  async function run(owner = alice, branch: string | null = null) {
    const id = randomUUID();
    await db.orm.insert(testRuns).values({ id, user_id: owner, url: 'https://shop.example', branch });
    return id;
  }

  const toReview = async (runId: string) =>
    (await db.orm.select().from(testRuns).where(eq(testRuns.id, runId)))[0]?.visual_to_review;

  beforeAll(async () => {
    ({ db, repos, alice, bob } = await fixture.open());
    await db.orm.insert(projects).values([
      { id: shop, user_id: alice, name: 'Shop' },
      { id: bobShop, user_id: bob, name: 'Shop' },
    ]);
    await db.orm.insert(environments).values([
      { id: staging, project_id: shop, user_id: alice, name: 'Staging', base_url: 'https://s.example' },
      { id: production, project_id: shop, user_id: alice, name: 'Production', base_url: 'https://p.example' },
      { id: bobStaging, project_id: bobShop, user_id: bob, name: 'Staging', base_url: 'https://s.example' },
    ]);
  }, 60_000);
  afterAll(() => fixture.close());

  it("compares a branch with its own newest baseline, else with the default branch's newest", async () => {
    const main = key('Fallback');
    const feature = key('Fallback', { branch: 'feature/cart' });
    expect(await repos.visual.baselineFor(alice, feature)).toBeUndefined();
    await baseline(main, 'm1');
    const m2 = await baseline(main, 'm2');
    expect((await repos.visual.baselineFor(alice, main))?.id).toBe(m2.id);
    expect((await repos.visual.baselineFor(alice, feature))?.id).toBe(m2.id);
    const f1 = await baseline(feature, 'f1');
    expect((await repos.visual.baselineFor(alice, feature))?.id).toBe(f1.id);
    // The default branch never looks at a branch's.
    expect((await repos.visual.baselineFor(alice, main))?.id).toBe(m2.id);
    // Another viewport, browser or environment is another key.
    expect(await repos.visual.baselineFor(alice, { ...main, viewport_width: 390 })).toBeUndefined();
    expect(await repos.visual.baselineFor(alice, { ...main, browser: 'firefox' })).toBeUndefined();
    expect(await repos.visual.baselineFor(alice, { ...main, environment_id: production })).toBeUndefined();
  });

  it("lists a key's history newest first, on its branch only", async () => {
    const main = key('History');
    const b1 = await baseline(main, 'h1');
    const b2 = await baseline(main, 'h2');
    const b3 = await baseline(main, 'h3');
    await baseline({ ...main, branch: 'feature' }, 'hf');
    expect((await repos.visual.baselineHistory(alice, b1.id)).map((b) => b.id)).toEqual([
      b3.id,
      b2.id,
      b1.id,
    ]);
    expect((await repos.visual.baselineHistory(alice, b1.id, 2)).map((b) => b.sha256)).toEqual(['h3', 'h2']);
    expect(await repos.visual.getBaseline(alice, b2.id)).toMatchObject({ sha256: 'h2' });
  });

  it("restores an earlier baseline as the key's newest copy, keeping the current settings", async () => {
    const main = key('Restore');
    const first = await baseline(main, 'r1', { user_masks: [{ x: 1, y: 1, width: 1, height: 1 }] });
    const second = await baseline(main, 'r2');
    const masks = [{ x: 10, y: 20, width: 300, height: 40 }];
    const tuned = await repos.visual.updateSettings(alice, second.id, { user_masks: masks, threshold: 0.02 });
    expect(tuned).toMatchObject({ user_masks: masks, threshold: 0.02, sha256: 'r2' });

    const restored = await repos.visual.restoreBaseline(alice, first.id, 'carol');
    expect(restored).toMatchObject({
      sha256: 'r1',
      copied_from: first.id,
      source_run_id: null,
      approved_by: 'carol',
      user_masks: masks,
      threshold: 0.02,
      branch: '',
    });
    expect((await repos.visual.baselineFor(alice, main))?.id).toBe(restored?.id);
    expect((await repos.visual.baselineHistory(alice, first.id)).map((b) => b.sha256)).toEqual([
      'r1',
      'r2',
      'r1',
    ]);
    // The newest restored again is already the newest: nothing added.
    expect((await repos.visual.restoreBaseline(alice, restored?.id ?? '', 'carol'))?.id).toBe(restored?.id);
    expect(await repos.visual.baselineHistory(alice, first.id)).toHaveLength(3);
  });

  it("promotes a branch's newest baselines that differ from the default branch's, and leaves other branches", async () => {
    const same = key('Promote same');
    const changed = key('Promote changed');
    const added = key('Promote added');
    const onBranch = (k: VisualKey, branch = 'feature/p') => ({ ...k, branch });
    await baseline(same, 'same');
    await baseline(onBranch(same), 'same');
    const oldMain = await baseline(changed, 'c-main');
    await baseline(onBranch(changed), 'c-old');
    const newer = await baseline(onBranch(changed), 'c-new');
    const addedOnBranch = await baseline(onBranch(added), 'a-new');
    const otherBranch = await baseline(onBranch(added, 'feature/other'), 'a-other');
    const elsewhere = await baseline({ ...onBranch(added), environment_id: production }, 'a-prod');

    const current = await repos.visual.currentBaselines(alice, {
      project_id: shop,
      environment_id: staging,
      branch: 'feature/p',
    });
    expect(current.map((b) => b.sha256)).toEqual(['a-new', 'c-new', 'same']);

    expect(
      await repos.visual.promote(alice, {
        project_id: shop,
        environment_id: staging,
        branch: 'feature/p',
        approved_by: 'dana',
      }),
    ).toBe(2);
    const promotedChanged = await repos.visual.baselineFor(alice, changed);
    expect(promotedChanged).toMatchObject({ sha256: 'c-new', copied_from: newer.id, approved_by: 'dana' });
    expect(promotedChanged?.id).not.toBe(oldMain.id);
    expect(await repos.visual.baselineFor(alice, added)).toMatchObject({
      sha256: 'a-new',
      copied_from: addedOnBranch.id,
    });
    expect(
      await repos.visual.baselineHistory(alice, (await repos.visual.baselineFor(alice, same))?.id ?? ''),
    ).toHaveLength(1);
    // The branch keeps its rows, another branch and another environment theirs.
    expect((await repos.visual.baselineFor(alice, onBranch(changed)))?.id).toBe(newer.id);
    expect((await repos.visual.baselineFor(alice, onBranch(added, 'feature/other')))?.id).toBe(
      otherBranch.id,
    );
    expect(await repos.visual.baselineFor(alice, { ...added, environment_id: production })).toBeUndefined();
    expect(
      (await repos.visual.baselineFor(alice, { ...onBranch(added), environment_id: production }))?.id,
    ).toBe(elsewhere.id);
    // Promoted already: nothing differs now.
    expect(
      await repos.visual.promote(alice, {
        project_id: shop,
        environment_id: staging,
        branch: 'feature/p',
        approved_by: 'dana',
      }),
    ).toBe(0);
    // A changed setting on the branch is a difference too; without an environment, every environment's.
    await repos.visual.updateSettings(alice, newer.id, { threshold: 0.1 });
    expect(
      await repos.visual.promote(alice, { project_id: shop, branch: 'feature/p', approved_by: 'dana' }),
    ).toBe(2);
    expect(await repos.visual.baselineFor(alice, changed)).toMatchObject({ sha256: 'c-new', threshold: 0.1 });
    expect(await repos.visual.baselineFor(alice, { ...added, environment_id: production })).toMatchObject({
      sha256: 'a-prod',
    });
  });

  it("approving a check makes its capture the key's baseline with the compared baseline's settings and takes it off the run's count", async () => {
    const k = key('Approve');
    const masks = [{ x: 5, y: 5, width: 50, height: 50 }];
    const compared = await baseline(k, 'ap-old', { user_masks: masks, threshold: 0.05 });
    const runId = await run();
    const [changed, other, same] = await repos.visual.addChecks(alice, runId, [
      capture(k, { baseline_id: compared.id, diff_sha256: 'ap-diff' }),
      capture(key('Approve other'), { status: 'new' }),
      capture(key('Approve same'), { status: 'same', review: 'none' }),
    ]);
    expect(await toReview(runId)).toBe(2);
    const listed = await repos.visual.forRun(alice, runId);
    expect(listed.map((pair) => pair.check.id)).toEqual([changed.id, other.id, same.id]);
    expect(listed[0].baseline?.id).toBe(compared.id);
    expect(listed[1].baseline).toBeUndefined();

    const decided = await repos.visual.decide(alice, changed.id, { decision: 'approve', decided_by: 'erin' });
    expect(decided?.check).toMatchObject({
      review: 'approved',
      decided_by: 'erin',
      made_baseline_id: decided?.baseline?.id,
    });
    expect(decided?.check.decided_at).toBeInstanceOf(Date);
    expect(decided?.baseline).toMatchObject({
      ...k,
      sha256: changed.sha256,
      moving_masks: changed.moving_masks,
      user_masks: masks,
      threshold: 0.05,
      source_run_id: runId,
      approved_by: 'erin',
      copied_from: null,
    });
    expect((await repos.visual.baselineFor(alice, k))?.id).toBe(decided?.baseline?.id);
    expect(await toReview(runId)).toBe(1);
    // Decided: not again, either way.
    expect(
      await repos.visual.decide(alice, changed.id, { decision: 'reject', decided_by: 'erin' }),
    ).toBeUndefined();

    const rejected = await repos.visual.decide(alice, other.id, {
      decision: 'reject',
      decided_by: 'erin',
      reason: 'The logo is cut off',
    });
    expect(rejected).toEqual({
      check: expect.objectContaining({
        review: 'rejected',
        decision_reason: 'The logo is cut off',
        made_baseline_id: null,
      }),
    });
    expect(await repos.visual.baselineFor(alice, key('Approve other'))).toBeUndefined();
    expect(await toReview(runId)).toBe(0);
    // A check with nothing to review is not decided.
    expect(
      await repos.visual.decide(alice, same.id, { decision: 'approve', decided_by: 'erin' }),
    ).toBeUndefined();
    expect(await toReview(runId)).toBe(0);
  });

  it("lists a run's checks in case and step order, whatever order the cases ended in", async () => {
    const runId = await run();
    await repos.visual.addChecks(alice, runId, [
      capture(key('Order c'), { case_index: 2, step_index: 0 }),
      capture(key('Order a2'), { case_index: 0, step_index: 5 }),
      capture(key('Order a1'), { case_index: 0, step_index: 1 }),
      capture(key('Order b'), { case_index: 1, step_index: 3 }),
    ]);
    const listed = await repos.visual.forRun(alice, runId);
    expect(listed.map((pair) => pair.check.case_name)).toEqual([
      'Order a1',
      'Order a2',
      'Order b',
      'Order c',
    ]);
  });

  it("counts the pictures checks stored and the baselines approved in the organization's stored bytes", async () => {
    const before = await repos.testRuns.storedBytes(alice);
    const runId = await run();
    const [changed] = await repos.visual.addChecks(alice, runId, [
      capture(key('Bytes'), { bytes: 1_000, diff_bytes: 200 }),
      capture(key('Bytes same'), { status: 'same', review: 'none', bytes: 0 }),
    ]);
    expect(await repos.testRuns.storedBytes(alice)).toBe(before + 1_200);
    const decided = await repos.visual.decide(alice, changed.id, { decision: 'approve', decided_by: 'erin' });
    // The approved baseline counts its picture's bytes while it is kept (after the run goes too).
    expect(decided?.baseline?.bytes).toBe(1_000);
    expect(await repos.testRuns.storedBytes(alice)).toBe(before + 2_200);
  });

  it('lets one of two reviewers deciding a check at once win', async () => {
    const k = key('Race');
    const runId = await run();
    const [check] = await repos.visual.addChecks(alice, runId, [capture(k, { status: 'new' })]);
    const outcomes = await Promise.all([
      repos.visual.decide(alice, check.id, { decision: 'approve', decided_by: 'erin' }),
      repos.visual.decide(alice, check.id, { decision: 'reject', decided_by: 'frank' }),
      repos.visual.decide(alice, check.id, { decision: 'approve', decided_by: 'gus' }),
    ]);
    const winners = outcomes.filter((o) => o !== undefined);
    expect(winners).toHaveLength(1);
    expect(await toReview(runId)).toBe(0);
    const made = await db.orm.select().from(visualBaselines).where(eq(visualBaselines.case_name, 'Race'));
    expect(made).toHaveLength(winners[0]?.baseline ? 1 : 0);
    expect((await repos.visual.getCheck(alice, check.id))?.decided_by).toBe(winners[0]?.check.decided_by);
  });

  it("approves a run's pending checks at once; the later approval of a key is its newest", async () => {
    const k = key('All', { branch: 'feature/all' });
    const early = await run(alice, 'feature/all');
    const [newFirst] = await repos.visual.addChecks(alice, early, [capture(k, { status: 'new' })]);
    const later = await run(alice, 'feature/all');
    const checks = await repos.visual.addChecks(alice, later, [
      capture(k, { status: 'new' }),
      capture(key('All 2', { branch: 'feature/all' }), { status: 'new' }),
      capture(key('All 3', { branch: 'feature/all' }), { status: 'same', review: 'none' }),
    ]);
    expect(await toReview(later)).toBe(2);
    expect(await repos.visual.decideAll(alice, later, 'hana')).toBe(2);
    expect(await repos.visual.decideAll(alice, later, 'hana')).toBe(0);
    expect(await toReview(later)).toBe(0);
    expect((await repos.visual.getCheck(alice, checks[2].id))?.review).toBe('none');
    expect(await repos.visual.baselineFor(alice, key('All 2', { branch: 'feature/all' }))).toMatchObject({
      sha256: checks[1].sha256,
      source_run_id: later,
      approved_by: 'hana',
    });
    // The earlier run's new check, approved after: its capture is the newest now.
    const approvedLate = await repos.visual.decide(alice, newFirst.id, {
      decision: 'approve',
      decided_by: 'ivy',
    });
    expect((await repos.visual.baselineFor(alice, k))?.id).toBe(approvedLate?.baseline?.id);
    expect(await repos.visual.baselineFor(alice, k)).toMatchObject({ sha256: newFirst.sha256 });
    expect(await toReview(early)).toBe(0);
  });

  it("reads another organization's baselines, checks and runs as missing, and decides none of them", async () => {
    const k = key('Private');
    const b = await baseline(k, 'p1');
    const runId = await run();
    const [check] = await repos.visual.addChecks(alice, runId, [capture(k, { baseline_id: b.id })]);
    expect(await repos.visual.baselineFor(bob, k)).toBeUndefined();
    expect(await repos.visual.getBaseline(bob, b.id)).toBeUndefined();
    expect(await repos.visual.baselineHistory(bob, b.id)).toEqual([]);
    expect(await repos.visual.currentBaselines(bob, { project_id: shop, branch: '' })).toEqual([]);
    expect(await repos.visual.restoreBaseline(bob, b.id, 'bob')).toBeUndefined();
    expect(await repos.visual.updateSettings(bob, b.id, { threshold: 1 })).toBeUndefined();
    expect(
      await repos.visual.promote(bob, { project_id: shop, branch: 'feature/p', approved_by: 'bob' }),
    ).toBe(0);
    expect(await repos.visual.getCheck(bob, check.id)).toBeUndefined();
    expect(await repos.visual.forRun(bob, runId)).toEqual([]);
    expect(
      await repos.visual.decide(bob, check.id, { decision: 'approve', decided_by: 'bob' }),
    ).toBeUndefined();
    expect(await repos.visual.decideAll(bob, runId, 'bob')).toBe(0);
    expect(await repos.visual.addChecks(bob, runId, [capture(k)])).toEqual([]);
    expect(await toReview(runId)).toBe(1);
    expect((await repos.visual.getCheck(alice, check.id))?.review).toBe('pending');
    expect(await repos.visual.baselineHistory(alice, b.id)).toHaveLength(1);
    // Ids that are not uuids find nothing rather than failing.
    expect(await repos.visual.getCheck(alice, 'nope')).toBeUndefined();
    expect(await repos.visual.baselineFor(alice, { ...k, project_id: 'nope' })).toBeUndefined();
  });

  it('deletes a run with its checks but keeps the baselines approved from it', async () => {
    const k = key('Deleted run');
    const runId = await run();
    const [check] = await repos.visual.addChecks(alice, runId, [capture(k, { status: 'new' })]);
    const approved = await repos.visual.decide(alice, check.id, { decision: 'approve', decided_by: 'jo' });
    await db.orm.delete(testRuns).where(eq(testRuns.id, runId));
    expect(await repos.visual.getCheck(alice, check.id)).toBeUndefined();
    expect(await repos.visual.forRun(alice, runId)).toEqual([]);
    expect(await repos.visual.getBaseline(alice, approved?.baseline?.id ?? '')).toMatchObject({
      sha256: check.sha256,
      source_run_id: null,
    });
  });

  it('approves a check whose environment is gone without a baseline (its baselines went with it)', async () => {
    const gone = randomUUID();
    await db.orm
      .insert(environments)
      .values({ id: gone, project_id: shop, user_id: alice, name: 'Gone', base_url: 'https://g.example' });
    const k = key('Gone env', { environment_id: gone });
    const b = await baseline(k, 'g1');
    const runId = await run();
    const [check] = await repos.visual.addChecks(alice, runId, [capture(k, { baseline_id: b.id })]);
    await db.orm.delete(environments).where(eq(environments.id, gone));
    expect(await repos.visual.getBaseline(alice, b.id)).toBeUndefined();
    const decided = await repos.visual.decide(alice, check.id, { decision: 'approve', decided_by: 'kim' });
    expect(decided?.check.review).toBe('approved');
    expect(decided?.baseline).toBeUndefined();
    expect(await toReview(runId)).toBe(0);
  });

  it("names the blobs of baselines, checks' captures and their difference pictures as still used", async () => {
    const k = key('Blobs');
    await baseline(k, 'blob-baseline');
    const runId = await run();
    await repos.visual.addChecks(alice, runId, [
      capture(k, { sha256: 'blob-capture', diff_sha256: 'blob-diff' }),
    ]);
    const used = await repos.retention.referencedBlobs([
      'blob-baseline',
      'blob-capture',
      'blob-diff',
      'blob-gone',
    ]);
    expect([...used].sort()).toEqual(['blob-baseline', 'blob-capture', 'blob-diff']);
    // The run's checks go with it; the baseline's picture stays named.
    await db.orm.delete(testRuns).where(eq(testRuns.id, runId));
    expect(await db.orm.select().from(visualChecks).where(eq(visualChecks.test_run_id, runId))).toEqual([]);
    expect([...(await repos.retention.referencedBlobs(['blob-baseline', 'blob-capture']))]).toEqual([
      'blob-baseline',
    ]);
  });
});
