import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from './testing/api-targets';
import type { RunningServer } from './testing/spawn-server';
import { openSocket, type TestSocket } from './testing/ws-client';

const PNG_1x1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SESSION_NOT_FOUND = { detail: 'Session not found', code: 'SESSION_NOT_FOUND' };
const TEST_RUN_NOT_FOUND = { detail: 'Test run not found', code: 'TEST_RUN_NOT_FOUND' };

type User = { token: string; user: { id: string } };

describe.each(apiTargets())("another user's session or test run is refused, on $name", ({ start }) => {
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  let alice: User;
  let bob: User;
  let bobSocket: TestSocket;
  let aliceSession: string;
  let aliceRun: string;
  /** Alice's records as she last saw them; every refusal must leave them exactly so. */
  let before: { session: unknown; run: unknown; runs: unknown; shots: unknown };

  const asAlice = async () => ({
    session: (await api.call('GET', `/api/sessions/${aliceSession}`, { token: alice.token })).data,
    run: (await api.call('GET', `/api/automation/test-runs/${aliceRun}`, { token: alice.token })).data,
    runs: (
      await api.call('GET', `/api/automation/test-runs?session_id=${aliceSession}`, { token: alice.token })
    ).data,
    shots: (await api.call('GET', `/api/screenshots/test-run/${aliceRun}`, { token: alice.token })).data,
  });
  /** Alice's records unchanged, and Bob left with nothing either. */
  const nothingRecorded = async () => {
    expect(await asAlice()).toEqual(before);
    expect((await api.call('GET', '/api/automation/test-runs', { token: bob.token })).data).toEqual([]);
    expect((await api.call('GET', '/api/sessions/', { token: bob.token })).data).toEqual([]);
  };

  beforeAll(async () => {
    server = await start();
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
    const session = await api.call('POST', '/api/sessions/', {
      token: alice.token,
      json: { title: 'Automation: shop', session_type: 'automation', url: 'https://shop.example' },
    });
    aliceSession = session.data.id;
    const run = await api.call('POST', '/api/automation/test-runs', {
      token: alice.token,
      json: {
        url: 'https://shop.example',
        session_id: aliceSession,
        test_cases: [{ test_name: 'Home loads', steps: ['Reload'] }],
      },
    });
    expect(run.status).toBe(201);
    aliceRun = run.data.id;
    before = await asAlice();
    expect(before.runs).toHaveLength(1);
    bobSocket = openSocket(`${server.url.replace('http', 'ws')}/ws/${bob.user.id}?token=${bob.token}`);
    await bobSocket.next('connection_established');
  });
  afterAll(async () => {
    bobSocket?.ws.close(1000);
    await server?.stop();
  });

  it('over HTTP: 404 Session not found / Test run not found, and nothing is written', async () => {
    const refusals: [Promise<{ status: number; data: unknown }>, object][] = [
      [
        api.call('POST', '/api/automation/test-runs', {
          token: bob.token,
          json: { url: 'https://shop.example', session_id: aliceSession, test_cases: [{ test_name: 'x' }] },
        }),
        SESSION_NOT_FOUND,
      ],
      [api.call('GET', `/api/sessions/${aliceSession}`, { token: bob.token }), SESSION_NOT_FOUND],
      [
        api.call('PUT', `/api/sessions/${aliceSession}`, { token: bob.token, json: { title: 'mine now' } }),
        SESSION_NOT_FOUND,
      ],
      [api.call('DELETE', `/api/sessions/${aliceSession}`, { token: bob.token }), SESSION_NOT_FOUND],
      [api.call('GET', `/api/automation/test-runs/${aliceRun}`, { token: bob.token }), TEST_RUN_NOT_FOUND],
      [
        api.call('PUT', `/api/automation/test-runs/${aliceRun}`, {
          token: bob.token,
          json: {
            status: 'completed',
            test_results: [{ status: 'passed', test_case: { test_name: 'x' }, execution_time: 1 }],
          },
        }),
        TEST_RUN_NOT_FOUND,
      ],
      [
        api.call('POST', '/api/automation/test-results', {
          token: bob.token,
          json: { test_run_id: aliceRun, test_case_name: 'Home loads', status: 'failed' },
        }),
        TEST_RUN_NOT_FOUND,
      ],
      [
        api.call('POST', '/api/screenshots/upload', {
          token: bob.token,
          json: {
            test_run_id: aliceRun,
            test_case_name: 'Home loads',
            image_data: `data:image/png;base64,${PNG_1x1}`,
          },
        }),
        { ...TEST_RUN_NOT_FOUND, error: 'Test run not found' },
      ],
      [api.call('GET', `/api/screenshots/test-run/${aliceRun}`, { token: bob.token }), TEST_RUN_NOT_FOUND],
      [
        api.call('GET', `/api/screenshots/test-case/${aliceRun}/Home%20loads`, { token: bob.token }),
        TEST_RUN_NOT_FOUND,
      ],
    ];
    for (const [call, answer] of refusals) {
      const res = await call;
      expect(res.status, JSON.stringify(res.data)).toBe(404);
      expect(res.data).toEqual(answer);
    }
    await nothingRecorded();
  });

  it('a session id that names no session of the caller is refused like another user’s', async () => {
    for (const id of ['session-1', '00000000-0000-4000-8000-000000000000']) {
      const res = await api.call('POST', '/api/automation/test-runs', {
        token: bob.token,
        json: { url: 'https://shop.example', session_id: id },
      });
      expect(res.status).toBe(404);
      expect(res.data).toEqual(SESSION_NOT_FOUND);
    }
    await nothingRecorded();
  });

  it('over the socket: an error with the code, to the sender only, and nothing starts', async () => {
    const aliceSocket = openSocket(
      `${server.url.replace('http', 'ws')}/ws/${alice.user.id}?token=${alice.token}`,
    );
    await aliceSocket.next('connection_established');
    const cases = [{ test_name: 'Home loads', steps: ['Reload'] }];
    const messages: [string, unknown, { message: string; code: string }][] = [
      [
        'generate_test_cases',
        { url: 'https://shop.example', session_id: aliceSession },
        { message: 'Session not found', code: 'SESSION_NOT_FOUND' },
      ],
      [
        'command_generate_test_cases',
        { url: 'https://shop.example', command: 'search for shoes', session_id: aliceSession },
        { message: 'Session not found', code: 'SESSION_NOT_FOUND' },
      ],
      [
        'run_all_tests',
        { url: 'https://shop.example', test_cases: cases, session_id: aliceSession },
        { message: 'Session not found', code: 'SESSION_NOT_FOUND' },
      ],
      [
        'run_all_tests',
        { url: 'https://shop.example', test_cases: cases, test_run_id: aliceRun },
        { message: 'Test run not found', code: 'TEST_RUN_NOT_FOUND' },
      ],
      [
        'run_single_test',
        { url: 'https://shop.example', test_case: cases[0], session_id: aliceSession, test_run_id: aliceRun },
        { message: 'Session not found', code: 'SESSION_NOT_FOUND' },
      ],
      [
        'run_single_test',
        { url: 'https://shop.example', test_case: cases[0], test_run_id: aliceRun },
        { message: 'Test run not found', code: 'TEST_RUN_NOT_FOUND' },
      ],
    ];
    for (const [type, data, error] of messages) {
      bobSocket.send(type, data);
      const refusal = await bobSocket.next('error', 10_000);
      expect(refusal.data, type).toEqual({ ...error, feature: 'automation' });
      // About the session the message named (its sender's own words), or none.
      expect(refusal.session_id, type).toBe((data as { session_id?: string }).session_id ?? null);
    }
    await new Promise((r) => setTimeout(r, 300));
    // No generation_started, execution_started or anything else reached either user.
    expect(bobSocket.messages).toEqual([]);
    expect(aliceSocket.messages).toEqual([]);
    aliceSocket.ws.close(1000);
    bobSocket.send('get_automation_status', {});
    await expect(bobSocket.next('automation_in_progress', 500)).rejects.toThrow();
    await nothingRecorded();
  });

  it('still takes a session of the caller’s own, and a browser-only local_ id', async () => {
    const own = await api.call('POST', '/api/sessions/', {
      token: bob.token,
      json: { title: 'Automation: mine', session_type: 'automation' },
    });
    for (const sessionId of [own.data.id, 'local_k2j3h4', null]) {
      const res = await api.call('POST', '/api/automation/test-runs', {
        token: bob.token,
        json: { url: 'https://shop.example', session_id: sessionId },
      });
      expect(res.status, JSON.stringify(res.data)).toBe(201);
      expect(res.data.session_id).toBe(sessionId);
    }
    expect(await asAlice()).toEqual(before);
  });
});
