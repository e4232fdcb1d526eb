/**
 * Live video of a run (automation_video): once the screen asks, the test in focus streams
 * `video_frame`s addressed to the automation session; another user's socket sees none; turned off,
 * the next run sends none.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveFixtureSite } from '../../../../fixtures/site/serve';
import { client } from '../testing/api-targets';
import { startInProcess } from '../testing/in-process-server';
import type { RunningServer } from '../testing/spawn-server';
import { openSocket, type TestSocket } from '../testing/ws-client';

let server: RunningServer;
let site: Awaited<ReturnType<typeof serveFixtureSite>>;
let alice: TestSocket;
let bob: TestSocket;
let sessionId: string;

beforeAll(async () => {
  site = await serveFixtureSite();
  server = await startInProcess({ ALLOWED_TARGETS: '127.0.0.1' });
  const api = client(server);
  const a = await api.signUp('alice');
  const b = await api.signUp('bob');
  sessionId = (
    await api.call('POST', '/api/sessions/', {
      token: a.token,
      json: { title: 'Automation: video', session_type: 'automation', url: `${site.url}/` },
    })
  ).data.id;
  const ws = server.url.replace('http', 'ws');
  alice = openSocket(`${ws}/ws/${a.user.id}?token=${a.token}`);
  bob = openSocket(`${ws}/ws/${b.user.id}?token=${b.token}`);
  await alice.next('connection_established');
  await bob.next('connection_established');
});
afterAll(async () => {
  alice?.ws.close(1000);
  bob?.ws.close(1000);
  await server?.stop();
  await site?.close();
});

const slowCase = {
  test_name: 'Watched',
  description: '',
  category: 'Functional',
  priority: 'low',
  steps: [`Navigate to ${'/'}`, 'Scroll to bottom', 'Wait 1 second', 'Scroll to top', 'Wait 1 second'],
  expected_result: '',
};

async function runOnce(): Promise<number> {
  const from = alice.all.length;
  alice.send('run_single_test', { url: `${site.url}/`, test_case: slowCase, session_id: sessionId });
  await alice.next('all_tests_completed', 60_000);
  return alice.all.slice(from).filter((m) => m.type === 'video_frame').length;
}

it('streams the test in focus to its owner only, addressed to the automation session', async () => {
  alice.send('automation_video', { session_id: sessionId, enabled: true });
  const frames = await runOnce();
  expect(frames).toBeGreaterThan(0);
  const one = alice.all.find((m) => m.type === 'video_frame');
  expect(one?.session_id).toBe(sessionId);
  expect(Buffer.from(String(one?.data.frame), 'base64').subarray(0, 3)).toEqual(
    Buffer.from([0xff, 0xd8, 0xff]),
  );
  expect(bob.all.filter((m) => m.type === 'video_frame')).toEqual([]);
});

it('sends no frames once the screen turns video off', async () => {
  alice.send('automation_video', { session_id: sessionId, enabled: false });
  expect(await runOnce()).toBe(0);
});
