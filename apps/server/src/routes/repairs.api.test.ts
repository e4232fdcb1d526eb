import type { NewCaseRepair } from '@argus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from '../testing/api-targets';
import type { InProcessServer } from '../testing/in-process-server';

// The repairs API (docs/REPAIRS.md) over verdicts written here as the run's hook writes them: a run's
// and a suite's lists, approval as one suite version, rejection, the conflicts, scoping and roles.
// repairs-run.api.test.ts makes them through a real run.

type Member = { token: string; user: { id: string; username: string } };

const CASES = [
  { test_name: 'Add a task', steps: ['Navigate to /', 'Click "Add"', 'Verify text "Buy milk" is visible'] },
  {
    test_name: 'Filter',
    steps: ['Navigate to /', 'Click link "Active"', 'Verify text "1 item left" is visible'],
  },
  { test_name: 'Rename', steps: ['Navigate to /', 'Verify text "3 items left" is visible'] },
  { test_name: 'Checkout', steps: ['Navigate to /cart', 'Click "Pay"'] },
  { test_name: 'Search', steps: ['Navigate to /', 'Fill "Search" with "milk"'] },
];

const evidence = (summary: string, proof = true) => ({
  summary,
  signals: ['same role (button)'],
  engine: 'built-in (rule-based)',
  proof: proof ? { status: 'passed' as const, execution_time: 1.2 } : null,
});

