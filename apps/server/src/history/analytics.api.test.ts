import type { NewTestResult, NewTestRun } from '@argus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from '../testing/api-targets';
import type { InProcessServer } from '../testing/in-process-server';

type User = { token: string; user: { id: string; username: string } };

/** A case's result whose steps stop at `failedAt` (its text) when given. */
const result = (name: string, status: string, seconds: number, failedAt?: string): NewTestResult => ({
  test_case_id: null,
  test_case_name: name,
  status,
  execution_time: seconds,
  error_message: failedAt ? 'failed' : null,
  steps: [
    {
      step_number: 1,
      action: 'navigate',
      description: 'Open /',
      status: failedAt === 'Open /' ? 'error' : 'success',
    },
    ...(failedAt === 'Open /'
      ? []
      : [
          {
            step_number: 2,
            action: 'click',
            description: 'Click "Pay"',
            status: failedAt ? 'error' : 'success',
          },
        ]),
  ],
  logs: [],
  screenshots: [],
});

describe.each(apiTargets())('analytics API on $name', ({ start }) => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let alice: User;
  let bob: User;
  let project: { id: string; suite: string; env: string };
  const runs: Record<string, string> = {};
  const repos = () => server.app.services.repos;
  const exec = (statement: string) => server.app.services.db.exec(statement);
  const get = (user: User, path: string) => api.call('GET', path, { token: user.token });

  /** A run recorded through the repository, then dated (the repositories stamp `now`). */
  async function run(user: User, input: NewTestRun, at: string, results: NewTestResult[] = []) {
    const row = await repos().testRuns.create(user.user.id, input);
    for (const r of results) await repos().testRuns.addResult(user.user.id, row.id, r);
    await exec(`UPDATE test_runs SET created_at = '${at}' WHERE id = '${row.id}'`);
    return row.id;
  }

  beforeAll(async () => {
    server = (await start()) as InProcessServer;
    api = client(server);
    alice = await api.signUp('analyst');
    bob = await api.signUp('analyst-bob');
    const created = await api.call('POST', '/api/projects', {
      token: alice.token,
      json: { name: 'Shop', environments: [{ name: 'Production', base_url: 'https://shop.example' }] },
    });
    const suite = await api.call('POST', `/api/projects/${created.data.id}/suites`, {
      token: alice.token,
      json: { name: 'Checkout', test_cases: [{ test_name: 'A', steps: ['Open /'] }] },
    });
    project = { id: created.data.id, suite: suite.data.id, env: created.data.environments[0].id };
    const saved = (over: Partial<NewTestRun>): NewTestRun => ({
      url: 'https://shop.example',
      test_suite_name: 'Checkout on Production',
      project_id: project.id,
      environment_id: project.env,
      suite_id: project.suite,
      suite_version: 1,
      status: 'completed',
      total_tests: 2,
      ...over,
    });
    // Case A: pass, fail, pass on a retry, pass (2 flips in 4 runs); case B: pass ×3, then fail.
    runs.r1 = await run(alice, saved({ execution_time_seconds: 10 }), '2026-11-01T10:00:00Z', [
      result('A', 'passed', 1),
      result('B', 'passed', 4),
    ]);
    runs.r2 = await run(
      alice,
      saved({ execution_time_seconds: 20, failed_tests: 1 }),
      '2026-11-01T12:00:00Z',
      [result('A', 'failed', 9, 'Click "Pay"'), result('B', 'passed', 6)],
    );
    runs.r3 = await run(
      alice,
      saved({ execution_time_seconds: 30, flaky_tests: 1, engine: 'openai/gpt-4o' }),
      '2026-11-02T10:00:00Z',
      [result('A', 'flaky', 3), result('B', 'passed', 5)],
    );
    runs.r4 = await run(
      alice,
      saved({ execution_time_seconds: 40, failed_tests: 1 }),
      '2026-11-02T12:00:00Z',
      [result('A', 'passed', 2), result('B', 'failed', 9, 'Open /')],
    );
    runs.r5 = await run(alice, saved({ status: 'error' }), '2026-11-02T23:30:00Z');
    await run(alice, saved({ status: 'running' }), '2026-11-02T23:40:00Z');
    await run(alice, saved({ execution_time_seconds: 99 }), '2026-10-31T10:00:00Z', [
      result('A', 'failed', 1, 'Open /'),
    ]);
    runs.r7 = await run(
      alice,
      {
        url: 'https://other.example',
        test_suite_name: 'Adhoc',
        status: 'completed',
        total_tests: 1,
        failed_tests: 1,
        execution_time_seconds: 5,
      },
      '2026-11-01T15:00:00Z',
      [result('C', 'failed', 2, 'Click "Pay"')],
    );
    await run(
      bob,
      { url: 'https://shop.example', status: 'completed', execution_time_seconds: 1 },
      '2026-11-01T10:00:00Z',
    );

    // Model calls: two in run 3, one for a generation (no run), one the day before the range.
    const usage = {
      kind: 'step',
      provider: 'openai',
      model: 'gpt-4o-mini',
      input_tokens: 100,
      output_tokens: 10,
    };
    await repos().modelUsage.record(alice.user.id, { ...usage, cost_usd: 0.25, test_run_id: runs.r3 });
    await repos().modelUsage.record(alice.user.id, { ...usage, cost_usd: 0.5, test_run_id: runs.r3 });
    await repos().modelUsage.record(alice.user.id, {
      ...usage,
      kind: 'generation',
      provider: 'anthropic',
      model: 'claude',
      cost_usd: 0.125,
    });
    await exec(`UPDATE model_usage SET created_at = '2026-11-02T11:00:00Z'`);
    await repos().modelUsage.record(alice.user.id, { ...usage, cost_usd: 9 });
    await exec(`UPDATE model_usage SET created_at = '2026-10-30T11:00:00Z' WHERE cost_usd = 9`);

    for (const [url, score, at] of [
      ['https://Shop.example/a', 70, '2026-11-01T09:00:00Z'],
      ['https://shop.example/b?x=1', 90, '2026-11-02T09:00:00Z'],
      ['https://blog.example/', 50, '2026-11-01T09:00:00Z'],
    ] as const) {
      const c = await repos().designComparisons.addComparison(alice.user.id, {
        session_id: null,
        comparison_type: 'image',
        website_url: url,
        figma_url: null,
        file_id: null,
        results: { overall_similarity: score },
        images: {},
      });
      await exec(`UPDATE comparisons SET created_at = '${at}' WHERE id = '${c.id}'`);
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('computes pass rate, durations, slowest tests, failing steps, flaky tests, cost and scores over the range', async () => {
    const res = await get(alice, '/api/analytics?from=2026-11-01&to=2026-11-02');
    expect(res.status).toBe(200);
    const a = res.data;
    expect(a.from).toBe('2026-11-01T00:00:00.000Z');
    expect(a.to).toBe('2026-11-03T00:00:00.000Z');
    expect(a.daily).toEqual([
      {
        day: '2026-11-01',
        runs: 3,
        passed_runs: 1,
        failed_runs: 2,
        pass_rate: 1 / 3,
        tests: 5,
        failed_tests: 2,
        flaky_tests: 0,
      },
      {
        day: '2026-11-02',
        runs: 3,
        passed_runs: 1,
        failed_runs: 2,
        pass_rate: 1 / 3,
        tests: 6,
        failed_tests: 1,
        flaky_tests: 1,
      },
    ]);
    const checkout = a.durations.find((d: { suite_id: string | null }) => d.suite_id === project.suite);
    // percentile_cont interpolates: p95 of 10, 20, 30, 40 is 30 + 0.85 × 10.
    expect(checkout).toMatchObject({ suite: 'Checkout', runs: 4, median_seconds: 25 });
    expect(checkout.p95_seconds).toBeCloseTo(38.5, 9);
    expect(
      checkout.days.map((d: { day: string; median_seconds: number }) => [d.day, d.median_seconds]),
    ).toEqual([
      ['2026-11-01', 15],
      ['2026-11-02', 35],
    ]);
    expect(checkout.days[0].p95_seconds).toBeCloseTo(19.5, 9);
    expect(checkout.days[1].p95_seconds).toBeCloseTo(39.5, 9);
    expect(a.durations.find((d: { suite: string }) => d.suite === 'Adhoc')).toMatchObject({
      runs: 1,
      median_seconds: 5,
    });
    expect(a.slowest_tests).toEqual([
      { name: 'B', suite: 'Checkout', runs: 3, median_seconds: 5, max_seconds: 6 },
      { name: 'A', suite: 'Checkout', runs: 3, median_seconds: 2, max_seconds: 3 },
    ]);
    expect(a.failing_steps).toEqual([
      {
        step: 'Click "Pay"',
        failures: 2,
        cases: 2,
        last_seen: '2026-11-01T15:00:00.000Z',
        last_run_id: runs.r7,
      },
      { step: 'Open /', failures: 1, cases: 1, last_seen: '2026-11-02T12:00:00.000Z', last_run_id: runs.r4 },
    ]);
    expect(a.flaky).toEqual([
      {
        name: 'A',
        suite: 'Checkout',
        suite_id: project.suite,
        suite_version: 1,
        runs: 4,
        flips: 2,
        retried_passes: 1,
        flip_rate: 2 / 3,
        run_ids: [runs.r3, runs.r2],
      },
      {
        name: 'B',
        suite: 'Checkout',
        suite_id: project.suite,
        suite_version: 1,
        runs: 4,
        flips: 1,
        retried_passes: 0,
        flip_rate: 1 / 3,
        run_ids: [runs.r4],
      },
    ]);
    expect(a.model_cost).toEqual([
      {
        day: '2026-11-02',
        engine: 'anthropic/claude',
        calls: 1,
        input_tokens: 100,
        output_tokens: 10,
        cost_usd: 0.125,
      },
      {
        day: '2026-11-02',
        engine: 'openai/gpt-4o',
        calls: 2,
        input_tokens: 200,
        output_tokens: 20,
        cost_usd: 0.75,
      },
    ]);
    expect(
      a.design_scores.map((s: { site: string; points: { score: number }[] }) => [
        s.site,
        s.points.map((p) => p.score),
      ]),
    ).toEqual([
      ['https://blog.example', [50]],
      ['https://shop.example', [70, 90]],
    ]);
  });

  it('counts days in the asked time zone and narrows to a project', async () => {
    const tokyo = (await get(alice, '/api/analytics?from=2026-11-01&to=2026-11-03&tz=Asia/Tokyo')).data;
    expect(tokyo.from).toBe('2026-10-31T15:00:00.000Z');
    expect(tokyo.daily.map((d: { day: string; runs: number }) => [d.day, d.runs])).toEqual([
      ['2026-11-01', 2],
      ['2026-11-02', 3],
      ['2026-11-03', 1],
    ]);
    const shop = (await get(alice, `/api/analytics?from=2026-11-01&to=2026-11-02&project_id=${project.id}`))
      .data;
    expect(shop.daily.map((d: { runs: number }) => d.runs)).toEqual([2, 3]);
    expect(shop.model_cost.map((m: { engine: string }) => m.engine)).toEqual(['openai/gpt-4o']);
    expect(shop.design_scores.map((s: { site: string }) => s.site)).toEqual(['https://shop.example']);
  });

  it("answers only the caller's history and refuses a bad zone or range with 422", async () => {
    const theirs = (await get(bob, '/api/analytics?from=2026-11-01&to=2026-11-02')).data;
    expect(theirs.daily.map((d: { runs: number }) => d.runs)).toEqual([1]);
    expect(theirs.flaky).toEqual([]);
    expect(theirs.model_cost).toEqual([]);
    for (const query of [
      'tz=Mars/Olympus',
      'from=2025-01-01&to=2026-11-02',
      'from=2026-11-02&to=2026-11-01',
    ]) {
      expect((await get(alice, `/api/analytics?${query}`)).status).toBe(422);
    }
  });
});
