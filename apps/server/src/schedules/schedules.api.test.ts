/**
 * Schedules and webhooks with real runs (docs/SCHEDULES.md): two server apps over one database (two
 * connections to PostgreSQL when TEST_DATABASE_URL is set, else one PGlite database shared by both)
 * tick over simulated minutes and an every-minute schedule starts exactly one run a minute; a webhook
 * receiver on 127.0.0.1 gets a signed failure and then a recovery; a receiver answering 500 is
 * retried with growing waits until it answers 200, and one that never does is given up on.
 */
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, type Database, openDatabase, seedPgliteDir } from '@argus/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { client } from '../testing/api-targets';
import { freePort, testServerEnv } from '../testing/spawn-server';

const pgUrl = process.env.TEST_DATABASE_URL;
const RETRY_BASE_MS = 150;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook receiver on 127.0.0.1: /hook answers 200, /flaky 500 twice then 200, /down always 500. */
async function startReceiver() {
  const received: Received[] = [];
  let flaky = 0;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body, at: Date.now() });
      const fail = request.url === '/down' || (request.url === '/flaky' && flaky++ < 2);
      response.writeHead(fail ? 500 : 200, { 'content-type': 'text/plain' }).end(fail ? 'no' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Two apps as two server processes would build them: same database, same secrets, own browsers. */
async function twoApps(env: Record<string, string>) {
  const dataDirs = [
    await mkdtemp(join(tmpdir(), 'argus-sched-a-')),
    await mkdtemp(join(tmpdir(), 'argus-sched-b-')),
  ];
  const scratch = pgUrl ? await createScratchDatabase(pgUrl) : undefined;
  const databases: Database[] = [];
  if (scratch) {
    databases.push(
      await openDatabase({ databaseUrl: scratch.url }),
      await openDatabase({ databaseUrl: scratch.url }),
    );
  } else {
    const pgliteDir = join(dataDirs[0], 'db');
    await seedPgliteDir(pgliteDir);
    const db = await openDatabase({ pgliteDir });
    databases.push(db, db);
  }
  const apps: FastifyInstance[] = [];
  for (const [index, dataDir] of dataDirs.entries()) {
    const port = await freePort();
    const config = loadConfig(
      testServerEnv(port, dataDir, {
        ...env,
        DATABASE_URL: scratch?.url ?? '',
        // Shared, as several nodes on one database must share them.
        JWT_SECRET: 'schedules-test-jwt-secret-0123456789abcdef',
        SECRETS_KEY: 'schedules-test-secrets-key',
      }),
    );
    apps.push(await buildApp({ config, db: databases[index], logger: false }));
    await apps[index].ready();
  }
  return {
    apps,
    close: async () => {
      for (const app of apps) await app.close();
      for (const db of new Set(databases)) await db.close();
      await scratch?.drop();
      for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    },
  };
}

describe(`schedules and webhooks with two server processes on ${pgUrl ? 'postgresql' : 'pglite'}`, () => {
  let todo: FixtureApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let servers: Awaited<ReturnType<typeof twoApps>>;
  let api: ReturnType<typeof client>;
  let alice: { token: string; user: { id: string } };
  let project: { id: string; environments: { id: string }[] };

  beforeAll(async () => {
    [todo, receiver] = await Promise.all([serveFixtureApp('todo'), startReceiver()]);
    servers = await twoApps({
      ALLOWED_TARGETS: '127.0.0.1',
      // The test drives the ticks itself, with simulated times.
      SCHEDULER_ENABLED: 'false',
      AUTOMATION_PARALLELISM: '1',
      STEP_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
      WEBHOOK_MAX_ATTEMPTS: '4',
    });
    api = client({ url: 'http://unused', app: servers.apps[0] });
    alice = await api.signUp('alice');
    const created = await api.call('POST', '/api/projects', {
      token: alice.token,
      json: { name: 'Todos', environments: [{ name: 'staging', base_url: `${todo.url}/` }] },
    });
    expect(created.status).toBe(201);
    project = created.data;
  }, 180_000);
  afterAll(async () => {
    await servers?.close();
    await Promise.all([todo?.close(), receiver?.close()]);
  });

  async function saveSuite(name: string, steps: string[]) {
    const saved = await api.call('POST', `/api/projects/${project.id}/suites`, {
      token: alice.token,
      json: { name, test_cases: [{ test_name: name, steps }] },
    });
    expect(saved.status).toBe(201);
    return saved.data as { id: string; version: number };
  }

  /** Waits until run `id` is over, and answers it. */
  async function finished(id: string) {
    for (let i = 0; i < 600; i++) {
      const run = await api.call('GET', `/api/automation/test-runs/${id}`, { token: alice.token });
      if (!['pending', 'running'].includes(run.data.status)) return run.data;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`run ${id} did not finish`);
  }

  it('an every-minute schedule starts exactly one run a minute with two processes ticking', async () => {
    const suite = await saveSuite('Smoke', ['Navigate to /', 'Verify text "todos" is visible']);
    const created = await api.call('POST', `/api/projects/${project.id}/schedules`, {
      token: alice.token,
      json: { suite_id: suite.id, cron: '* * * * *', timezone: 'UTC' },
    });
    expect(created.status).toBe(201);
    const first = new Date(created.data.next_run_at).getTime();
    const [a, b] = servers.apps.map((app) => app.services.scheduler);
    const startedBy: string[] = [];
    const MINUTES = 3;
    for (let minute = 0; minute < MINUTES; minute++) {
      const now = new Date(first + minute * 60_000 + 1_000);
      // Both processes tick at the same moment, twice each (a tick and the next one racing).
      // Which one goes first alternates, so each gets to win a claim.
      const order = minute % 2 ? ([b, a] as const) : ([a, b] as const);
      const ticks = await Promise.all([
        order[0].tick(now),
        order[1].tick(now),
        order[0].tick(now),
        order[1].tick(now),
      ]);
      const started = ticks.flatMap((tick, index) =>
        tick.started.map((one) => ({ ...one, by: (index % 2 === 0) === (order[0] === a) ? 'a' : 'b' })),
      );
      expect(started, `minute ${minute}`).toHaveLength(1);
      startedBy.push(started[0].by);
      await started[0].done;
      // Later in the same minute: nothing more is due.
      const again = await Promise.all([
        a.tick(new Date(now.getTime() + 30_000)),
        b.tick(new Date(now.getTime() + 30_000)),
      ]);
      expect(again.flatMap((tick) => tick.started)).toHaveLength(0);
    }
    const runs = (
      await servers.apps[1].services.repos.testRuns.listForProject(alice.user.id, project.id, 50)
    ).filter((run) => run.trigger === 'schedule');
    expect(runs).toHaveLength(MINUTES);
    for (const run of runs)
      expect(run).toMatchObject({ suite_id: suite.id, status: 'completed', failed_tests: 0 });
    const schedule = await api.call('GET', `/api/projects/${project.id}/schedules`, { token: alice.token });
    expect(schedule.data[0]).toMatchObject({ last_outcome: 'started', last_run_id: runs[0].id });
    expect(new Date(schedule.data[0].next_run_at).getTime()).toBe(first + MINUTES * 60_000);
    console.log(`[schedules] runs started by process: ${startedBy.join(', ')}`);
    // Off, so nothing else in this file is started by it.
    await api.call('PUT', `/api/projects/${project.id}/schedules/${created.data.id}`, {
      token: alice.token,
      json: { enabled: false },
    });
  });

  it('a schedule that finds the user busy is retried, then recorded as skipped', async () => {
    const suite = await saveSuite('Busy', ['Navigate to /']);
    const created = await api.call('POST', `/api/projects/${project.id}/schedules`, {
      token: alice.token,
      json: { suite_id: suite.id, cron: '* * * * *', timezone: 'UTC' },
    });
    const due = new Date(created.data.next_run_at).getTime();
    const [a] = servers.apps.map((app) => app.services.scheduler);
    const automation = servers.apps[0].services.automation;
    const isBusy = automation.isBusy;
    automation.isBusy = () => true;
    try {
      expect((await a.tick(new Date(due + 1_000))).started).toHaveLength(0);
      let listed = await api.call('GET', `/api/projects/${project.id}/schedules`, { token: alice.token });
      let mine = listed.data.find((one: { id: string }) => one.id === created.data.id);
      expect(mine).toMatchObject({ last_outcome: 'waiting' });
      expect(mine.last_message).toMatch(/busy .* trying again at/);
      // Still busy 30 s later (the retry), then the next due time has come: skipped with the reason.
      expect((await a.tick(new Date(due + 31_000))).started).toHaveLength(0);
      listed = await api.call('GET', `/api/projects/${project.id}/schedules`, { token: alice.token });
      mine = listed.data.find((one: { id: string }) => one.id === created.data.id);
      expect(mine).toMatchObject({ last_outcome: 'skipped' });
      expect(mine.last_message).toMatch(
        /^Skipped the run due at .*: another run or generation of yours was under way/,
      );
    } finally {
      automation.isBusy = isBusy;
    }
    // Off, so nothing else in this file is started by it.
    await api.call('PUT', `/api/projects/${project.id}/schedules/${created.data.id}`, {
      token: alice.token,
      json: { enabled: false },
    });
  });

  it('a receiver on 127.0.0.1 gets a signed failure, then a recovery; a failing receiver is retried', async () => {
    const hook = await api.call('POST', `/api/projects/${project.id}/webhooks`, {
      token: alice.token,
      json: {
        name: 'Receiver',
        url: `${receiver.url}/hook`,
        format: 'generic',
        events: ['failure', 'recovery'],
      },
    });
    expect(hook.status).toBe(201);
    const secret = hook.data.secret as string;
    const flaky = await api.call('POST', `/api/projects/${project.id}/webhooks`, {
      token: alice.token,
      json: { name: 'Flaky', url: `${receiver.url}/flaky`, format: 'slack', events: ['always'] },
    });
    const down = await api.call('POST', `/api/projects/${project.id}/webhooks`, {
      token: alice.token,
      json: { name: 'Down', url: `${receiver.url}/down`, format: 'teams', events: ['failure'] },
    });
    expect([flaky.status, down.status]).toEqual([201, 201]);

    const suite = await saveSuite('Checkout', [
      'Navigate to /',
      'Verify text "Nothing like this" is visible',
    ]);
    const run = async () => {
      const started = await api.call('POST', `/api/projects/${project.id}/suites/${suite.id}/runs`, {
        token: alice.token,
        json: {},
      });
      expect(started.status).toBe(202);
      return finished(started.data.test_run_id);
    };
    const deliveredTo = async (path: string, count: number) => {
      await expect
        .poll(() => receiver.received.filter((one) => one.path === path).length, { timeout: 20_000 })
        .toBe(count);
      return receiver.received.filter((one) => one.path === path);
    };
    const verify = (delivery: Received) => {
      const timestamp = delivery.headers['x-argus-timestamp'] as string;
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
      const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${delivery.body}`).digest('hex')}`;
      expect(delivery.headers['x-argus-signature']).toBe(expected);
      return JSON.parse(delivery.body);
    };

    const failed = await run();
    expect(failed.status).toBe('completed');
    expect(failed.failed_tests).toBe(1);
    const [failure] = await deliveredTo('/hook', 1);
    expect(failure.headers['x-argus-event']).toBe('failure');
    expect(verify(failure)).toMatchObject({
      event: 'failure',
      project: { id: project.id, name: 'Todos' },
      suite: { id: suite.id, name: 'Checkout' },
      environment: { name: 'staging' },
      run: { id: failed.id, failed_tests: 1 },
      previous_run: null,
    });
    // A wrong secret does not verify.
    expect(failure.headers['x-argus-signature']).not.toBe(
      `sha256=${createHmac('sha256', 'whsec_wrong').update(`${failure.headers['x-argus-timestamp']}.${failure.body}`).digest('hex')}`,
    );

    // The suite is fixed: its next run recovers.
    const fixed = await api.call('PUT', `/api/projects/${project.id}/suites/${suite.id}`, {
      token: alice.token,
      json: {
        name: 'Checkout',
        test_cases: [{ test_name: 'Checkout', steps: ['Navigate to /', 'Verify text "todos" is visible'] }],
      },
    });
    expect(fixed.status).toBe(200);
    const passed = await run();
    expect(passed.failed_tests).toBe(0);
    const [, recovery] = await deliveredTo('/hook', 2);
    expect(verify(recovery)).toMatchObject({
      event: 'recovery',
      run: { id: passed.id, failed_tests: 0, status: 'completed' },
      previous_run: { id: failed.id },
    });

    // The flaky receiver: 500, 500, then 200 for the failure's delivery, waits growing each time.
    const flakyCalls = await deliveredTo('/flaky', 4);
    const firstThree = flakyCalls.filter((one) => one.headers['x-argus-event'] === 'failure');
    expect(firstThree).toHaveLength(3);
    expect(new Set(firstThree.map((one) => one.headers['x-argus-delivery'])).size).toBe(1);
    expect(new Set(firstThree.map((one) => one.body)).size).toBe(1);
    expect(firstThree[1].at - firstThree[0].at).toBeGreaterThanOrEqual(RETRY_BASE_MS);
    expect(firstThree[2].at - firstThree[1].at).toBeGreaterThanOrEqual(2 * RETRY_BASE_MS);
    expect(JSON.parse(firstThree[0].body).text).toMatch(/^Argus: Checkout on staging failed \(Todos\)/);

    // The receiver that is down: four attempts, then failed.
    await deliveredTo('/down', 4);
    const deliveries = async () =>
      (await api.call('GET', `/api/projects/${project.id}/webhooks/deliveries`, { token: alice.token }))
        .data as {
        webhook_name: string;
        event: string;
        status: string;
        attempts: number;
        response_code: number | null;
        last_error: string | null;
      }[];
    await expect
      .poll(
        async () =>
          (await deliveries()).filter((one) => ['pending', 'delivering'].includes(one.status)).length,
        {
          timeout: 10_000,
        },
      )
      .toBe(0);
    const rows = await deliveries();
    const row = (name: string, event: string) =>
      rows.find((one) => one.webhook_name === name && one.event === event);
    expect(row('Receiver', 'failure')).toMatchObject({
      status: 'delivered',
      attempts: 1,
      response_code: 200,
    });
    expect(row('Receiver', 'recovery')).toMatchObject({
      status: 'delivered',
      attempts: 1,
      response_code: 200,
    });
    expect(row('Flaky', 'failure')).toMatchObject({
      status: 'delivered',
      attempts: 3,
      response_code: 200,
      last_error: null,
    });
    expect(row('Flaky', 'recovery')).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(row('Down', 'failure')).toMatchObject({
      status: 'failed',
      attempts: 4,
      response_code: 500,
      last_error: 'The receiver answered 500',
    });
    expect(row('Down', 'recovery')).toBeUndefined();
    // Teams' body is an Adaptive Card message.
    const teams = JSON.parse(receiver.received.find((one) => one.path === '/down')!.body);
    expect(teams).toMatchObject({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }],
    });
  });

  it("a delivery left due (its process stopped before sending it) is sent by the other process's tick", async () => {
    const hooks = await api.call('GET', `/api/projects/${project.id}/webhooks`, { token: alice.token });
    const hook = hooks.data.find((one: { name: string }) => one.name === 'Receiver');
    const before = receiver.received.filter((one) => one.path === '/hook').length;
    // A row as runFinished writes it, with no process attempting it.
    const left = await servers.apps[0].services.repos.webhooks.createDelivery(
      alice.user.id,
      {
        webhook_id: hook.id,
        project_id: project.id,
        test_run_id: null,
        event: 'test',
        body: '{"left":true}',
      },
      new Date(),
    );
    await servers.apps[1].services.scheduler.tick(new Date(Date.now() + 1000));
    await expect
      .poll(() => receiver.received.filter((one) => one.path === '/hook').length, { timeout: 10_000 })
      .toBe(before + 1);
    const sent = receiver.received.filter((one) => one.path === '/hook').at(-1)!;
    expect(sent.body).toBe('{"left":true}');
    expect(sent.headers['x-argus-delivery']).toBe(left.id);
    const listed = await api.call('GET', `/api/projects/${project.id}/webhooks/deliveries`, {
      token: alice.token,
    });
    await expect
      .poll(async () => {
        const rows = (
          await api.call('GET', `/api/projects/${project.id}/webhooks/deliveries`, { token: alice.token })
        ).data as { id: string; status: string; attempts: number }[];
        return rows.find((one) => one.id === left.id);
      })
      .toMatchObject({ status: 'delivered', attempts: 1 });
    expect(listed.status).toBe(200);
  });

  it("'Send test' delivers a signed test event", async () => {
    const hooks = await api.call('GET', `/api/projects/${project.id}/webhooks`, { token: alice.token });
    const hook = hooks.data.find((one: { name: string }) => one.name === 'Receiver');
    const before = receiver.received.length;
    const sent = await api.call('POST', `/api/projects/${project.id}/webhooks/${hook.id}/test`, {
      token: alice.token,
    });
    expect(sent.status).toBe(202);
    expect(sent.data).toMatchObject({ event: 'test', webhook_name: 'Receiver' });
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(before + 1);
    const test = receiver.received[before];
    expect(test.headers['x-argus-event']).toBe('test');
    expect(JSON.parse(test.body)).toMatchObject({ event: 'test', project: { id: project.id } });
  });
});