describe.each(apiTargets())('repairs API on $name', ({ start }) => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let acme: string;
  let olga: Member;
  let vera: Member;
  let bob: Member;
  let project: string;
  let suite: string;
  const runs: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const repos = () => server.app.services.repos;
  const as = (who: Member, method: string, path: string, json?: unknown, org: string | null = acme) =>
    api.call(method, path, {
      token: who.token,
      headers: org ? { 'x-argus-organization': org } : {},
      ...(json === undefined ? {} : { json }),
    });
  const suitePath = () => `/api/projects/${project}/suites/${suite}`;

  /** A finished run of the suite's version 1 with these cases failed. */
  async function run(key: string, failed: string[]) {
    const row = await repos().testRuns.create(acme, {
      url: 'https://shop.example',
      status: 'completed',
      project_id: project,
      suite_id: suite,
      suite_version: 1,
      test_cases: CASES,
    });
    for (const name of failed) {
      await repos().testRuns.addResult(acme, row.id, {
        test_case_id: null,
        test_case_name: name,
        status: 'failed',
        execution_time: 1,
        error_message: 'Not found',
        steps: [],
        logs: [],
        screenshots: [],
      });
    }
    runs[key] = row.id;
  }

  /** A verdict of the run `key` on case `name`, as the hook stores it. */
  async function verdict(key: string, runKey: string, name: string, over: Partial<NewCaseRepair>) {
    const index = CASES.findIndex((c) => c.test_name === name);
    const before = CASES[index].steps;
    const row = await repos().caseRepairs.add(acme, {
      test_run_id: runs[runKey],
      project_id: project,
      suite_id: suite,
      suite_version: 1,
      case_name: name,
      case_index: index,
      result_id: await repos().caseRepairs.resultOf(acme, runs[runKey], name),
      verdict: 'repair',
      status: 'proposed',
      step_index: 1,
      steps_before: before,
      steps_after: before,
      diff: [],
      weakenings: [],
      evidence: evidence(`Repaired ${name}`),
      page_state: `state-${name}`,
      before_screenshot_id: null,
      after_screenshot_id: null,
      ...over,
    });
    ids[key] = row.id;
  }

  beforeAll(async () => {
    server = (await start()) as InProcessServer;
    api = client(server);
    olga = await api.signUp('repair-olga');
    vera = await api.signUp('repair-vera');
    bob = await api.signUp('repair-bob');
    acme = (await as(olga, 'POST', '/api/organizations', { name: 'Acme' }, null)).data.id;
    const invited = await as(olga, 'POST', '/api/organization/invitations', {
      email: 'repair-vera@example.com',
      role: 'viewer',
    });
    const link = invited.data.path.split('/').pop();
    expect((await as(vera, 'POST', `/api/invitations/${link}/accept`, undefined, null)).status).toBe(200);
    const made = await as(olga, 'POST', '/api/projects', {
      name: 'Tasks',
      environments: [{ name: 'staging', base_url: 'https://shop.example' }],
    });
    project = made.data.id;
    suite = (await as(olga, 'POST', `/api/projects/${project}/suites`, { name: 'Smoke', test_cases: CASES }))
      .data.id;
    await run('first', ['Add a task', 'Filter']);
    await run('second', ['Add a task', 'Rename', 'Checkout', 'Search']);
    await verdict('add', 'first', 'Add a task', {
      steps_after: ['Navigate to /', 'Click "Create task"', 'Verify text "Buy milk" is visible'],
    });
    await verdict('filter', 'first', 'Filter', {
      steps_after: [
        'Navigate to /',
        'Click "Which tasks"',
        'Click "Still open"',
        'Verify text "1 item left" is visible',
      ],
    });
    await verdict('addAgain', 'second', 'Add a task', {
      steps_after: ['Navigate to /', 'Click button "Create task"', 'Verify text "Buy milk" is visible'],
    });
    await verdict('weakens', 'second', 'Rename', {
      verdict: 'weakens',
      steps_after: ['Navigate to /', 'Verify text "items left" is visible'],
      weakenings: [
        {
          kind: 'text_widened',
          detail: 'Step 2 checked "3 items left"',
          before: '3 items left',
          after: 'items left',
        },
      ],
    });
    await verdict('bug', 'second', 'Checkout', {
      verdict: 'bug',
      status: 'none',
      steps_after: [],
      evidence: evidence('POST /api/orders answered 500', false),
      page_state: null,
    });
    await verdict('search', 'second', 'Search', {
      steps_after: ['Navigate to /', 'Fill "Find" with "milk"'],
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("lists a run's verdicts in case order with how many wait for review", async () => {
    const res = await as(vera, 'GET', `/api/runs/${runs.second}/repairs`);
    expect(res.status).toBe(200);
    expect(res.data.repairs.map((r: { case_name: string }) => r.case_name)).toEqual([
      'Add a task',
      'Rename',
      'Checkout',
      'Search',
    ]);
    expect(res.data.proposed).toBe(3);
    const bug = res.data.repairs.find((r: { verdict: string }) => r.verdict === 'bug');
    expect(bug).toMatchObject({
      status: 'none',
      after: [],
      run_id: runs.second,
      suite_id: suite,
      result_id: expect.any(String),
    });
  });

  it("lists a suite's verdicts, newest first, by status", async () => {
    const all = await as(vera, 'GET', `${suitePath()}/repairs`);
    expect(all.status).toBe(200);
    expect(all.data.repairs).toHaveLength(6);
    const weakens = all.data.repairs.find((r: { id: string }) => r.id === ids.weakens);
    expect(weakens.weakenings[0].kind).toBe('text_widened');
    const proposed = await as(vera, 'GET', `${suitePath()}/repairs?status=none`);
    expect(proposed.data.repairs.map((r: { id: string }) => r.id)).toEqual([ids.bug]);
    expect((await as(vera, 'GET', `${suitePath()}/repairs?status=maybe`)).status).toBe(422);
  });

  it("answers 404 for another organization's run, suite and repair, and 403 to a viewer deciding", async () => {
    expect((await as(bob, 'GET', `/api/runs/${runs.first}/repairs`, undefined, null)).status).toBe(404);
    expect((await as(bob, 'GET', `${suitePath()}/repairs`, undefined, null)).status).toBe(404);
    const approve = await as(bob, 'POST', `${suitePath()}/repairs/approve`, { ids: [ids.add] }, null);
    expect(approve.status).toBe(404);
    expect((await as(bob, 'POST', `${suitePath()}/repairs/${ids.search}/reject`, {}, null)).status).toBe(404);
    const viewer = await as(vera, 'POST', `${suitePath()}/repairs/approve`, { ids: [ids.add] });
    expect(viewer.status).toBe(403);
    expect((await as(vera, 'POST', `${suitePath()}/repairs/${ids.search}/reject`, {})).status).toBe(403);
    // Nothing was decided.
    expect((await repos().caseRepairs.get(acme, ids.add))?.status).toBe('proposed');
  });

  it('refuses a bug, a weakening not accepted and an unknown repair', async () => {
    const bug = await as(olga, 'POST', `${suitePath()}/repairs/approve`, { ids: [ids.bug] });
    expect(bug.status).toBe(409);
    expect(bug.data.code).toBe('REPAIR_CONFLICT');
    expect(bug.data.detail).toContain('"Checkout" looks like a bug');
    const weak = await as(olga, 'POST', `${suitePath()}/repairs/approve`, { ids: [ids.weakens] });
    expect(weak.status).toBe(409);
    expect(weak.data.detail).toContain('weakens an assertion');
    const unknown = await as(olga, 'POST', `${suitePath()}/repairs/approve`, {
      ids: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.data.code).toBe('REPAIR_NOT_FOUND');
    const suiteNow = await as(olga, 'GET', suitePath());
    expect(suiteNow.data.version).toBe(1);
  });

  it('rejects a proposal: it is no longer approvable, and is handed to later repairs', async () => {
    const res = await as(olga, 'POST', `${suitePath()}/repairs/${ids.search}/reject`, {
      reason: 'Not that field',
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      id: ids.search,
      status: 'rejected',
      decided_by: 'repair-olga',
      decision_reason: 'Not that field',
    });
    expect(res.data.decided_at).toEqual(expect.any(String));
    const again = await as(olga, 'POST', `${suitePath()}/repairs/${ids.search}/reject`, {});
    expect(again.status).toBe(409);
    const approve = await as(olga, 'POST', `${suitePath()}/repairs/approve`, { ids: [ids.search] });
    expect(approve.status).toBe(409);
    expect(approve.data.detail).toContain('is rejected');
    expect(await repos().caseRepairs.rejected(acme, suite, 'Search')).toEqual([
      { page_state: 'state-Search', after: ['Navigate to /', 'Fill "Find" with "milk"'] },
    ]);
    // Who rejected it is in the audit log; the refused second try is not.
    const audit = await repos().auditLog.list(acme, { action: 'repair_rejected', limit: 10 });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target: 'Search', detail: { suite_id: suite, repair_id: ids.search } });
  });

  it('approves two proposals as one new version with the note, keeping the old one; others of the case are superseded', async () => {
    const res = await as(olga, 'POST', `${suitePath()}/repairs/approve`, { ids: [ids.add, ids.filter] });
    expect(res.status).toBe(200);
    expect(res.data.version).toBe(2);
    expect(res.data.change).toBe(`Repaired from run ${runs.first.slice(0, 8)}: 2 cases`);
    expect(
      res.data.repairs.map((r: { status: string; saved_version: number }) => [r.status, r.saved_version]),
    ).toEqual([
      ['approved', 2],
      ['approved', 2],
    ]);
    const saved = (await as(olga, 'GET', suitePath())).data;
    expect(saved.version).toBe(2);
    expect(saved.test_cases[0].steps).toEqual([
      'Navigate to /',
      'Click "Create task"',
      'Verify text "Buy milk" is visible',
    ]);
    expect(saved.test_cases[1].steps[1]).toBe('Click "Which tasks"');
    expect(saved.test_cases[2].steps).toEqual(CASES[2].steps);
    expect(saved.versions[0]).toMatchObject({ version: 2, change: res.data.change, saved_by: 'repair-olga' });
    const versions = await repos().history.suiteVersions(acme, suite);
    expect((versions[0].test_cases as { steps: string[] }[])[0].steps).toEqual(CASES[0].steps);
    // The second run's proposal for the same case was made from the old steps.
    expect((await repos().caseRepairs.get(acme, ids.addAgain))?.status).toBe('superseded');
    // The approval is in the audit log as the suite's save.
    const audit = await repos().auditLog.list(acme, { action: 'suite_saved', limit: 10 });
    expect(audit[0].detail).toMatchObject({ suite_id: suite, version: 2, repairs: 2 });
  });

  it('refuses a repair of a case changed since its run, naming the case', async () => {
    // Accepting the weakening is not enough: "Rename" was saved again by hand since.
    const cases = (await as(olga, 'GET', suitePath())).data.test_cases;
    cases[2] = {
      ...cases[2],
      steps: ['Navigate to /', 'Verify text "3 items left" is visible', 'Verify text "Done" is visible'],
    };
    expect((await as(olga, 'PUT', suitePath(), { name: 'Smoke', test_cases: cases })).status).toBe(200);
    const res = await as(olga, 'POST', `${suitePath()}/repairs/approve`, {
      ids: [ids.weakens],
      accept_weakening: [ids.weakens],
    });
    expect(res.status).toBe(409);
    expect(res.data.code).toBe('REPAIR_CONFLICT');
    expect(res.data.detail).toContain('"Rename" was changed since run');
    expect((await as(olga, 'GET', suitePath())).data.version).toBe(3);
  });

  it('says the counts and review link in the run report and JUnit', async () => {
    const report = await as(vera, 'GET', `/api/runs/${runs.second}`);
    expect(report.data.repairs).toEqual({
      proposed: 1,
      bugs: 1,
      review_path: `/history/runs/${runs.second}?tab=repairs`,
    });
    const checkout = report.data.results.find((r: { test_name: string }) => r.test_name === 'Checkout');
    expect(checkout.repair).toMatchObject({
      verdict: 'bug',
      status: 'none',
      summary: 'POST /api/orders answered 500',
    });
    const xml = await as(vera, 'GET', `/api/runs/${runs.second}/report.xml`);
    expect(xml.data).toContain('No repair: looks like a bug (POST /api/orders answered 500)');
  });
});
