/**
 * The run API a CI job drives (docs/CI.md#the-run-api), through the real server and a real browser on
 * the to-do fixture app: a `run` token starts a saved suite, the event stream tells each case as it
 * finishes and then the end, the JSON and JUnit reports agree with what ran, and a cancelled run
 * ends with its unreached cases reported as skipped. Another user's run answers 404.
 */
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

const PASSING = {
  test_name: 'Add a to-do',
  steps: [
    'Navigate to /',
    'Fill "What needs to be done?" with "Buy milk"',
    'Press Enter',
    'Verify text "Buy milk" is visible',
  ],
};
const FAILING = {
  test_name: 'Header says hello',
  steps: ['Navigate to /', 'Verify heading "Hello" is visible'],
};

/** The events of a server-sent event stream, as the run API writes them. */
// biome-ignore lint/suspicious/noExplicitAny: the events' data are checked field by field
async function readEvents(url: string, token: string): Promise<{ event: string; data: any }[]> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('event:'))
    .map((block) => {
      const [event, data] = block.split('\n');
      return { event: event.slice('event: '.length), data: JSON.parse(data.slice('data: '.length)) };
    });
}

describe('the run API', () => {
  let server: InProcessServer;
  let app: FixtureApp;
  let api: ReturnType<typeof client>;
  let alice: { token: string };
  let bob: { token: string };
  let runToken: string;
  let project: { id: string; environments: { id: string; name: string }[] };
  const suiteOf = async (name: string, test_cases: unknown[]) => {
    const res = await api.call('POST', `/api/projects/${project.id}/suites`, {
      token: alice.token,
      json: { name, test_cases },
    });
    expect(res.status).toBe(201);
    return res.data.id as string;
  };

  beforeAll(async () => {
    app = await serveFixtureApp('todo');
    server = await startInProcess({
      ALLOWED_TARGETS: '127.0.0.1',
      AUTOMATION_PARALLELISM: '1',
      // The failing case waits this long for its heading.
      STEP_TIMEOUT_MS: '3000',
    });
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
    const created = await api.call('POST', '/api/projects', {
      token: alice.token,
      json: { name: 'Todos', kind: 'web', environments: [{ name: 'staging', base_url: `${app.url}/` }] },
    });
    expect(created.status).toBe(201);
    project = created.data;
    const token = await api.call('POST', '/api/tokens', {
      token: alice.token,
      json: { name: 'CI', scope: 'run' },
    });
    runToken = token.data.token;
  });
  afterAll(async () => {
    await server?.stop();
    await app?.close();
  });

  it('starts a saved suite with a run token, streams each case, and reports it as JSON and JUnit', async () => {
    const suiteId = await suiteOf('Smoke', [PASSING, FAILING]);
    const started = await api.call('POST', `/api/projects/${project.id}/suites/${suiteId}/runs`, {
      token: runToken,
      json: { environment_id: project.environments[0].id },
    });
    expect(started.status).toBe(202);
    expect(started.data).toMatchObject({ environment_name: 'staging' });
    const runId = started.data.test_run_id as string;

    const events = await readEvents(`${server.url}/api/runs/${runId}/events`, runToken);
    expect(events[0].event).toBe('run');
    const finished = events.filter((e) => e.event === 'case_finished').map((e) => e.data.result);
    const last = events.at(-1)!;
    expect(last.event).toBe('run_finished');
    expect(events.filter((e) => e.event === 'run_finished')).toHaveLength(1);
    // Every case is told once, whether it finished before the stream opened (in `run`) or after.
    const told = [...events[0].data.run.results, ...finished].map((r: { test_name: string }) => r.test_name);
    expect(told.sort()).toEqual(['Add a to-do', 'Header says hello']);

    const report = last.data.run;
    expect(report).toMatchObject({
      id: runId,
      status: 'completed',
      trigger: 'api',
      suite_id: suiteId,
      suite_version: 1,
      environment_name: 'staging',
      total_tests: 2,
      passed_tests: 1,
      failed_tests: 1,
      not_run: [],
    });
    const failed = report.results.find((r: { status: string }) => r.status === 'failed');
    expect(failed.test_name).toBe('Header says hello');
    expect(failed.error).toContain('Hello');

    // Trace links are signed afresh for each answer (and absolute, under the origin asked): left out.
    const unsigned = (r: { results: { trace_url: string | null }[] }) => ({
      ...r,
      results: r.results.map(({ trace_url, ...rest }) => ({ ...rest, traced: trace_url !== null })),
    });
    const json = await api.call('GET', `/api/runs/${runId}/report.json`, { token: runToken });
    expect(json.status).toBe(200);
    expect(unsigned(json.data)).toEqual(unsigned(report));
    expect(unsigned((await api.call('GET', `/api/runs/${runId}`, { token: runToken })).data)).toEqual(
      unsigned(report),
    );

    const xml = await fetch(`${server.url}/api/runs/${runId}/report.xml`, {
      headers: { authorization: `Bearer ${runToken}` },
    });
    expect(xml.headers.get('content-type')).toContain('application/xml');
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      await xml.text(),
    );
    const suite = parsed.testsuites.testsuite;
    expect(suite).toMatchObject({ tests: '2', failures: '1', errors: '0', skipped: '0' });
    const cases = suite.testcase as { name: string; failure?: { message: string } }[];
    expect(cases.map((c) => c.name).sort()).toEqual(['Add a to-do', 'Header says hello']);
    expect(cases.find((c) => c.name === 'Header says hello')?.failure?.message).toContain('Hello');
    expect(cases.find((c) => c.name === 'Add a to-do')?.failure).toBeUndefined();

    // Another user's run is not found, over every route.
    for (const path of ['', '/report.json', '/report.xml', '/events']) {
      const theirs = await api.call('GET', `/api/runs/${runId}${path}`, { token: bob.token });
      expect(theirs.status, path).toBe(404);
      expect(theirs.data.code).toBe('TEST_RUN_NOT_FOUND');
    }
    expect((await api.call('POST', `/api/runs/${runId}/cancel`, { token: bob.token })).status).toBe(404);
  });

  it('cancels a run: the cases it did not reach are reported as skipped', async () => {
    const slow = Array.from({ length: 6 }, (_, i) => ({
      test_name: `Wait ${i + 1}`,
      steps: ['Navigate to /', 'Wait 2 seconds', 'Verify heading "todos" is visible'],
    }));
    const suiteId = await suiteOf('Slow', slow);
    const started = await api.call('POST', `/api/projects/${project.id}/suites/${suiteId}/runs`, {
      token: runToken,
      json: {},
    });
    expect(started.status).toBe(202);
    const runId = started.data.test_run_id as string;
    const cancel = await api.call('POST', `/api/runs/${runId}/cancel`, { token: runToken });
    expect(cancel.status).toBe(202);
    expect(cancel.data).toEqual({ test_run_id: runId, status: 'stopping' });
    const events = await readEvents(`${server.url}/api/runs/${runId}/events`, runToken);
    const report = events.at(-1)!.data.run;
    expect(report.status).toBe('failed');
    expect(report.not_run.length).toBeGreaterThan(0);
    const xml = await fetch(`${server.url}/api/runs/${runId}/report.xml`, {
      headers: { authorization: `Bearer ${runToken}` },
    });
    const text = await xml.text();
    expect(text).toContain('not run: the run ended failed');
    // A run that is over is answered as it is.
    const again = await api.call('POST', `/api/runs/${runId}/cancel`, { token: runToken });
    expect(again.status).toBe(200);
    expect(again.data.status).toBe('failed');
  });
});
