/**
 * Scale-out (docs/DEPLOYMENT.md#how-work-flows) with the machine's Redis and PostgreSQL: two web
 * processes' apps and two workers (each its own services, browser pool and Redis connections, in
 * this test's process; the worker process itself is worker.ts around the same `startWorker`), against
 * a small site on 127.0.0.1. Runs queued from the API and from the Automation screen's socket are run
 * by the workers with the verdicts one process gives; their messages reach the user's sockets on both
 * web processes in the same order; a stop sent to the other web process stops the run; work waits its
 * turn, with its place said, while every worker is busy. Needs TEST_DATABASE_URL (as CI sets it).
 */
import type { Server } from 'node:http';
import { createScratchDatabase, type Database, openDatabase } from '@argus/db';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixtureApp } from '../../../../fixtures/apps/serve';
import { TODO_FIXTURE_SUITE, TODO_STATES } from '../../../../fixtures/apps/todo-suite';
import { type RunningWorker, startWorker } from '../compose/worker';
import { loadConfig } from '../config';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';
import {
  checksReady,
  LONG_SUITE,
  type RunDetail,
  runDetail,
  runEnd,
  SUITE,
  siteProject,
  startScaleSite,
} from '../testing/scale-site';
import { SMALL_EXPLORATION } from '../testing/small-exploration';
import { spawnServer, spawnWorker, testServerEnv } from '../testing/spawn-server';
import { type Message, openSocket, type TestSocket } from '../testing/ws-client';
import { reopenedMessage } from './conversation-worker';

