/**
 * Projects through the real server against the desk fixture app (a support desk behind a sign-in
 * with a TOTP code): a generation explores behind the login, a saved suite runs unchanged on two
 * environments, a wrong password fails the run up front, an expired session is signed in again, and
 * the password and TOTP secret appear in no socket message, HTTP answer, run record or server log.
 */
import { ruleModel, type ScriptedModelServer, startScriptedModelServer } from '@argus/ai/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_ACCOUNTS, type DeskFixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { SIGNED_IN_NOTE } from '../automation/project-target';
import { client } from '../testing/api-targets';
import { startInProcess } from '../testing/in-process-server';
import { SMALL_EXPLORATION } from '../testing/small-exploration';
import type { RunningServer } from '../testing/spawn-server';
import { openSocket, type TestSocket } from '../testing/ws-client';

const ACCOUNT = DESK_ACCOUNTS.twoFactor;
const SECRETS = [ACCOUNT.password, ACCOUNT.totpSecret];

describe('projects: runs on environments of an app behind a login', () => {
  let server: RunningServer;
  let staging: DeskFixtureApp;
  let production: DeskFixtureApp;
  let api: ReturnType<typeof client>;
  let alice: { token: string; user: { id: string } };
  let bob: { token: string; user: { id: string } };
  let socket: TestSocket;
  let project: { id: string; environments: { id: string; name: string; base_url: string }[] };
  /** Every HTTP answer the test received, as text: none may hold a secret. */
  const answers: string[] = [];
  const call = async (...args: Parameters<ReturnType<typeof client>['call']>) => {
    const res = await api.call(...args);
    answers.push(JSON.stringify(res.data ?? null));
    return res;
  };
  const env = (name: string) => project.environments.find((e) => e.name === name)!;

  beforeAll(async () => {
    [staging, production] = await Promise.all([serveFixtureApp('desk'), serveFixtureApp('desk')]);
    server = await startInProcess({
      ALLOWED_TARGETS: '127.0.0.1',
      AUTOMATION_PARALLELISM: '2',
      // Every debug line is searched for the secrets too.
      LOG_LEVEL: 'debug',
      // A small exploration (docs/TESTING.md): what matters here is that it happens signed in, and the
      // cases it writes; the later tests run saved suites signed in.
      ...SMALL_EXPLORATION,
      EXPLORE_BEHAVIOUR_MAX_ACTIONS: '5',
      EXPLORE_MAX_PAGES: '3',
    });
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
    const created = await call('POST', '/api/projects', {
      token: alice.token,
      json: {
        name: 'Desk',
        kind: 'web',
        environments: [
          { name: 'staging', base_url: `${staging.url}/` },
          { name: 'production', base_url: `${production.url}/` },
        ],
      },
    });
    expect(created.status).toBe(201);
    project = created.data;
    for (const [name, value, secret] of [
      ['EMAIL', ACCOUNT.email, false],
      ['PASSWORD', ACCOUNT.password, true],
      ['TOTP', ACCOUNT.totpSecret, true],
    ] as const) {
      const saved = await call('PUT', `/api/projects/${project.id}/variables`, {
        token: alice.token,
        json: { name, value, secret },
      });
      expect(saved.status).toBe(200);
    }
    const login = await call('PUT', `/api/projects/${project.id}`, {
      token: alice.token,
      json: {
        login: {
          mode: 'credentials',
          login_url: '/login',
          username_variable: 'EMAIL',
          password_secret: 'PASSWORD',
          totp_secret: 'TOTP',
        },
      },
    });
    expect(login.status).toBe(200);
    socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${alice.user.id}?token=${alice.token}`);
    await socket.next('connection_established');
  });
  afterAll(async () => {
    socket?.ws.close(1000);
    await server?.stop();
    await Promise.all([staging?.close(), production?.close()]);
  });

  /** Waits until the project's run `id` has finished, and answers it (with its log and results). */
  async function finished(id: string) {
    for (let i = 0; i < 600; i++) {
      const run = await call('GET', `/api/automation/test-runs/${id}`, { token: alice.token });
      if (!['pending', 'running'].includes(run.data.status)) return run.data;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`run ${id} did not finish`);
  }

  it('explores behind the login: signed-in pages, no login steps, each case says it runs signed in', async () => {
    socket.send('generate_test_cases', {
      url: `${staging.url}/tickets`,
      project_id: project.id,
      environment_id: env('staging').id,
    });
    const started = await socket.next('generation_started', 60_000);
    expect(started.data.message).toMatch(/, signed in to Desk\/staging$/);
    const generated = await socket.next('test_cases_generated', 120_000);
    const cases = generated.data.test_cases as { description: string; steps: string[] }[];
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      expect(c.description.endsWith(SIGNED_IN_NOTE)).toBe(true);
      for (const step of c.steps) expect(step).not.toMatch(/\/login|Log out|Authentication code/i);
    }
    // What only a signed-in user sees was explored: the tickets.
    expect(JSON.stringify(cases)).toMatch(/New ticket|Tickets/);
  });

  it('runs one saved suite unchanged on two environments, recording which each run used', async () => {
    const saved = await call('POST', `/api/projects/${project.id}/suites`, {
      token: alice.token,
      json: {
        name: 'Tickets',
        source_url: `${staging.url}/`,
        test_cases: [
          {
            test_name: 'Creating a ticket lists it',
            url: `${staging.url}/tickets`,
            steps: [
              'Click button "New ticket"',
              'Fill "Subject" with "Printer jam"',
              'Click button "Create"',
              'Verify text "Printer jam" is visible',
            ],
          },
          {
            test_name: 'The reports page opens',
            steps: [`Navigate to ${staging.url}/reports`, 'Verify heading "Reports" is visible'],
          },
        ],
      },
    });
    expect(saved.status).toBe(201);
    // Stored relative to the environment: the same steps run anywhere.
    expect(saved.data.test_cases[0].steps[0]).toBe('Navigate to /tickets');
    expect(saved.data.test_cases[1].steps[0]).toBe('Navigate to /reports');
    const runs: Record<string, string> = {};
    for (const name of ['staging', 'production']) {
      const started = await call('POST', `/api/projects/${project.id}/suites/${saved.data.id}/runs`, {
        token: alice.token,
        json: { environment_id: env(name).id },
      });
      expect(started.status).toBe(202);
      expect(started.data.environment_name).toBe(name);
      runs[name] = started.data.test_run_id;
      const run = await finished(runs[name]);
      expect({ status: run.status, passed: run.passed_tests }).toEqual({ status: 'completed', passed: 2 });
      // Each lane signed in on its own, and the run's log says so with what it cost.
      const log = (run.execution_log as { message: string }[]).map((l) => l.message);
      const lanes = log.filter((m) =>
        new RegExp(`^Signed in to Desk/${name}, lane \\d, in \\d+\\.\\d s$`).test(m),
      );
      expect(lanes.length, log.join('\n')).toBeGreaterThanOrEqual(1);
      expect(log.some((m) => m.startsWith(`Signing in to Desk/${name}: one account`))).toBe(true);
    }
    const listed = await call('GET', `/api/projects/${project.id}/runs`, { token: alice.token });
    const byId = new Map(
      (listed.data as { id: string; environment_name: string; suite_version: number }[]).map((r) => [
        r.id,
        r,
      ]),
    );
    expect(byId.get(runs.staging)?.environment_name).toBe('staging');
    expect(byId.get(runs.production)?.environment_name).toBe('production');
    expect(byId.get(runs.production)?.suite_version).toBe(1);
  });

  it('signs a test in again once when the app ends its session mid-run, and says so', async () => {
    const from = socket.all.length;
    // Only this run's messages: the generation above said 'Signed in to Desk/staging' too.
    socket.messages.length = 0;
    socket.send('run_all_tests', {
      url: `${staging.url}/`,
      project_id: project.id,
      environment_id: env('staging').id,
      test_cases: [
        { test_name: 'Tickets open', steps: ['Navigate to /tickets', 'Verify heading "Tickets" is visible'] },
      ],
    });
    // The moment the run has signed in, the app forgets every session.
    for (;;) {
      const update = await socket.next('progress_update', 30_000);
      if (String(update.data.message).startsWith('Signed in to Desk/staging, lane 1')) break;
    }
    staging.expireSessions();
    const done = await socket.next('all_tests_completed', 60_000);
    expect(done.data.passed).toBe(1);
    const completed = socket.all.slice(from).find((m) => m.type === 'test_completed');
    expect(completed).toBeDefined();
    const logs = (completed!.data.result as { logs: { message: string }[] }).logs.map((l) => l.message);
    expect(
      logs.some((m) => m.startsWith('Session expired during step 1; signed in again and redid it')),
      logs.join('\n'),
    ).toBe(true);
  });

  it('fails a run with a wrong password up front, naming the project and environment, with a screenshot', async () => {
    const wrong = await call('PUT', `/api/projects/${project.id}/variables`, {
      token: alice.token,
      json: {
        name: 'PASSWORD',
        value: 'not-the-password',
        secret: true,
        environment_id: env('production').id,
      },
    });
    expect(wrong.status).toBe(200);
    const suites = await call('GET', `/api/projects/${project.id}/suites`, { token: alice.token });
    const started = await call('POST', `/api/projects/${project.id}/suites/${suites.data[0].id}/runs`, {
      token: alice.token,
      json: { environment_id: env('production').id },
    });
    const run = await finished(started.data.test_run_id);
    expect(run.status).toBe('error');
    const log = (run.execution_log as { message: string }[]).map((l) => l.message);
    expect(log).toContain(
      'Sign-in failed for Desk/production: still on the sign-in page after submitting the username and password: the page says "Invalid email or password"',
    );
    expect(run.passed_tests + run.failed_tests).toBe(0);
    const shots = await call('GET', `/api/screenshots/test-run/${run.id}`, { token: alice.token });
    expect(JSON.stringify(shots.data)).toContain('Sign in');
  });

  it("refuses another user's project, environment and suite over HTTP and the socket", async () => {
    const suites = await call('GET', `/api/projects/${project.id}/suites`, { token: alice.token });
    const run = await call('POST', `/api/projects/${project.id}/suites/${suites.data[0].id}/runs`, {
      token: bob.token,
      json: {},
    });
    expect([run.status, run.data.code]).toEqual([404, 'PROJECT_NOT_FOUND']);
    const bobs = openSocket(`${server.url.replace('http', 'ws')}/ws/${bob.user.id}?token=${bob.token}`);
    await bobs.next('connection_established');
    bobs.send('generate_test_cases', { url: `${staging.url}/`, project_id: project.id });
    const refused = await bobs.next('error');
    expect(refused.data.code).toBe('PROJECT_NOT_FOUND');
    bobs.ws.close(1000);
  });

  it('never lets the password or the TOTP secret out: sockets, HTTP answers, run records, logs', async () => {
    const runs = await call('GET', '/api/automation/test-runs', { token: alice.token });
    for (const run of runs.data as { id: string }[])
      await call('GET', `/api/automation/test-runs/${run.id}`, { token: alice.token });
    await call('GET', '/api/automation/test-results', { token: alice.token });
    const everything = [JSON.stringify(socket.all), ...answers, server.output()].join('\n');
    expect(everything).toContain('grace@desk.test'); // the search itself works: the plain variable is there
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
  });
});

describe('projects: the LLM engine on an app behind a login never receives a secret', () => {
  let server: RunningServer;
  let desk: DeskFixtureApp;
  let model: ScriptedModelServer;
  let api: ReturnType<typeof client>;
  let carol: { token: string; user: { id: string } };
  let socket: TestSocket;
  let project: { id: string; environments: { id: string }[] };
  // The page shows the signed-in email in its header: as a secret here, it must not reach a prompt either.
  const SECRET_VALUES = [ACCOUNT.email, ACCOUNT.password, ACCOUNT.totpSecret];

  beforeAll(async () => {
    desk = await serveFixtureApp('desk');
    // What the scripted model "writes": a case typing the password into a ticket's subject (the list
    // then shows it to every later prompt), a free-form step, and an expected result naming it.
    model = await startScriptedModelServer(
      ruleModel({
        test_cases: [
          {
            test_name: 'A ticket named by a secret is listed',
            description: 'Types a secret, then a free-form step and a judged result see the page',
            category: 'Functional',
            priority: 'high',
            steps: [
              'Navigate to /tickets',
              'Click button "New ticket"',
              'Fill "Subject" with "{{PASSWORD}}"',
              'Click button "Create"',
              'Show the open tickets',
            ],
            expected_result: 'The list shows "{{PASSWORD}}"',
          },
        ],
      }),
    );
    server = await startInProcess({
      ALLOWED_TARGETS: '127.0.0.1',
      AUTOMATION_PARALLELISM: '1',
      // The small generation budget: the scripted model writes the same case whatever is explored, and
      // the run below is where the agent and the judge see the signed-in pages.
      ...SMALL_EXPLORATION,
      EXPLORE_BEHAVIOUR_MAX_ACTIONS: '4',
      EXPLORE_MAX_PAGES: '2',
    });
    api = client(server);
    carol = await api.signUp('carol');
    const settings = await api.call('PUT', '/api/settings', {
      token: carol.token,
      json: {
        ai_provider: 'openai-compatible',
        ai_model: 'qwen2.5-coder',
        ai_base_url: model.baseUrl,
        ai_api_key: 'sk-local-9876',
      },
    });
    expect(settings.status).toBe(200);
    const created = await api.call('POST', '/api/projects', {
      token: carol.token,
      json: { name: 'Desk', environments: [{ name: 'staging', base_url: `${desk.url}/` }] },
    });
    project = created.data;
    for (const [name, value] of [
      ['EMAIL', ACCOUNT.email],
      ['PASSWORD', ACCOUNT.password],
      ['TOTP', ACCOUNT.totpSecret],
    ] as const) {
      await api.call('PUT', `/api/projects/${project.id}/variables`, {
        token: carol.token,
        json: { name, value, secret: true },
      });
    }
    await api.call('PUT', `/api/projects/${project.id}`, {
      token: carol.token,
      json: {
        login: {
          mode: 'credentials',
          login_url: '/login',
          username_variable: 'EMAIL',
          password_secret: 'PASSWORD',
          totp_secret: 'TOTP',
        },
      },
    });
    socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${carol.user.id}?token=${carol.token}`);
    await socket.next('connection_established');
  });
  afterAll(async () => {
    socket?.ws.close(1000);
    await server?.stop();
    await desk?.close();
    await model?.close();
  });

  it('generates and runs with the model, which sees {{NAME}} where the pages show a secret', async () => {
    const ids = { project_id: project.id, environment_id: project.environments[0].id };
    socket.send('generate_test_cases', { url: `${desk.url}/tickets`, ...ids });
    const generated = await socket.next('test_cases_generated', 120_000);
    const cases = generated.data.test_cases;
    socket.send('run_all_tests', { url: `${desk.url}/`, test_cases: cases, test_mode: 'full', ...ids });
    const done = await socket.next('all_tests_completed', 120_000);
    expect(done.data.passed).toBe(1);
    const prompts = model.requests.map((r) => JSON.stringify(r.body));
    // The planner, the agent's free-form step and the judge were all asked, and saw the names.
    expect(model.requests.map((r) => r.system.slice(0, 20))).toEqual(
      expect.arrayContaining(['You are a senior QA ', 'You drive a real web', 'You check a web test']),
    );
    expect(prompts.some((p) => p.includes('{{PASSWORD}}') && p.includes('Evidence'))).toBe(true);
    for (const secret of SECRET_VALUES) {
      for (const body of prompts) expect(body).not.toContain(secret);
      expect(JSON.stringify(socket.all)).not.toContain(secret);
    }
  });
});
