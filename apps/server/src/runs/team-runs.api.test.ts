/**
 * Runs in a team organization, through the real server and a real browser on the to-do fixture app:
 * a runner starts a saved suite an editor made, by login and by their API token; the run belongs to
 * the organization, says who started it, and every member reads it; another organization cannot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

const ADD_TODO = {
  test_name: 'Add a to-do',
  steps: [
    'Navigate to /',
    'Fill "What needs to be done?" with "Buy milk"',
    'Press Enter',
    'Verify text "Buy milk" is visible',
  ],
};

type Member = { token: string; user: { id: string; username: string } };

describe('runs of a team organization', () => {
  let server: InProcessServer;
  let todo: FixtureApp;
  let api: ReturnType<typeof client>;
  let acme: string;
  const people = {} as Record<'olga' | 'eddie' | 'rita' | 'vera' | 'gus', Member>;
  let project: string;
  let suite: string;
  const as = (who: Member, method: string, path: string, json?: unknown, org = acme) =>
    api.call(method, path, {
      token: who.token,
      headers: { 'x-argus-organization': org },
      ...(json === undefined ? {} : { json }),
    });
  const until = async (who: { token: string }, id: string) => {
    for (let i = 0; i < 600; i += 1) {
      const res = await api.call('GET', `/api/runs/${id}`, {
        token: who.token,
        headers: { 'x-argus-organization': acme },
      });
      if (['completed', 'failed', 'stopped', 'interrupted'].includes(res.data.status)) return res.data;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`run ${id} did not end`);
  };

  beforeAll(async () => {
    todo = await serveFixtureApp('todo');
    server = await startInProcess({ ALLOWED_TARGETS: '127.0.0.1', AUTOMATION_PARALLELISM: '1' });
    api = client(server);
    for (const name of ['olga', 'eddie', 'rita', 'vera', 'gus'] as const)
      people[name] = await api.signUp(name);
    acme = (
      await api.call('POST', '/api/organizations', { token: people.olga.token, json: { name: 'Acme' } })
    ).data.id;
    for (const [who, role] of [
      ['eddie', 'editor'],
      ['rita', 'runner'],
      ['vera', 'viewer'],
    ] as const) {
      const invited = await as(people.olga, 'POST', '/api/organization/invitations', {
        email: `${who}@example.com`,
        role,
      });
      const link = invited.data.path.split('/').pop();
      expect(
        (await api.call('POST', `/api/invitations/${link}/accept`, { token: people[who].token })).status,
      ).toBe(200);
    }
    const made = await as(people.eddie, 'POST', '/api/projects', {
      name: 'Todos',
      environments: [{ name: 'staging', base_url: `${todo.url}/` }],
    });
    expect(made.status).toBe(201);
    project = made.data.id;
    const saved = await as(people.eddie, 'POST', `/api/projects/${project}/suites`, {
      name: 'Smoke',
      test_cases: [ADD_TODO],
    });
    expect(saved.status).toBe(201);
    suite = saved.data.id;
  });
  afterAll(async () => {
    await server?.stop();
    await todo?.close();
  });

  it("runs the organization's suite for a runner, recorded as the organization's and as theirs", async () => {
    const started = await as(people.rita, 'POST', `/api/projects/${project}/suites/${suite}/runs`, {});
    expect(started.status).toBe(202);
    const id = started.data.test_run_id;
    const report = await until(people.rita, id);
    expect([report.status, report.passed_tests, report.failed_tests]).toEqual(['completed', 1, 0]);
    const row = await server.app.services.repos.testRuns.get(acme, id);
    expect([row?.user_id, row?.started_by, row?.trigger]).toEqual([acme, people.rita.user.id, 'screen']);
    // Every member reads it (the viewer too); its page says who started it.
    const page = await as(people.vera, 'GET', `/api/history/runs/${id}`);
    expect([page.status, page.data.started_by]).toEqual([200, 'rita']);
    // Nobody outside Acme does, whatever organization they name.
    expect((await api.call('GET', `/api/runs/${id}`, { token: people.gus.token })).status).toBe(404);
  }, 120_000);

  it("runs it with the runner's API token of the organization, as the CLI does", async () => {
    const token = await as(people.rita, 'POST', '/api/tokens', { name: 'CI', scope: 'run' });
    expect(token.status).toBe(201);
    const ci = { token: token.data.token as string };
    const started = await api.call('POST', `/api/projects/${project}/suites/${suite}/runs`, {
      token: ci.token,
      json: {},
    });
    expect(started.status).toBe(202);
    const report = await until(ci, started.data.test_run_id);
    expect([report.status, report.passed_tests]).toEqual(['completed', 1]);
    const row = await server.app.services.repos.testRuns.get(acme, started.data.test_run_id);
    expect([row?.user_id, row?.started_by, row?.trigger]).toEqual([acme, people.rita.user.id, 'api']);
  }, 120_000);
});
