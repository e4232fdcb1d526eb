import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixtureSite } from '../../../../fixtures/site/serve';
import { client } from '../testing/api-targets';
import { type RunningServer, spawnServer } from '../testing/spawn-server';
import { type Message, openSocket, type TestSocket } from '../testing/ws-client';

/**
 * Load: many users at once against one server with MAX_BROWSERS=4 (CI only: `npm run test:load`).
 * Every user asks for a full-mode generation of the same small fixture site at the same moment, then
 * runs what came back. Everyone must get a suite and a completed, stored run; those who waited for a
 * browser must have been told their place in line. Loopback only. Figures are printed for
 * docs/PERFORMANCE.md.
 */
const USERS = Number(process.env.LOAD_USERS ?? 20);
const MAX_BROWSERS = 4;
const QUEUED = /^Waiting for a free browser: (\d+) ahead$/;

interface User {
  name: string;
  token: string;
  id: string;
  socket: TestSocket;
  /** When each message arrived (Date.now()). */
  arrived: Map<Message, number>;
}

/** Resident memory of a process and its descendants (the server and its Chromium), in MiB. */
function treeRssMiB(root: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid …: the command may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parents.get(p) ?? 0, hops++)
      if (p === root) return true;
    return false;
  };
  let kib = 0;
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      kib += Number(match?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return Math.round(kib / 1024);
}

/** The first message of one of `types`, waiting for it (messages of other types stay). */
async function first(socket: TestSocket, types: string[], timeoutMs: number): Promise<Message> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = socket.all.find((m) => types.includes(m.type));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${types.join(' or ')} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe(`${USERS} users at once, ${MAX_BROWSERS} browsers`, () => {
  let server: RunningServer;
  let site: Awaited<ReturnType<typeof serveFixtureSite>>;
  const users: User[] = [];
  let t0 = 0;

  beforeAll(async () => {
    site = await serveFixtureSite();
    server = await spawnServer({
      ALLOWED_TARGETS: '127.0.0.1',
      MAX_BROWSERS: String(MAX_BROWSERS),
      // The start page only (six cases each) keeps the test within minutes on two cores; the queue,
      // not the size of a suite, is what this test is about.
      EXPLORE_MAX_PAGES: '1',
      // Every account is registered and signed in from this one address.
      REGISTRATIONS_PER_IP: String(USERS + 10),
      LOGIN_ATTEMPTS_PER_IP: String(USERS + 10),
    });
    const api = client(server);
    for (let i = 0; i < USERS; i++) {
      const name = `load${i + 1}`;
      const { token, user } = await api.signUp(name);
      const socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${user.id}?token=${token}`);
      await socket.next('connection_established');
      const arrived = new Map<Message, number>();
      // Called after the socket's own listener has added the message to `all`.
      socket.ws.on('message', () => {
        const message = socket.all.at(-1);
        if (message) arrived.set(message, Date.now());
      });
      users.push({ name, token, id: user.id, socket, arrived });
    }
  });
  afterAll(async () => {
    for (const user of users) user.socket.ws.close(1000);
    await server?.stop();
    await site?.close();
  });

  it('gives every user a suite and a completed, stored run, and tells those who wait their place in line', async () => {
    const rssBefore = treeRssMiB(server.pid);
    t0 = Date.now();
    const url = `${site.url}/`;
    for (const user of users) user.socket.send('generate_test_cases', { url });

    // Every generation must produce cases (an error is a failure, and says why).
    const generated = await Promise.all(
      users.map(async (user) => {
        const done = await first(user.socket, ['test_cases_generated', 'error'], 480_000);
        return { user, done, at: Date.now() - t0 };
      }),
    );
    const failures = generated
      .filter((g) => g.done.type === 'error')
      .map((g) => `${g.user.name}: ${g.done.data.message}`);
    expect(failures).toEqual([]);
    const generationDoneMs = Math.max(...generated.map((g) => g.at));
    const caseCounts = generated.map((g) => (g.done.data.test_cases as unknown[]).length);
    for (const count of caseCounts) expect(count).toBeGreaterThan(0);
    // Said now, so a run that goes on too long still leaves this figure.
    console.log(`load: ${USERS} generations produced cases after ${(generationDoneMs / 1000).toFixed(1)} s`);

    // Then everyone runs what came back, at once.
    const runsStarted = Date.now() - t0;
    for (const { user, done } of generated) {
      user.socket.send('run_all_tests', {
        url,
        test_cases: done.data.test_cases,
        test_mode: 'full',
        test_run_id: done.data.test_run_id,
      });
    }
    const completed = await Promise.all(
      generated.map(async ({ user, done }) => {
        const end = await first(user.socket, ['all_tests_completed', 'execution_stopped', 'error'], 480_000);
        return { user, end, runId: done.data.test_run_id as string };
      }),
    );
    const totalMs = Date.now() - t0;
    const rssAfter = treeRssMiB(server.pid);

    const api = client(server);
    for (const [i, { user, end, runId }] of completed.entries()) {
      expect(end.type, `${user.name}: ${JSON.stringify(end.data)}`).toBe('all_tests_completed');
      expect(end.data.total_tests).toBe(caseCounts[i]);
      const stored = await api.call('GET', `/api/automation/test-runs/${runId}`, { token: user.token });
      expect(stored.status).toBe(200);
      expect(stored.data).toMatchObject({
        status: 'completed',
        total_tests: caseCounts[i],
        passed_tests: end.data.passed,
        failed_tests: caseCounts[i] - Number(end.data.passed),
      });
      expect(stored.data.test_results).toHaveLength(caseCounts[i]);
    }

    // Who was told its place in line, and the longest wait for a browser: from a first 'Waiting…' to
    // the next message that shows work going on (test_progress is sent before a test waits).
    let told = 0;
    let maxWaitMs = 0;
    const positions = new Set<number>();
    for (const user of users) {
      let since: number | null = null;
      let waited = false;
      for (const m of user.socket.all) {
        const at = user.arrived.get(m) ?? 0;
        // Told its place: waiting its turn in the line (`automation_queued`, issue 37), or for a
        // browser once its turn came (a progress line).
        const line = m.type === 'automation_queued' ? Number(m.data.ahead) : null;
        const queued = m.type === 'progress_update' ? QUEUED.exec(String(m.data.message)) : null;
        if (line !== null || queued) {
          waited = true;
          positions.add(line ?? Number(queued?.[1]));
          since ??= at;
        } else if (since !== null && m.type !== 'test_progress') {
          maxWaitMs = Math.max(maxWaitMs, at - since);
          since = null;
        }
      }
      if (waited) told++;
    }
    expect(told).toBeGreaterThan(0);

    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      [
        `load: ${USERS} users, MAX_BROWSERS=${MAX_BROWSERS}, fixture site (EXPLORE_MAX_PAGES=1)`,
        `  generations: ${USERS}/${USERS} produced cases (${Math.min(...caseCounts)}–${Math.max(...caseCounts)} each); all done after ${s(generationDoneMs)}`,
        `  runs: ${completed.length}/${USERS} completed and stored, ${caseCounts.reduce((a, b) => a + b, 0)} tests; started at ${s(runsStarted)}, all done after ${s(totalMs)}`,
        `  told their place in line: ${told}/${USERS} users (places ${Math.min(...positions)}–${Math.max(...positions)}); longest wait for a browser ${s(maxWaitMs)}`,
        `  RSS of the server and its browser: ${rssBefore} MiB before, ${rssAfter} MiB after`,
      ].join('\n'),
    );
  });
});
