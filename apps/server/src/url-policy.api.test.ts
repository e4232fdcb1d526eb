import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, openDatabase } from '@argus/db';
import { resolveWebUrl } from '@argus/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from './testing/api-targets';
import { startInProcess } from './testing/in-process-server';
import type { RunningServer } from './testing/spawn-server';
import { openSocket, type TestSocket } from './testing/ws-client';

const TEXT = 'Blocked by the target policy: only http and https pages can be tested';
const BAD = [
  'javascript:alert(1)',
  'file:///etc/passwd',
  'data:text/html,<script>alert(1)</script>',
  'chrome://settings',
];

describe.each(apiTargets())('only http(s) URLs come in, on $name', ({ start }) => {
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  let alice: { token: string; user: { id: string } };
  let socket: TestSocket;
  let sessionId: string;

  beforeAll(async () => {
    server = await start();
    api = client(server);
    alice = await api.signUp('alice');
    socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${alice.user.id}?token=${alice.token}`);
    await socket.next('connection_established');
    const session = await api.call('POST', '/api/sessions/', {
      token: alice.token,
      json: { title: 'Shop', session_type: 'automation', url: 'https://shop.example' },
    });
    sessionId = session.data.id;
  });
  afterAll(async () => {
    socket?.ws.close(1000);
    await server?.stop();
  });

  it.each(BAD)('refuses %s in the words the engine refuses it with when a step meets it', async (bad) => {
    const engineSays = (() => {
      try {
        return resolveWebUrl(bad);
      } catch (error) {
        return (error as Error).message;
      }
    })();
    const res = await api.call('POST', '/api/automation/test-runs', {
      token: alice.token,
      json: { url: bad },
    });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].msg).toBe(engineSays);
    expect(engineSays).toBe(TEXT);
  });

  it.each(BAD)('refuses %s over HTTP with 422 and the reason, and records nothing', async (bad) => {
    const refusals = [
      await api.call('POST', '/api/sessions/', {
        token: alice.token,
        json: { title: 'x', session_type: 'automation', url: bad },
      }),
      await api.call('PUT', `/api/sessions/${sessionId}`, { token: alice.token, json: { url: bad } }),
      await api.call('POST', '/api/automation/test-runs', { token: alice.token, json: { url: bad } }),
      await api.call('POST', '/api/automation/test-runs', {
        token: alice.token,
        json: { url: 'https://shop.example', target_url: bad },
      }),
      await api.call('POST', '/api/automation/test-runs', {
        token: alice.token,
        json: { url: 'https://shop.example', test_cases: [{ test_name: 't', url: bad }] },
      }),
    ];
    const where = [
      ['body', 'url'],
      ['body', 'url'],
      ['body', 'url'],
      ['body', 'target_url'],
      ['body', 'test_cases', 0, 'url'],
    ];
    refusals.forEach((res, i) => {
      expect(res.status, JSON.stringify(res.data)).toBe(422);
      expect(res.data.detail).toEqual([{ loc: where[i], msg: TEXT, type: 'custom' }]);
    });

    const sessions = await api.call('GET', '/api/sessions/', { token: alice.token });
    expect(sessions.data.map((s: { url: string }) => s.url)).toEqual(['https://shop.example']);
    expect((await api.call('GET', '/api/automation/test-runs', { token: alice.token })).data).toEqual([]);
  });

  it.each(BAD)(
    'refuses %s on the socket with a VALIDATION error naming the field, and starts nothing',
    async (bad) => {
      const messages: [string, unknown, string][] = [
        ['generate_test_cases', { url: bad, session_id: sessionId }, 'data.url'],
        ['command_generate_test_cases', { url: bad, command: 'search', session_id: sessionId }, 'data.url'],
        ['run_all_tests', { url: bad, test_cases: [{ test_name: 't', steps: ['Reload'] }] }, 'data.url'],
        [
          'run_all_tests',
          { url: 'https://shop.example', test_cases: [{ test_name: 't', steps: ['Reload'], url: bad }] },
          'data.test_cases.0.url',
        ],
        ['run_single_test', { url: bad, test_case: { test_name: 't', steps: ['Reload'] } }, 'data.url'],
        [
          'run_single_test',
          { url: 'https://shop.example', test_case: { test_name: 't', steps: ['Reload'], url: bad } },
          'data.test_case.url',
        ],
      ];
      for (const [type, data, path] of messages) {
        socket.send(type, data);
        const error = await socket.next('error', 5_000);
        expect(error.data, type).toEqual({
          message: `Invalid message at ${path}: ${TEXT}`,
          code: 'VALIDATION',
          feature: 'automation',
        });
      }
      // Neither a generation nor a run began: no message but the refusals, no record.
      await new Promise((r) => setTimeout(r, 300));
      expect(socket.messages.filter((m) => m.type !== 'error')).toEqual([]);
      expect((await api.call('GET', '/api/automation/test-runs', { token: alice.token })).data).toEqual([]);
    },
  );

  it('keeps what the spec lets be empty: a session without a URL, a case that uses its run’s URL', async () => {
    for (const url of [null, '']) {
      const res = await api.call('POST', '/api/sessions/', {
        token: alice.token,
        json: { title: 'later', session_type: 'conversational', url },
      });
      expect(res.status).toBe(201);
      await api.call('DELETE', `/api/sessions/${res.data.id}`, { token: alice.token });
    }
    const run = await api.call('POST', '/api/automation/test-runs', {
      token: alice.token,
      json: { url: 'https://shop.example', test_cases: [{ test_name: 't', url: '' }] },
    });
    expect(run.status).toBe(201);
  });
});

describe.each(apiTargets())('records stored before the URL rule still load, on $name', ({ name }) => {
  it('reads sessions and test runs whose URLs the rule would now refuse', async () => {
    // The same database across two server processes: a DATA_DIR, or a scratch PostgreSQL database.
    const dataDir = await mkdtemp(join(tmpdir(), 'argus-old-urls-'));
    const pgUrl = process.env.TEST_DATABASE_URL;
    const scratch = name === 'postgresql' && pgUrl ? await createScratchDatabase(pgUrl) : undefined;
    const env = scratch ? { DATA_DIR: dataDir, DATABASE_URL: scratch.url } : { DATA_DIR: dataDir };
    try {
      const first = await startInProcess(env);
      const api = client(first);
      const alice = await api.signUp('alice');
      const session = await api.call('POST', '/api/sessions/', {
        token: alice.token,
        json: { title: 'old', session_type: 'automation', url: 'https://shop.example' },
      });
      const run = await api.call('POST', '/api/automation/test-runs', {
        token: alice.token,
        json: { url: 'https://shop.example', test_cases: [{ test_name: 't' }] },
      });
      await first.stop();

      // What an earlier version let in.
      const db = await openDatabase(
        scratch ? { databaseUrl: scratch.url } : { pgliteDir: join(dataDir, 'db') },
      );
      await db.exec(`UPDATE sessions SET url = 'javascript:alert(1)' WHERE id = '${session.data.id}'`);
      await db.exec(
        `UPDATE test_runs SET url = 'shop.example', target_url = 'file:///etc/passwd',
           test_cases = '[{"test_name":"t","url":"chrome://settings"}]'::jsonb WHERE id = '${run.data.id}'`,
      );
      await db.close();

      const second = await startInProcess(env);
      try {
        const again = client(second);
        const one = await again.call('GET', `/api/sessions/${session.data.id}`, { token: alice.token });
        expect(one.status).toBe(200);
        expect(one.data.url).toBe('javascript:alert(1)');
        const list = await again.call('GET', '/api/sessions/', { token: alice.token });
        expect(list.data.map((s: { url: string }) => s.url)).toEqual(['javascript:alert(1)']);
        const stored = await again.call('GET', `/api/automation/test-runs/${run.data.id}`, {
          token: alice.token,
        });
        expect(stored.status).toBe(200);
        expect(stored.data).toMatchObject({ url: 'shop.example', target_url: 'file:///etc/passwd' });
        const runs = await again.call('GET', '/api/automation/test-runs', { token: alice.token });
        expect(runs.data[0].test_cases).toEqual([{ test_name: 't', url: 'chrome://settings' }]);
        // Only a change that sends the URL again is checked; one that leaves it alone goes through.
        const renamed = await again.call('PUT', `/api/sessions/${session.data.id}`, {
          token: alice.token,
          json: { title: 'renamed' },
        });
        expect(renamed.status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      await scratch?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
