import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixtureSite } from '../../../fixtures/site/serve';
import { apiTargets, client } from './testing/api-targets';
import { startInProcess } from './testing/in-process-server';
import { SMALL_EXPLORATION } from './testing/small-exploration';
import type { RunningServer } from './testing/spawn-server';
import { type Message, openSocket, type TestSocket } from './testing/ws-client';

type Api = ReturnType<typeof client>;
type User = { token: string; user: { id: string } };

const socketFor = async (server: RunningServer, who: User) => {
  const socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${who.user.id}?token=${who.token}`);
  await socket.next('connection_established');
  return socket;
};
const cases = (n: number, steps = 1) =>
  Array.from({ length: n }, (_, i) => ({
    test_name: `Case ${i + 1}`,
    steps: Array.from({ length: steps }, () => 'Reload'),
  }));
/** An image of exactly `bytes` bytes: a PNG signature and padding (the server sniffs the type, nothing more). */
const png = (bytes: number) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(bytes - 8)]);
const upload = (api: Api, who: User, runId: string, bytes: number) =>
  api.call('POST', '/api/screenshots/upload', {
    token: who.token,
    json: {
      test_run_id: runId,
      test_case_name: 'Case 1',
      image_data: `data:image/png;base64,${png(bytes).toString('base64')}`,
    },
  });
const newRun = async (api: Api, who: User, body: object = {}) => {
  const res = await api.call('POST', '/api/automation/test-runs', {
    token: who.token,
    json: { url: 'https://shop.example', ...body },
  });
  expect(res.status, JSON.stringify(res.data)).toBe(201);
  return res.data.id as string;
};
/** Waits a moment and says what else the socket heard (nothing, when nothing started). */
const heardSince = async (socket: TestSocket) => {
  await new Promise((r) => setTimeout(r, 300));
  return socket.messages.splice(0);
};

describe.each(apiTargets())('run size and storage quotas, on $name', ({ start }) => {
  let server: RunningServer;
  let api: Api;
  let alice: User;
  let bob: User;
  let socket: TestSocket;

  beforeAll(async () => {
    server = await start({
      MAX_CASES_PER_RUN: '3',
      MAX_STEPS_PER_CASE: '2',
      MAX_STORED_BYTES_PER_USER: '1000',
    });
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
    socket = await socketFor(server, alice);
  });
  afterAll(async () => {
    socket?.ws.close(1000);
    await server?.stop();
  });

  it('MAX_CASES_PER_RUN and MAX_STEPS_PER_CASE over HTTP: 422 with the code, pointing at the field', async () => {
    await newRun(api, alice, { test_cases: cases(3, 2) });
    const tooMany = await api.call('POST', '/api/automation/test-runs', {
      token: alice.token,
      json: { url: 'https://shop.example', test_cases: cases(4) },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.data).toEqual({
      code: 'TOO_MANY_TEST_CASES',
      detail: [
        {
          loc: ['body', 'test_cases'],
          msg: 'A run can hold at most 3 test cases (MAX_CASES_PER_RUN); this one has 4.',
          type: 'too_many_test_cases',
        },
      ],
    });
    const tooLong = await api.call('POST', '/api/automation/test-runs', {
      token: alice.token,
      json: {
        url: 'https://shop.example',
        test_cases: [...cases(1), { test_name: 'Long', steps: ['a', 'b', 'c'] }],
      },
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.data).toEqual({
      code: 'TOO_MANY_STEPS',
      detail: [
        {
          loc: ['body', 'test_cases', 1, 'steps'],
          msg: 'A test case can have at most 2 steps (MAX_STEPS_PER_CASE); "Long" has 3.',
          type: 'too_many_steps',
        },
      ],
    });
    const runs = await api.call('GET', '/api/automation/test-runs', { token: alice.token });
    expect(runs.data).toHaveLength(1);
  });

  it('MAX_CASES_PER_RUN and MAX_STEPS_PER_CASE on the socket: an error with the code, and nothing starts', async () => {
    socket.send('run_all_tests', { url: 'https://shop.example', test_cases: cases(4) });
    expect((await socket.next('error', 5_000)).data).toEqual({
      message: 'A run can hold at most 3 test cases (MAX_CASES_PER_RUN); this one has 4.',
      code: 'TOO_MANY_TEST_CASES',
      feature: 'automation',
    });
    socket.send('run_single_test', {
      url: 'https://shop.example',
      test_case: { test_name: 'Long', steps: ['a', 'b', 'c'] },
    });
    expect((await socket.next('error', 5_000)).data).toEqual({
      message: 'A test case can have at most 2 steps (MAX_STEPS_PER_CASE); "Long" has 3.',
      code: 'TOO_MANY_STEPS',
      feature: 'automation',
    });
    expect(await heardSince(socket)).toEqual([]);
    expect((await api.call('GET', '/api/automation/test-runs', { token: alice.token })).data).toHaveLength(1);
  });

  it('MAX_STORED_BYTES_PER_USER: uploads up to the quota, then 413 with the reason; per user', async () => {
    const runId = await newRun(api, alice);
    expect((await upload(api, alice, runId, 600)).status).toBe(201);
    expect((await upload(api, alice, runId, 400)).status).toBe(201); // exactly 1000: allowed
    const over = await upload(api, alice, runId, 9);
    expect(over.status).toBe(413);
    const text =
      'This screenshot (9 bytes) would take your stored screenshots past your storage quota of 1000 bytes ' +
      '(MAX_STORED_BYTES_PER_USER; 1000 bytes used). Delete test runs you no longer need to make room.';
    expect(over.data).toEqual({ detail: text, code: 'STORAGE_QUOTA_EXCEEDED', error: text });
    const stored = await api.call('GET', `/api/screenshots/test-run/${runId}`, { token: alice.token });
    expect(stored.data).toHaveLength(2);
    // Bob's quota is his own.
    expect((await upload(api, bob, await newRun(api, bob), 1000)).status).toBe(201);
  });

  it('a run is refused once the quota is used up, and deleting a run makes room', async () => {
    socket.send('run_all_tests', { url: 'https://shop.example', test_cases: cases(1) });
    expect((await socket.next('error', 5_000)).data).toEqual({
      message:
        'Your stored screenshots have used up your storage quota of 1000 bytes (MAX_STORED_BYTES_PER_USER; ' +
        '1000 bytes used). Delete test runs you no longer need to make room.',
      code: 'STORAGE_QUOTA_EXCEEDED',
      feature: 'automation',
    });
    expect(await heardSince(socket)).toEqual([]);

    const runs = await api.call('GET', '/api/automation/test-runs', { token: alice.token });
    const full = runs.data.find((r: { screenshots_paths: string[] }) => r.screenshots_paths.length === 2);
    expect(
      (await api.call('DELETE', `/api/automation/test-runs/${full.id}`, { token: bob.token })).status,
    ).toBe(404);
    expect(
      (await api.call('DELETE', `/api/automation/test-runs/${full.id}`, { token: alice.token })).status,
    ).toBe(204);
    expect(
      (await api.call('GET', `/api/automation/test-runs/${full.id}`, { token: alice.token })).status,
    ).toBe(404);
    expect((await upload(api, alice, await newRun(api, alice), 1000)).status).toBe(201);
  });
});

describe('quotas while the browser works (PGlite)', () => {
  let site: Awaited<ReturnType<typeof serveFixtureSite>>;
  let small: RunningServer;
  let roomy: RunningServer;

  beforeAll(async () => {
    site = await serveFixtureSite();
    [small, roomy] = await Promise.all([
      // Small generations: the fixture site still yields more cases (8) than the 3 a run may hold here.
      startInProcess({
        ...SMALL_EXPLORATION,
        ALLOWED_TARGETS: '127.0.0.1',
        MAX_CASES_PER_RUN: '3',
        MAX_STORED_BYTES_PER_USER: '1000',
      }),
      // Defaults, except that a run may take four browsers: MAX_BROWSERS_PER_USER (2) must hold it back;
      // and one piece of work at a time per organization, so more waits its turn.
      startInProcess({
        ...SMALL_EXPLORATION,
        ALLOWED_TARGETS: '127.0.0.1',
        AUTOMATION_PARALLELISM: '4',
        ORG_MAX_CONCURRENT_RUNS: '1',
      }),
    ]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([small?.stop(), roomy?.stop()]);
    await site?.close();
  });

  it('a generation hands out no more cases than a run may hold, and says so', async () => {
    const api = client(small);
    const alice = await api.signUp('alice');
    const socket = await socketFor(small, alice);
    socket.send('generate_test_cases', { url: `${site.url}/` });
    const generated = await socket.next('test_cases_generated', 90_000);
    expect(generated.data.test_cases).toHaveLength(3);
    const said = socket.all.filter((m) => m.type === 'progress_update').map((m) => String(m.data.message));
    expect(said.some((m) => /^Kept the first 3 of \d+ test cases \(MAX_CASES_PER_RUN\)$/.test(m))).toBe(true);
    socket.ws.close(1000);
  }, 120_000);

  it('a run that reaches the storage quota goes on without storing screenshots, and its log says why', async () => {
    const api = client(small);
    const bob = await api.signUp('bob');
    // 990 of 1000 bytes used: the run may start, and its first screenshot does not fit.
    expect((await upload(api, bob, await newRun(api, bob), 990)).status).toBe(201);
    const socket = await socketFor(small, bob);
    socket.send('run_all_tests', {
      url: `${site.url}/`,
      test_cases: [
        {
          test_name: 'Home',
          steps: [`Navigate to ${site.url}/`, 'Verify heading "Outdoor gear for every trail" is visible'],
        },
      ],
    });
    const started = await socket.next('execution_started', 30_000);
    const done = await socket.next('all_tests_completed', 60_000);
    expect(done.data).toMatchObject({ total_tests: 1, passed: 1 });
    // The steps were shown live, with their images.
    const steps = socket.all.filter(
      (m) => m.type === 'step_update' && (m.data.step_data as { status: string }).status === 'success',
    );
    expect(steps.length).toBeGreaterThan(0);
    const run = await api.call('GET', `/api/automation/test-runs/${started.data.test_run_id}`, {
      token: bob.token,
    });
    expect(run.data).toMatchObject({ status: 'completed', passed_tests: 1, screenshots_paths: [] });
    const notes = (run.data.execution_log as { level: string; message: string }[]).filter((e) =>
      e.message.startsWith('Screenshots from here on are not stored.'),
    );
    expect(notes).toEqual([
      expect.objectContaining({
        level: 'warn',
        message: expect.stringContaining('storage quota of 1000 bytes (MAX_STORED_BYTES_PER_USER'),
      }),
    ]);
    socket.ws.close(1000);
  }, 120_000);

  it('MAX_BROWSERS_PER_USER: a run holds at most two browsers; work asked for meanwhile waits its turn, for that user only', async () => {
    const api = client(roomy);
    const alice = await api.signUp('alice');
    const bob = await api.signUp('bob');
    const socket = await socketFor(roomy, alice);
    const slow = Array.from({ length: 4 }, (_, i) => ({
      test_name: `Slow ${i + 1}`,
      steps: [
        `Navigate to ${site.url}/`,
        'Wait 1 second',
        'Verify heading "Outdoor gear for every trail" is visible',
      ],
    }));
    socket.send('run_all_tests', { url: `${site.url}/`, test_cases: slow });
    const started = await socket.next('execution_started', 30_000);
    await socket.next('test_progress', 30_000);
    await socket.next('test_progress', 30_000);

    // Alice's organization has its one piece of work going: a generation waits its turn, never refused.
    socket.send('generate_test_cases', { url: `${site.url}/` });
    expect((await socket.next('automation_queued', 5_000)).data).toEqual({
      kind: 'generating',
      ahead: 0,
      test_run_id: null,
    });
    // A run under way cannot be deleted from under itself.
    const deleting = await api.call('DELETE', `/api/automation/test-runs/${started.data.test_run_id}`, {
      token: alice.token,
    });
    expect(deleting.status).toBe(400);
    expect(deleting.data.detail).toBe('This test run is still in progress. Stop it before deleting it.');
    // Bob's browsers are his own.
    const bobSocket = await socketFor(roomy, bob);
    bobSocket.send('generate_test_cases', { url: `${site.url}/` });
    await bobSocket.next('generation_started', 5_000);

    await socket.next('all_tests_completed', 90_000);
    // Her generation started when its turn came: once her run was over.
    await socket.next('generation_started', 30_000);
    const order = (socket.all as Message[]).map((m) => m.type);
    expect(order.indexOf('generation_started')).toBeGreaterThan(order.indexOf('all_tests_completed'));
    expect(socket.all.some((m) => m.type === 'error')).toBe(false);
    // Never more than two of Alice's tests at once, though AUTOMATION_PARALLELISM allows four.
    let running = 0;
    let most = 0;
    for (const m of socket.all as Message[]) {
      if (m.type === 'test_progress') most = Math.max(most, ++running);
      if (m.type === 'test_completed' || m.type === 'test_failed') running--;
    }
    expect(most).toBe(2);
    expect(socket.all.filter((m) => m.type === 'test_completed')).toHaveLength(4);
    await bobSocket.next('test_cases_generated', 90_000);
    await socket.next('test_cases_generated', 90_000);
    socket.ws.close(1000);
    bobSocket.ws.close(1000);
  }, 180_000);

  it('the default limits: 100 cases of 100 steps, not one more', async () => {
    const api = client(roomy);
    const carol = await api.signUp('carol');
    const post = (test_cases: unknown) =>
      api.call('POST', '/api/automation/test-runs', {
        token: carol.token,
        json: { url: 'https://shop.example', test_cases },
      });
    expect((await post(cases(100, 100))).status).toBe(201);
    expect((await post(cases(101))).data.code).toBe('TOO_MANY_TEST_CASES');
    expect((await post(cases(1, 101))).data.code).toBe('TOO_MANY_STEPS');
  });
});