const PG_URL = process.env.TEST_DATABASE_URL;
/** A Redis database of its own, emptied before and after. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/9';

describe.skipIf(!PG_URL)('scale-out on Redis and PostgreSQL', () => {
  let site: { server: Server; url: string };
  let scratch: { url: string; drop: () => Promise<void> };
  let webs: InProcessServer[] = [];
  const workers: { running: RunningWorker; db: Database }[] = [];
  let redis: Redis;
  const env = () => ({
    REDIS_URL,
    ALLOWED_TARGETS: '127.0.0.1',
    AUTOMATION_PARALLELISM: '1',
    MAX_BROWSERS: '1',
    STEP_TIMEOUT_MS: '3000',
    // A job whose worker died is taken up again within about twice this.
    WORKER_LOCK_MS: '2000',
    // A live browser with no tab anywhere closes after this.
    CONVERSATION_GRACE_MS: '3000',
    ...SMALL_EXPLORATION,
  });

  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    await redis.flushdb();
    site = await startScaleSite();
    scratch = await createScratchDatabase(PG_URL as string);
    const first = await startInProcess({ ...env(), DATABASE_URL: scratch.url });
    // A second web process on the same database, Redis and data directory (blobs, secrets).
    const second = await startInProcess({ ...env(), DATABASE_URL: scratch.url, DATA_DIR: first.dataDir });
    webs = [first, second];
    for (let i = 0; i < 2; i++) {
      const config = loadConfig(
        testServerEnv(first.port, first.dataDir, { ...env(), DATABASE_URL: scratch.url }),
      );
      const db = await openDatabase({ databaseUrl: scratch.url });
      workers.push({ running: await startWorker(config, db, pino({ level: 'warn' })), db });
    }
  }, 120_000);

  afterAll(async () => {
    for (const { running, db } of workers) {
      await running.stop();
      await db.close();
    }
    // The first owns the data directory: it goes last.
    for (const web of [...webs].reverse()) await web.stop();
    await scratch?.drop();
    await redis?.flushdb();
    redis?.disconnect();
    await new Promise((resolve) => site?.server.close(resolve));
  });

  const socketOf = (web: InProcessServer, user: { user: { id: string }; token: string }) => {
    const socket = openSocket(`${web.url.replace('http', 'ws')}/ws/${user.user.id}?token=${user.token}`);
    return socket;
  };
  const connected = async (socket: TestSocket) => {
    await socket.next('connection_established');
  };
  /** One tab of the user on each web process, both connected. */
  const tabsOnBoth = async (user: { user: { id: string }; token: string }) => {
    const tabs = [socketOf(webs[0], user), socketOf(webs[1], user)] as const;
    await Promise.all(tabs.map(connected));
    return tabs;
  };
  /** A session of the user's, made through the first web process; its id. */
  const newSession = async (token: string, json: { title: string; session_type: string; url: string }) =>
    (await client(webs[0]).call('POST', '/api/sessions/', { token, json })).data.id as string;
  const verdicts = (report: { results: { test_name: string; status: string }[] }) =>
    Object.fromEntries(report.results.map((r) => [r.test_name, r.status]));

  /** Makes a project on the site and saves the suite; answers what a run of it needs. */
  const project = (api: ReturnType<typeof client>, token: string) =>
    siteProject(api, token, site.url, { name: 'Checks', test_cases: SUITE });

  /**
   * A long saved-suite run (LONG_SUITE) taken by a spawned worker, the in-process ones paused; answers
   * once two of its cases are recorded. The caller resumes the in-process workers and ends the child.
   */
  const longRunOnSpawnedWorker = async (name: string) => {
    for (const { running } of workers) await running.worker.pause();
    const child = await spawnWorker(webs[0].port, webs[0].dataDir, { ...env(), DATABASE_URL: scratch.url });
    const api = client(webs[0]);
    const user = await api.signUp(name);
    const { runsPath } = await siteProject(api, user.token, site.url, {
      name: 'Long',
      test_cases: LONG_SUITE,
    });
    const res = await api.call('POST', runsPath, { token: user.token, json: {} });
    const runId = res.data.test_run_id as string;
    const detail = () => runDetail(api, user.token, runId);
    await expect
      .poll(async () => (await detail()).test_results.length, { timeout: 60_000, interval: 100 })
      .toBeGreaterThanOrEqual(2);
    return { api, user, runId, child, detail };
  };
  /** The run finished, every case recorded once and passed; what was recorded before is kept as it was. */
  const expectFinishedOnce = (after: RunDetail, before: RunDetail['test_results']) => {
    expect(after.status).toBe('completed');
    expect(after.test_results.map((r) => r.test_case_name).sort()).toEqual(
      LONG_SUITE.map((c) => c.test_name).sort(),
    );
    expect(after.test_results.every((r) => r.status === 'passed')).toBe(true);
    for (const result of before) expect(after.test_results.find((r) => r.id === result.id)).toEqual(result);
  };
  const resumeWorkers = () => {
    for (const { running } of workers) running.worker.resume();
  };

  it('runs suites queued from the API on the workers, with the verdicts one process gives', async () => {
    const api = client(webs[0]);
    const users = await Promise.all(['ann', 'ben', 'cat'].map((name) => api.signUp(name)));
    const started = await Promise.all(
      users.map(async (user) => {
        const { projectId, suiteId } = await project(api, user.token);
        const res = await api.call('POST', `/api/projects/${projectId}/suites/${suiteId}/runs`, {
          token: user.token,
          json: {},
        });
        expect(res.status).toBe(202);
        return { user, runId: res.data.test_run_id as string };
      }),
    );
    const reports = await Promise.all(
      started.map(async ({ user, runId }) => {
        // Followed through the other web process: the event stream reads the database.
        await runEnd(webs[1].url, user.token, runId);
        return (await client(webs[1]).call('GET', `/api/runs/${runId}/report.json`, { token: user.token }))
          .data;
      }),
    );
    for (const report of reports) {
      expect(report).toMatchObject({ status: 'completed', total_tests: 3, passed_tests: 2, failed_tests: 1 });
      expect(verdicts(report)).toEqual({
        'Ready page': 'passed',
        'Broken page': 'failed',
        'Slow page': 'passed',
      });
    }
    // Both workers took work; the web processes never started a browser.
    expect(workers.map((w) => w.running.worker.taken).every((n) => n > 0)).toBe(true);
    for (const web of webs) expect(await web.app.services.pool.browserPid()).toBeUndefined();

    // The same suite in one process (no Redis): the same verdicts.
    const single = await startInProcess({ ...env(), REDIS_URL: undefined });
    try {
      const local = client(single);
      const dan = await local.signUp('dan');
      const { projectId, suiteId } = await project(local, dan.token);
      const res = await local.call('POST', `/api/projects/${projectId}/suites/${suiteId}/runs`, {
        token: dan.token,
        json: {},
      });
      await runEnd(single.url, dan.token, res.data.test_run_id);
      const report = (
        await local.call('GET', `/api/runs/${res.data.test_run_id}/report.json`, { token: dan.token })
      ).data;
      expect(verdicts(report)).toEqual(verdicts(reports[0]));
    } finally {
      await single.stop();
    }
  });

  it("runs the to-do fixture app's suite on the workers with one process's verdicts, clean and with a planted bug", async () => {
    const app = await serveFixtureApp('todo');
    const single = await startInProcess({ ...env(), REDIS_URL: undefined });
    try {
      const onWorkers = client(webs[1]);
      const onOne = client(single);
      const [ora, otto] = [await onWorkers.signUp('ora'), await onOne.signUp('otto')];
      const suite = { name: TODO_FIXTURE_SUITE.name, test_cases: TODO_FIXTURE_SUITE.test_cases };
      const [workerSuite, singleSuite] = [
        await siteProject(onWorkers, ora.token, app.url, suite),
        await siteProject(onOne, otto.token, app.url, suite),
      ];
      const verdictsOf = async (
        api: ReturnType<typeof client>,
        url: string,
        token: string,
        runsPath: string,
      ) => {
        const res = await api.call('POST', runsPath, { token, json: {} });
        expect(res.status).toBe(202);
        await runEnd(url, token, res.data.test_run_id);
        return verdicts(
          (await api.call('GET', `/api/runs/${res.data.test_run_id}/report.json`, { token })).data,
        );
      };
      for (const state of TODO_STATES.slice(0, 2)) {
        app.setBug(state.bug);
        const expected = Object.fromEntries(
          suite.test_cases.map((c) => [
            c.test_name,
            state.failing.includes(c.test_name) ? 'failed' : 'passed',
          ]),
        );
        const workers = await verdictsOf(onWorkers, webs[1].url, ora.token, workerSuite.runsPath);
        const one = await verdictsOf(onOne, single.url, otto.token, singleSuite.runsPath);
        expect(workers, `workers, bug ${state.bug}`).toEqual(expected);
        expect(one, `one process, bug ${state.bug}`).toEqual(expected);
      }
    } finally {
      app.setBug(null);
      await single.stop();
      await app.close();
    }
  }, 180_000);

  it("reaches the user's sockets on every web process in the same order, and stops from the other one", async () => {
    const api = client(webs[0]);
    const eve = await api.signUp('eve');
    const [here, there] = await tabsOnBoth(eve);
    try {
      here.send('run_all_tests', { url: `${site.url}/`, test_cases: SUITE, session_id: null }, 'run-1');
      const doneHere = await here.next('all_tests_completed');
      const doneThere = await there.next('all_tests_completed');
      expect(doneThere.data).toEqual(doneHere.data);
      // The worker echoes the request's id, as one process does.
      expect([doneHere.request_id, doneThere.request_id]).toEqual(['run-1', 'run-1']);
      const automation = (socket: TestSocket) =>
        socket.all
          .filter((m: Message) => !['connection_established', 'video_frame'].includes(m.type))
          .map((m) => `${m.type} ${JSON.stringify(m.data)}`);
      expect(automation(there)).toEqual(automation(here));
      expect(automation(here).some((line) => line.startsWith('test_completed'))).toBe(true);

      // A long run started on one web process, stopped from the other.
      here.messages.length = 0;
      there.messages.length = 0;
      here.send('run_all_tests', { url: `${site.url}/`, test_cases: LONG_SUITE, session_id: null });
      await there.next('execution_started');
      there.send('stop_execution', { session_id: null });
      await here.next('execution_stopping', 10_000);
      await here.next('execution_stopped', 30_000);
      await expect
        .poll(
          async () =>
            (await api.call('GET', '/api/automation/test-runs?limit=1', { token: eve.token })).data[0]
              ?.status,
          { timeout: 30_000 },
        )
        .not.toBe('running');
    } finally {
      here.ws.close();
      there.ws.close();
    }
  });

  it('keeps work waiting its turn while every worker is busy, saying how many are ahead', async () => {
    const api = client(webs[0]);
    const busy = await Promise.all(['fay', 'gus'].map((name) => api.signUp(name)));
    const waiting = await Promise.all(['hal', 'ivy', 'jon'].map((name) => api.signUp(name)));
    const busySockets = busy.map((user) => socketOf(webs[0], user));
    const sockets = waiting.map((user) => socketOf(webs[1], user));
    await Promise.all([...busySockets, ...sockets].map(connected));
    try {
      // Both workers busy with a long run each.
      for (const socket of busySockets) {
        socket.send('run_all_tests', { url: `${site.url}/`, test_cases: LONG_SUITE, session_id: null });
      }
      await Promise.all(busySockets.map((socket) => socket.next('execution_started')));
      for (const socket of sockets) {
        socket.send('run_all_tests', {
          url: `${site.url}/`,
          test_cases: [checksReady('Ready page', '/ok')],
          session_id: null,
        });
        // One at a time, so each finds the ones before it waiting.
        await socket.next('automation_queued', 2_000).catch(() => undefined);
      }
      const queued = sockets.map((socket) => socket.all.find((m) => m.type === 'automation_queued')?.data);
      expect(queued).toEqual([0, 1, 2].map((ahead) => ({ kind: 'running', ahead, test_run_id: null })));
      for (const socket of [...busySockets, ...sockets]) {
        const done = await socket.next('all_tests_completed', 90_000);
        expect(done.data.passed).toBe(done.data.total_tests);
      }
    } finally {
      for (const socket of [...busySockets, ...sockets]) socket.ws.close();
    }
  }, 120_000);
  it('runs a job in a worker process (npm run worker) and drains it on SIGTERM', async () => {
    // Only the process takes work: the workers in this test's process stop taking jobs.
    for (const { running } of workers) await running.worker.pause();
    const taken = workers.map((w) => w.running.worker.taken);
    const child = await spawnWorker(webs[0].port, webs[0].dataDir, { ...env(), DATABASE_URL: scratch.url });
    try {
      const api = client(webs[0]);
      const kim = await api.signUp('kim');
      const { projectId, suiteId } = await project(api, kim.token);
      const res = await api.call('POST', `/api/projects/${projectId}/suites/${suiteId}/runs`, {
        token: kim.token,
        json: {},
      });
      expect(res.status).toBe(202);
      await runEnd(webs[0].url, kim.token, res.data.test_run_id);
      const report = (
        await api.call('GET', `/api/runs/${res.data.test_run_id}/report.json`, { token: kim.token })
      ).data;
      expect(verdicts(report)).toEqual({
        'Ready page': 'passed',
        'Broken page': 'failed',
        'Slow page': 'passed',
      });
      expect(workers.map((w) => w.running.worker.taken)).toEqual(taken);
      expect(await child.stop(), child.output()).toBe(0);
    } finally {
      await child.kill();
      for (const { running } of workers) running.worker.resume();
    }
  }, 120_000);
  it('finishes the run of a worker killed mid-run on another worker, without running its recorded cases again', async () => {
    const { api, user, runId, child, detail } = await longRunOnSpawnedWorker('lee');
    try {
      await child.kill();
      const before = (await detail()).test_results;
      expect(before.length).toBeLessThan(LONG_SUITE.length);

      // The other workers find the job's lock lapsed and take it up.
      resumeWorkers();
      await runEnd(webs[0].url, user.token, runId);
      const after = await detail();
      expectFinishedOnce(after, before);
      expect(after.execution_log.map((l) => l.message)).toContainEqual(
        `Resumed on another worker: ${before.length} of ${LONG_SUITE.length} tests were already recorded and are not run again`,
      );
      const report = (await api.call('GET', `/api/runs/${runId}/report.json`, { token: user.token })).data;
      expect(report).toMatchObject({ total_tests: 8, passed_tests: 8, failed_tests: 0 });
    } finally {
      await child.kill();
      resumeWorkers();
    }
  }, 180_000);
  it('hands a run back to the queue when its worker gets SIGTERM: the cases under way finish, another worker resumes the rest', async () => {
    const { user, runId, child, detail } = await longRunOnSpawnedWorker('rae');
    try {
      resumeWorkers();
      const signalled = Date.now();
      // The worker finishes the case it has started, hands the job back, and exits cleanly.
      expect(await child.stop(), child.output()).toBe(0);
      const exitedMs = Date.now() - signalled;
      const before = (await detail()).test_results;
      expect(before.length).toBeLessThan(LONG_SUITE.length);

      await runEnd(webs[0].url, user.token, runId);
      console.log(
        `[scale-out] SIGTERM: the worker exited ${exitedMs} ms after it, and the run was finished ${Date.now() - signalled} ms after it`,
      );
      const after = await detail();
      expectFinishedOnce(after, before);
      const log = after.execution_log.map((l) => l.message);
      expect(log).toContainEqual(
        `Handed back to the queue by a stopping worker: ${before.length} of ${LONG_SUITE.length} tests recorded`,
      );
      expect(log).toContainEqual(
        `Resumed on another worker: ${before.length} of ${LONG_SUITE.length} tests were already recorded and are not run again`,
      );
    } finally {
      await child.kill();
      resumeWorkers();
    }
  }, 180_000);

  it('lets a tab whose web process was killed (kill -9) pick its run up on another one', async () => {
    const suite = LONG_SUITE;
    // The built server (what `npm start` runs), on the same database, Redis and data directory.
    const third = await spawnServer({ ...env(), DATABASE_URL: scratch.url, DATA_DIR: webs[0].dataDir });
    try {
      const mia = await client(third).signUp('mia');
      const tab = openSocket(`${third.url.replace('http', 'ws')}/ws/${mia.user.id}?token=${mia.token}`);
      await connected(tab);
      tab.send('run_all_tests', { url: `${site.url}/`, test_cases: suite, session_id: null });
      const started = await tab.next('execution_started');
      await third.crash();
      await tab.closed;

      // The tab reconnects (through the proxy) to another web process and asks where its work stands.
      const again = socketOf(webs[1], mia);
      await connected(again);
      again.send('get_automation_status', {});
      const status = await again.next('automation_in_progress');
      expect(status.data).toMatchObject({
        kind: 'running',
        test_run_id: started.data.test_run_id,
        total_tests: suite.length,
      });
      const done = await again.next('all_tests_completed', 60_000);
      expect(done.data).toMatchObject({ total_tests: suite.length, passed: suite.length });
      again.ws.close();
    } finally {
      await third.crash();
    }
  }, 120_000);
  it('generates on a worker, for its HTTP caller and over the socket for every tab', async () => {
    const api = client(webs[0]);
    const ned = await api.signUp('ned');
    const { projectId } = await siteProject(api, ned.token, site.url);
    // The HTTP generation waits for its cases, which reach it through the job's reply channel.
    const generated = await api.call('POST', `/api/projects/${projectId}/generations`, {
      token: ned.token,
      json: { suite_name: 'Generated' },
    });
    expect(generated.status, JSON.stringify(generated.data)).toBe(201);
    expect(generated.data.cases).toBeGreaterThan(0);
    expect(generated.data.suite.test_cases).toHaveLength(generated.data.cases);

    const [here, there] = await tabsOnBoth(ned);
    try {
      there.send('generate_test_cases', { url: `${site.url}/`, session_id: null });
      const [a, b] = await Promise.all([
        here.next('test_cases_generated', 60_000),
        there.next('test_cases_generated', 60_000),
      ]);
      expect(a.data).toEqual(b.data);
      expect((a.data.test_cases as unknown[]).length).toBeGreaterThan(0);
    } finally {
      here.ws.close();
      there.ws.close();
    }
    for (const web of webs) expect(await web.app.services.pool.browserPid()).toBeUndefined();
  }, 120_000);

  it('holds a live browser on a worker: frames reach the tab on one web process, chat and stop come from the other', async () => {
    const api = client(webs[0]);
    const pat = await api.signUp('pat');
    const session = await newSession(pat.token, {
      title: 'Live',
      session_type: 'conversational',
      url: `${site.url}/`,
    });
    const taken = () => workers.reduce((n, w) => n + w.running.conversationWorker.taken, 0);
    const before = taken();
    const [here, there] = await tabsOnBoth(pat);
    const about = (socket: TestSocket, type: string) =>
      socket.next(type, 30_000).then((m) => {
        expect(m.session_id).toBe(session);
        return m;
      });
    try {
      here.send('start_conversation', { session_id: session, url: `${site.url}/`, video_streaming: true });
      const statuses: string[] = [];
      while (statuses.at(-1) !== 'ready' && statuses.length < 5)
        statuses.push(String((await about(here, 'browser_status')).data.status));
      expect(statuses[0]).toBe('loading');
      expect(statuses.at(-1)).toBe('ready');
      await expect
        .poll(() => here.all.filter((m) => m.type === 'video_frame').length, { timeout: 15_000 })
        .toBeGreaterThan(0);
      const frame = here.all.find((m) => m.type === 'video_frame');
      expect(String(frame?.data.frame)).toMatch(/^data:image\/jpeg;base64,/);
      // A second start for the same session (another tab) resumes it: no second browser.
      there.messages.length = 0;
      here.messages.length = 0;
      there.send('start_conversation', { session_id: session, url: `${site.url}/`, video_streaming: true });
      expect((await about(there, 'browser_status')).data.status).toBe('ready');

      // A chat turn sent through the other web process, carried out by the worker's built-in chat.
      there.send('conversation_message', {
        session_id: session,
        message: 'click Ready',
        current_url: `${site.url}/`,
      });
      const action = await about(here, 'browser_action');
      expect(action.data).toMatchObject({ url: `${site.url}/ok` });
      expect((await about(here, 'conversation_response')).data.message).toEqual(expect.any(String));

      there.send('stop_conversation', { session_id: session, reason: 'user' });
      expect((await about(here, 'conversation_stopped')).data.message).toBe('Session stopped');
      await expect
        .poll(async () => (await redis.keys('argus:conversation:*')).length, { timeout: 10_000 })
        .toBe(0);

      // Presence across processes: open again, then the first web process's tab goes. The worker
      // still counts the tab on the other one, so the browser outlives the grace (3 s here), takes
      // that tab's input and streams on; once that tab goes too, it closes.
      here.messages.length = 0;
      here.send('start_conversation', { session_id: session, url: `${site.url}/`, video_streaming: true });
      while ((await about(here, 'browser_status')).data.status !== 'ready');
      here.ws.close();
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(await redis.keys('argus:conversation:*')).toHaveLength(1);
      there.messages.length = 0;
      const streamed = there.all.filter((m) => m.type === 'video_frame').length;
      // Takeover input from that tab reaches the worker's browser: Tab to the page's first link, Enter.
      const key = (k: string) =>
        there.send('browser_input', {
          session_id: session,
          canvas: { width: 854, height: 480 },
          input: { type: 'key', action: 'press', key: k },
        });
      key('Tab');
      key('Enter');
      expect((await about(there, 'browser_action')).data).toMatchObject({
        action: 'navigated',
        url: `${site.url}/ok`,
      });
      // The new page is drawn and streamed to the tab left.
      await expect
        .poll(() => there.all.filter((m) => m.type === 'video_frame').length, { timeout: 10_000 })
        .toBeGreaterThan(streamed);
      there.ws.close();
      await expect
        .poll(async () => (await redis.keys('argus:conversation:*')).length, { timeout: 20_000 })
        .toBe(0);
    } finally {
      here.ws.close();
      there.ws.close();
    }
    // Two live browsers opened, both by workers; none by a web process.
    expect(taken()).toBe(before + 2);
    for (const web of webs) expect(await web.app.services.pool.browserPid()).toBeUndefined();
  }, 120_000);

  it('opens a live browser again on another worker when its worker is killed (kill -9), at its start page, and says so', async () => {
    // Only the spawned worker takes live browsers until it is killed.
    for (const { running } of workers) await running.conversationWorker.pause();
    const taken = () => workers.reduce((n, w) => n + w.running.conversationWorker.taken, 0);
    const before = taken();
    const child = await spawnWorker(webs[0].port, webs[0].dataDir, { ...env(), DATABASE_URL: scratch.url });
    const api = client(webs[0]);
    const ivy = await api.signUp('ivy');
    const session = await newSession(ivy.token, {
      title: 'Live',
      session_type: 'conversational',
      url: `${site.url}/`,
    });
    const tab = socketOf(webs[0], ivy);
    await connected(tab);
    const about = (type: string) =>
      tab.next(type, 60_000).then((m) => {
        expect(m.session_id).toBe(session);
        return m;
      });
    const ready = async () => {
      while ((await about('browser_status')).data.status !== 'ready');
    };
    /** 'click Ready' works only on the start page, whose link it follows to /ok. */
    const clickReady = async () => {
      tab.send('conversation_message', { session_id: session, message: 'click Ready', current_url: null });
      expect((await about('browser_action')).data).toMatchObject({ url: `${site.url}/ok` });
      await about('conversation_response');
    };
    try {
      tab.send('start_conversation', { session_id: session, url: `${site.url}/`, video_streaming: false });
      await ready();
      await clickReady();
      expect(taken()).toBe(before);

      await child.kill();
      tab.messages.length = 0;
      for (const { running } of workers) running.conversationWorker.resume();
      // Another worker finds the job's lock lapsed and opens the browser again; the tab is told.
      await ready();
      expect((await about('conversation_response')).data.message).toBe(reopenedMessage(`${site.url}/`));
      expect(taken()).toBe(before + 1);
      // It is back at its start page, where the link is, and takes the chat.
      await clickReady();

      tab.send('stop_conversation', { session_id: session, reason: 'user' });
      expect((await about('conversation_stopped')).data.message).toBe('Session stopped');
      await expect
        .poll(async () => (await redis.keys('argus:conversation:*')).length, { timeout: 10_000 })
        .toBe(0);
    } finally {
      tab.ws.close();
      await child.kill();
      for (const { running } of workers) running.conversationWorker.resume();
    }
  }, 120_000);

  it('compares a design on a worker: refused twice at once, stopped from the other web process, then completed for every tab', async () => {
    const api = client(webs[0]);
    const oda = await api.signUp('oda');
    const session = await newSession(oda.token, {
      title: 'Design',
      session_type: 'figma-comparison',
      url: `${site.url}/ok`,
    });
    const form = new FormData();
    const png = await sharp({
      create: { width: 800, height: 600, channels: 3, background: '#ffffff' },
    })
      .png()
      .toBuffer();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'design.png');
    const uploaded = await api.call('POST', '/api/uploads', { token: oda.token, body: form });
    expect(uploaded.status, JSON.stringify(uploaded.data)).toBe(201);
    const compare = (path: string) => ({
      comparison_type: 'image',
      file_id: uploaded.data.file_id,
      website_url: `${site.url}${path}`,
      session_id: session,
      viewports: { desktop: { width: 800, height: 600 } },
    });
    const taken = () => workers.reduce((n, w) => n + w.running.comparisonWorker.taken, 0);
    const before = taken();
    const [here, there] = await tabsOnBoth(oda);
    const said = (socket: TestSocket, type: string, text: string) =>
      expect
        .poll(() => socket.all.some((m) => m.type === type && JSON.stringify(m.data).includes(text)), {
          timeout: 60_000,
        })
        .toBe(true);
    try {
      // A page that answers after 60 s: the worker is capturing it until the stop.
      here.send('figma_website_comparison', compare('/slow?ms=60000'));
      await said(there, 'vision_comparison_progress', 'Capturing');
      // A second one, from the other web process, while the first runs on a worker: refused there.
      there.send('figma_website_comparison', compare('/ok'));
      expect((await there.next('vision_comparison_error', 10_000)).data.error).toBe(
        'A comparison is already running. Wait for it to finish or stop it before starting another.',
      );
      const asked = Date.now();
      there.send('stop_comparison', { session_id: session });
      expect((await here.next('vision_comparison_error', 10_000)).data.error).toBe('Comparison stopped');
      console.log(`[scale-out] a comparison on a worker stopped ${Date.now() - asked} ms after the stop`);

      here.messages.length = 0;
      there.messages.length = 0;
      here.all.length = 0;
      there.all.length = 0;
      here.send('figma_website_comparison', compare('/ok'), 'cmp-1');
      const [a, b] = await Promise.all([
        here.next('vision_comparison_completed', 60_000),
        there.next('vision_comparison_completed', 60_000),
      ]);
      expect(a).toEqual(b);
      expect(a.request_id).toBe('cmp-1');
      const results = a.data.results as { overall_similarity: number; engine: string };
      expect(results.overall_similarity).toBeGreaterThan(0);
      // Every tab followed the same progress, in the same order.
      const progress = (socket: TestSocket) =>
        socket.all.filter((m) => m.type === 'vision_comparison_progress').map((m) => m.data.message);
      expect(progress(there)).toEqual(progress(here));
      expect(progress(here).at(-1)).toBe('Comparison complete');
      // Stored with the session, read through the other web process.
      const stored = await client(webs[1]).call('GET', `/api/comparisons/${session}`, { token: oda.token });
      expect(stored.status).toBe(200);
      expect(stored.data.results.overall_similarity).toBe(results.overall_similarity);
    } finally {
      here.ws.close();
      there.ws.close();
    }
    expect(taken()).toBe(before + 2);
    for (const web of webs) expect(await web.app.services.pool.browserPid()).toBeUndefined();
  }, 120_000);
});
