/**
 * endurance (CI only, docs/TESTING.md#endurance-checks): two real server processes on one PostgreSQL
 * database, each with its own scheduler ticking every second, and a schedule set to every minute
 * for three minutes of wall-clock time. Each minute's due time starts exactly one run, whichever
 * process claims it. `schedules.api.test.ts` checks the same claim in `npm test` over simulated
 * minutes; this one runs the processes and the clock for real.
 */
import { createScratchDatabase } from '@argus/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { client } from '../testing/api-targets';
import { ENDURANCE } from '../testing/endurance';
import { type RunningServer, spawnServer } from '../testing/spawn-server';

const pgUrl = process.env.TEST_DATABASE_URL;
const MINUTES = 3;

describe.skipIf(!ENDURANCE || !pgUrl)('endurance: schedules on two server processes', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let app: FixtureApp;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    app = await serveFixtureApp('todo');
    scratch = await createScratchDatabase(pgUrl!);
    const shared = {
      DATABASE_URL: scratch.url,
      ALLOWED_TARGETS: '127.0.0.1',
      SCHEDULER_TICK_MS: '1000',
      // Servers sharing a database share their keys (README, Configuration).
      JWT_SECRET: 'two-processes-jwt-secret-0123456789abcdef',
      SECRETS_KEY: 'two-processes-secrets-key',
    };
    // One after the other: a process starting marks runs still `running` as interrupted.
    servers.push(await spawnServer(shared));
    servers.push(await spawnServer(shared));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await scratch?.drop();
    await app?.close();
  });

  it(
    `endurance: a schedule every minute starts one run a minute for ${MINUTES} minutes`,
    async () => {
      const api = client(servers[0].url);
      const alice = await api.signUp('alice');
      const project = await api.call('POST', '/api/projects', {
        token: alice.token,
        json: { name: 'Todos', kind: 'web', environments: [{ name: 'staging', base_url: `${app.url}/` }] },
      });
      expect(project.status).toBe(201);
      const suite = await api.call('POST', `/api/projects/${project.data.id}/suites`, {
        token: alice.token,
        json: {
          name: 'Smoke',
          test_cases: [{ test_name: 'Home', steps: ['Navigate to /', 'Verify heading "todos" is visible'] }],
        },
      });
      expect(suite.status).toBe(201);
      const schedule = await api.call('POST', `/api/projects/${project.data.id}/schedules`, {
        token: alice.token,
        json: { suite_id: suite.data.id, cron: '* * * * *', timezone: 'UTC' },
      });
      expect(schedule.status, JSON.stringify(schedule.data)).toBe(201);

      // From the next minute on, MINUTES due times, and 20 s past the last for its run to be recorded.
      const first = Math.ceil((Date.now() + 1) / 60_000) * 60_000;
      const end = first + (MINUTES - 1) * 60_000 + 20_000;
      await new Promise((resolve) => setTimeout(resolve, end - Date.now()));
      await api.call('DELETE', `/api/projects/${project.data.id}/schedules/${schedule.data.id}`, {
        token: alice.token,
      });

      const runs = await api.call('GET', `/api/projects/${project.data.id}/runs`, { token: alice.token });
      const scheduled = (
        runs.data as { trigger: string | null; created_at: string; status: string }[]
      ).filter((run) => run.trigger === 'schedule' && Date.parse(run.created_at) >= first);
      const minutes = scheduled.map((run) => Math.floor(Date.parse(run.created_at) / 60_000) * 60_000).sort();
      expect(minutes).toEqual(Array.from({ length: MINUTES }, (_, i) => first + i * 60_000));
      for (const run of scheduled) expect(run.status).toBe('completed');
    },
    (MINUTES + 2) * 60_000,
  );
});
