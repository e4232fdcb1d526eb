import type { NewTestResult } from '@argus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from '../testing/api-targets';
import type { InProcessServer } from '../testing/in-process-server';

// GET /api/failure-groups and a run view's 'seen' (docs/DIAGNOSTICS.md), over results whose failure
// columns are written here as the run's end writes them.

type User = { token: string; user: { id: string; username: string } };

const A = 'a1a1a1a1a1a1a1a1';
const DAY = 86_400_000;

const result = (name: string, fingerprint: string | null): NewTestResult => ({
  test_case_id: null,
  test_case_name: name,
  status: fingerprint ? 'failed' : 'passed',
  execution_time: 1,
  error_message: fingerprint ? 'Expected text "Order confirmed" to be visible' : null,
  steps: [],
  logs: [],
  screenshots: [],
  failure_kind: fingerprint ? 'assertion' : null,
  failure_evidence: fingerprint ? 'The page answered; "Order confirmed" was not visible' : null,
  failure_fingerprint: fingerprint,
  failure_summary: fingerprint ? 'verify text "…" visible: not visible' : null,
  failure_step: fingerprint ? 1 : null,
});

describe.each(apiTargets())('failure groups API on $name', ({ start }) => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let alice: User;
  let bob: User;
  let aliceProject: { id: string; suite: string };
  let bobProject: { id: string; suite: string };
  const runs: Record<string, string> = {};
  const repos = () => server.app.services.repos;
  const get = (user: User, path: string) => api.call('GET', path, { token: user.token });

  async function project(user: User) {
    const made = await api.call('POST', '/api/projects', {
      token: user.token,
      json: { name: 'Shop', environments: [{ name: 'Production', base_url: 'https://shop.example' }] },
    });
    expect(made.status).toBe(201);
    const suite = await api.call('POST', `/api/projects/${made.data.id}/suites`, {
      token: user.token,
      json: { name: 'Checkout', test_cases: [{ test_name: 'Pay', steps: ['Open /', 'Click "Pay"'] }] },
    });
    expect(suite.status).toBe(201);
    return { id: made.data.id as string, suite: suite.data.id as string };
  }

  /** A finished run `daysAgo` days ago with these results, dated as it would have been. */
  async function run(
    key: string,
    user: User,
    where: { id: string; suite: string } | null,
    daysAgo: number,
    results: NewTestResult[],
  ) {
    const row = await repos().testRuns.create(user.user.id, {
      url: 'https://shop.example',
      status: 'completed',
      project_id: where?.id ?? null,
      suite_id: where?.suite ?? null,
    });
    for (const r of results) await repos().testRuns.addResult(user.user.id, row.id, r);
    const at = new Date(Date.now() - daysAgo * DAY).toISOString();
    await server.app.services.db.exec(
      `UPDATE test_runs SET created_at = '${at}' WHERE id = '${row.id}';
       UPDATE test_results SET created_at = '${at}' WHERE test_run_id = '${row.id}'`,
    );
    runs[key] = row.id;
  }

  beforeAll(async () => {
    server = (await start()) as InProcessServer;
    api = client(server);
    alice = await api.signUp('groups-alice');
    bob = await api.signUp('groups-bob');
    aliceProject = await project(alice);
    bobProject = await project(bob);
    await run('a1', alice, aliceProject, 3, [result('Pay', A), result('Browse', null)]);
    await run('a2', alice, aliceProject, 2, [result('Pay', A), result('Browse', null)]);
    // Another organization fails the same way, more often: none of it is alice's.
    for (let i = 0; i < 3; i++) await run(`b${i}`, bob, bobProject, 2 - i * 0.1, [result('Pay', A)]);
    await run('loose', alice, null, 1, [result('Pay', A)]);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("lists the organization's open groups with their runs, first and last run and cases", async () => {
    const res = await get(alice, `/api/failure-groups?project_id=${aliceProject.id}`);
    expect(res.status).toBe(200);
    expect(res.data.groups).toEqual([
      {
        fingerprint: A,
        kind: 'assertion',
        summary: 'verify text "…" visible: not visible',
        cases: ['Pay'],
        project_id: aliceProject.id,
        runs: 2,
        first_run_id: runs.a1,
        first_seen_at: expect.any(String),
        last_run_id: runs.a2,
        last_seen_at: expect.any(String),
      },
    ]);
    const theirs = await get(bob, '/api/failure-groups');
    expect(theirs.data.groups.map((g: { runs: number }) => g.runs)).toEqual([3]);
  });

  it("answers nothing of another organization's project", async () => {
    const res = await get(alice, `/api/failure-groups?project_id=${bobProject.id}`);
    expect(res.status).toBe(200);
    expect(res.data.groups).toEqual([]);
  });

  it('filters by the day last seen, and refuses a since that is no date', async () => {
    const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    const none = await get(alice, `/api/failure-groups?since=${tomorrow}`);
    expect(none.data.groups).toEqual([]);
    const bad = await get(alice, '/api/failure-groups?since=yesterday');
    expect(bad.status).toBe(422);
    expect(bad.data.code).toBe('VALIDATION');
  });

  it("says on a run's failed result in how many of the project's runs it was seen", async () => {
    const res = await get(alice, `/api/automation/test-runs/${runs.a2}`);
    expect(res.status).toBe(200);
    const [pay, browse] = res.data.test_results;
    expect(pay.seen).toMatchObject({ fingerprint: A, runs: 2, first_run_id: runs.a1, last_run_id: runs.a2 });
    expect(browse.seen).toBeNull();
    const loose = await get(alice, `/api/automation/test-runs/${runs.loose}`);
    expect(loose.data.test_results[0].seen).toBeNull();
  });
});
