import type { NewTestResult, NewTestRun } from '@argus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from '../testing/api-targets';
import type { InProcessServer } from '../testing/in-process-server';

type User = { token: string; user: { id: string; username: string } };

const step = (action: string, status = 'success', error: string | null = null) => ({
  step_number: 0,
  action: 'act',
  description: action,
  status,
  error,
  timestamp: '2026-11-01T00:00:00Z',
});
const result = (
  name: string,
  status: string,
  steps: ReturnType<typeof step>[] = [step('Open /')],
  error: string | null = null,
): NewTestResult => ({
  test_case_id: null,
  test_case_name: name,
  status,
  execution_time: 1,
  error_message: error,
  steps,
  logs: [],
  screenshots: [],
});

describe.each(apiTargets())('history API on $name', ({ start }) => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  const repos = () => server.app.services.repos;
  const get = async (user: User, path: string) => api.call('GET', path, { token: user.token });

  /** A run recorded through the repository, then dated: the repositories always stamp `now`. */
  async function run(user: User, input: NewTestRun, at: string, results: NewTestResult[] = []) {
    const row = await repos().testRuns.create(user.user.id, input);
    for (const r of results) await repos().testRuns.addResult(user.user.id, row.id, r);
    await server.app.services.db.exec(
      `UPDATE test_runs SET created_at = '${new Date(at).toISOString()}' WHERE id = '${row.id}'`,
    );
    return row.id;
  }
  async function project(user: User) {
    const res = await api.call('POST', '/api/projects', {
      token: user.token,
      json: {
        name: 'Shop',
        environments: [
          { name: 'Production', base_url: 'https://shop.example' },
          { name: 'Staging', base_url: 'https://staging.shop.example' },
        ],
      },
    });
    expect(res.status).toBe(201);
    const suite = await api.call('POST', `/api/projects/${res.data.id}/suites`, {
      token: user.token,
      json: {
        name: 'Checkout',
        test_cases: [
          { test_name: 'Pay', steps: ['Open /', 'Click "Pay"'] },
          { test_name: 'Browse', steps: ['Open /'] },
        ],
      },
    });
    expect(suite.status).toBe(201);
    return {
      id: res.data.id as string,
      envs: res.data.environments.map((e: { id: string }) => e.id) as string[],
      suite: suite.data.id as string,
    };
  }

  beforeAll(async () => {
    server = (await start()) as InProcessServer;
    api = client(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('pages through runs, comparisons and conversations with equal timestamps, none twice and none missed', async () => {
    const alice = await api.signUp('pager');
    const same = '2026-11-10T12:00:00.000Z';
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await run(alice, { url: `https://a.example/${i}`, status: 'completed' }, same));
    ids.push(await run(alice, { url: 'https://a.example/old', status: 'completed' }, '2026-11-09T00:00:00Z'));
    for (let i = 0; i < 2; i++) {
      const c = await repos().designComparisons.addComparison(alice.user.id, {
        session_id: null,
        comparison_type: 'image',
        website_url: 'https://a.example/',
        figma_url: null,
        file_id: null,
        results: { overall_similarity: 80 + i },
        images: {},
      });
      const v = await repos().conversations.create(alice.user.id, { title: `Chat ${i}` });
      await server.app.services.db.exec(
        `UPDATE comparisons SET created_at = '${same}' WHERE id = '${c.id}';
         UPDATE conversations SET created_at = '${same}' WHERE id = '${v.id}'`,
      );
      ids.push(c.id, v.id);
    }
    const seen: { id: string; created_at: string; kind: string; score: number | null }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(alice, `/api/history?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.data.items);
      cursor = res.data.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(seen.map((i) => i.id).sort()).toEqual([...ids].sort());
    // Newest first; among equal instants, by id descending; the old run last.
    expect(seen.slice(0, 9).map((i) => i.id)).toEqual(
      ids.filter((_id, i) => i !== 5).sort((a, b) => b.localeCompare(a)),
    );
    expect(seen[9].id).toBe(ids[5]);
    expect(
      seen
        .filter((i) => i.kind === 'comparison')
        .map((i) => i.score)
        .sort(),
    ).toEqual([80, 81]);
  });

  it('refuses a cursor it did not give with 422', async () => {
    const alice = await api.signUp('cursor');
    for (const bad of ['nope', Buffer.from('2026-11-10|x').toString('base64url')]) {
      const res = await get(alice, `/api/history?cursor=${bad}`);
      expect(res.status).toBe(422);
      expect(res.data.detail[0].loc).toEqual(['query', 'cursor']);
    }
  });

  it('filters by kind, project, environment, suite, engine, trigger, outcome, dates and text, for its owner only', async () => {
    const alice = await api.signUp('filter');
    const bob = await api.signUp('filter-bob');
    const p = await project(alice);
    const saved = { project_id: p.id, environment_id: p.envs[0], suite_id: p.suite, suite_version: 1 };
    const passed = await run(
      alice,
      {
        url: 'https://shop.example',
        test_suite_name: 'Checkout',
        ...saved,
        engine: 'built-in',
        trigger: 'schedule',
        status: 'completed',
        total_tests: 2,
        passed_tests: 2,
      },
      '2026-11-03T10:00:00Z',
    );
    const flaky = await run(
      alice,
      {
        url: 'https://shop.example',
        test_suite_name: 'Checkout',
        ...saved,
        environment_id: p.envs[1],
        engine: 'openai/gpt',
        trigger: 'api',
        status: 'completed',
        passed_tests: 1,
        flaky_tests: 1,
      },
      '2026-11-04T23:59:59Z',
    );
    const failed = await run(
      alice,
      { url: 'https://100%_off.example', command: 'buy shoes', status: 'completed', failed_tests: 1 },
      '2026-11-05T00:00:00Z',
    );
    const errored = await run(alice, { url: 'https://x.example', status: 'error' }, '2026-11-05T01:00:00Z');
    const running = await run(alice, { url: 'https://x.example', status: 'running' }, '2026-11-05T02:00:00Z');
    const interrupted = await run(
      alice,
      { url: 'https://x.example', status: 'interrupted' },
      '2026-11-05T03:00:00Z',
    );
    const chat = await repos().conversations.create(alice.user.id, {
      title: 'Find the 100% deal',
      url: 'https://chat.example',
    });
    await run(bob, { url: 'https://shop.example', status: 'completed' }, '2026-11-04T00:00:00Z');

    const ids = async (query: string) => {
      const res = await get(alice, `/api/history?${query}`);
      expect(res.status).toBe(200);
      return res.data.items.map((i: { id: string }) => i.id);
    };
    expect(await ids('kind=conversation')).toEqual([chat.id]);
    expect(await ids('kind=run')).toEqual([interrupted, running, errored, failed, flaky, passed]);
    expect(await ids(`project_id=${p.id}`)).toEqual([flaky, passed]);
    expect(await ids(`environment_id=${p.envs[1]}`)).toEqual([flaky]);
    expect(await ids(`suite_id=${p.suite}&kind=conversation`)).toEqual([]);
    expect(await ids('engine=built-in')).toEqual([passed]);
    expect(await ids('trigger=api')).toEqual([flaky]);
    expect(await ids('status=passed')).toEqual([passed]);
    expect(await ids('status=flaky')).toEqual([flaky]);
    expect(await ids('status=failed')).toEqual([errored, failed]);
    expect(await ids('status=running')).toEqual([running]);
    expect(await ids('status=interrupted')).toEqual([interrupted]);
    expect(await ids('status=done')).toEqual([chat.id]);
    // A bare `to` includes its whole day; a bare `from` starts at its midnight (UTC).
    expect(await ids('kind=run&from=2026-11-04&to=2026-11-04')).toEqual([flaky]);
    expect(await ids('kind=run&to=2026-11-05T00:00:00Z')).toEqual([flaky, passed]);
    // `%` and `_` are themselves, not wildcards.
    expect(await ids('q=100%25')).toEqual([chat.id, failed]);
    expect(await ids('q=0%25_')).toEqual([failed]);
    expect(await ids('q=SHOES')).toEqual([failed]);
    expect(await ids('project_id=not-an-id')).toEqual([]);

    const [item] = (await get(alice, `/api/history?project_id=${p.id}&environment_id=${p.envs[0]}`)).data
      .items;
    expect(item).toMatchObject({
      project_name: 'Shop',
      environment_id: p.envs[0],
      suite_id: p.suite,
      suite_version: 1,
      trigger: 'schedule',
      status: 'passed',
      title: 'Checkout',
    });
    expect((await get(bob, '/api/history')).data.items).toHaveLength(1);
    expect((await get(bob, `/api/history/runs/${passed}`)).status).toBe(404);
  });

  it('compares a run with the previous run of its suite and environment, case by case', async () => {
    const alice = await api.signUp('compare');
    const p = await project(alice);
    const base = {
      url: 'https://shop.example',
      test_suite_name: 'Checkout',
      project_id: p.id,
      environment_id: p.envs[0],
      suite_id: p.suite,
      status: 'completed',
    };
    const cases = (names: string[]) => names.map((test_name) => ({ test_name, steps: [] }));
    const before = await run(
      alice,
      { ...base, test_cases: cases(['Pay', 'Browse', 'Search', 'Old']) },
      '2026-11-01T00:00:00Z',
      [
        result('Pay', 'passed', [step('Open /'), step('Click "Pay"')]),
        result('Browse', 'flaky'),
        result('Search', 'failed', [step('Open /', 'error', 'boom')], 'boom'),
        result('Old', 'passed'),
      ],
    );
    // Neither another environment's run nor one still running is the previous run.
    await run(
      alice,
      { ...base, environment_id: p.envs[1], test_cases: cases(['Pay']) },
      '2026-11-01T01:00:00Z',
      [result('Pay', 'failed')],
    );
    await run(alice, { ...base, status: 'running', test_cases: cases(['Pay']) }, '2026-11-01T02:00:00Z');
    const now = await run(
      alice,
      { ...base, test_cases: cases(['Pay', 'Browse', 'Search', 'New', 'Never']) },
      '2026-11-02T00:00:00Z',
      [
        result('Pay', 'failed', [step('Open /'), step('Click "Pay"', 'error', 'No button')], 'No button'),
        result('Browse', 'passed'),
        result('Search', 'passed', [step('Open /')]),
        result('New', 'passed'),
      ],
    );
    const res = await get(alice, `/api/history/runs/${now}`);
    expect(res.status).toBe(200);
    expect(res.data.run.id).toBe(now);
    expect(res.data.previous.id).toBe(before);
    const byName = Object.fromEntries(res.data.cases.map((c: { name: string }) => [c.name, c]));
    expect(byName.Pay).toMatchObject({
      change: 'new_failure',
      status: 'failed',
      previous_status: 'passed',
      error: 'No button',
    });
    expect(byName.Pay.first_difference).toEqual({
      step_number: 2,
      now: { action: 'Click "Pay"', status: 'error', error: 'No button' },
      before: { action: 'Click "Pay"', status: 'success', error: null },
    });
    expect(byName.Browse).toMatchObject({
      change: 'still_passing',
      previous_status: 'flaky',
      first_difference: null,
    });
    expect(byName.Search).toMatchObject({ change: 'fixed', status: 'passed', previous_status: 'failed' });
    expect(byName.Search.first_difference.step_number).toBe(1);
    expect(byName.New).toMatchObject({ change: 'new', previous_status: null });
    expect(byName.Never).toMatchObject({ change: 'new', status: 'skipped' });
    expect(byName.Old).toMatchObject({ change: 'removed', status: null, previous_status: 'passed' });
    expect(res.data.counts).toEqual({ new_failures: 1, fixed: 1, still_failing: 0, new: 2, removed: 1 });
    const first = await get(alice, `/api/history/runs/${before}`);
    expect(first.data.previous).toBeNull();
  });

  it("shows a case's strip newest first, its failures grouped, and the suite version that last changed it", async () => {
    const alice = await api.signUp('strip');
    const bob = await api.signUp('strip-bob');
    const p = await project(alice);
    // Version 2 changes Pay's steps; version 3 changes only Browse.
    for (const [pay, browse] of [
      [['Open /', 'Click "Pay now"'], ['Open /']],
      [
        ['Open /', 'Click "Pay now"'],
        ['Open /', 'Scroll'],
      ],
    ]) {
      const res = await api.call('PUT', `/api/projects/${p.id}/suites/${p.suite}`, {
        token: alice.token,
        json: {
          name: 'Checkout',
          test_cases: [
            { test_name: 'Pay', steps: pay },
            { test_name: 'Browse', steps: browse },
          ],
        },
      });
      expect(res.status).toBe(200);
    }
    const base = {
      url: 'https://shop.example',
      project_id: p.id,
      environment_id: p.envs[0],
      suite_id: p.suite,
      status: 'completed',
    };
    const runs: string[] = [];
    const outcomes: [string, string | null][] = [
      ['failed', 'Timed out after 5000 ms waiting for #order-4f3a9c2e1b'],
      ['passed', null],
      ['failed', 'Timed out after 7000 ms waiting for #order-9ab0c2d3e4'],
      ['failed', 'Expected "Paid" but saw "Pending" at https://shop.example/pay?id=17'],
      ['flaky', null],
    ];
    for (const [i, [status, error]] of outcomes.entries()) {
      runs.push(
        await run(alice, base, `2026-11-0${i + 1}T00:00:00Z`, [result('Pay', status, undefined, error)]),
      );
    }
    // Another suite's case of the same name is not in this strip.
    await run(
      alice,
      { url: 'https://shop.example', test_suite_name: 'Other', status: 'completed' },
      '2026-11-09T00:00:00Z',
      [result('Pay', 'failed', undefined, 'x')],
    );

    const res = await get(alice, `/api/history/cases?suite_id=${p.suite}&name=Pay`);
    expect(res.status).toBe(200);
    expect(res.data.results.map((r: { run_id: string }) => r.run_id)).toEqual([...runs].reverse());
    expect(res.data.results.map((r: { status: string }) => r.status)).toEqual([
      'flaky',
      'failed',
      'failed',
      'passed',
      'failed',
    ]);
    expect(res.data.failures).toEqual([
      {
        message: 'Timed out after # ms waiting for #order-<id>',
        count: 2,
        last_seen: '2026-11-03T00:00:00.000Z',
        last_run_id: runs[2],
      },
      {
        message: 'Expected "…" but saw "…" at https://shop.example/pay?…',
        count: 1,
        last_seen: '2026-11-04T00:00:00.000Z',
        last_run_id: runs[3],
      },
    ]);
    expect(res.data.last_changed).toMatchObject({ version: 2 });
    const byRun = await get(alice, `/api/history/cases?run_id=${runs[0]}&name=Pay`);
    expect(byRun.data.results).toHaveLength(5);
    const adHoc = await get(
      alice,
      `/api/history/cases?run_id=${runs.length ? (await get(alice, '/api/history?limit=1')).data.items[0].id : ''}&name=Pay`,
    );
    expect(adHoc.data).toMatchObject({ suite_id: null, last_changed: null });
    expect(adHoc.data.results).toHaveLength(1);
    expect((await get(bob, `/api/history/cases?suite_id=${p.suite}&name=Pay`)).status).toBe(404);
    expect((await get(alice, '/api/history/cases?name=Pay')).status).toBe(422);
  });
});
