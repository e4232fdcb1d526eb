/**
 * A saved suite run three times through the real runner on the to-do fixture app, with one planted
 * bug switched on for the second run only: the history's comparison with the previous run shows
 * exactly the case the bug breaks as a new failure on the second run, then as fixed on the third
 * (docs/HISTORY.md).
 */
import { isRunOver } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

const ADD = {
  test_name: 'Add a to-do',
  steps: [
    'Navigate to /',
    'Fill "What needs to be done?" with "Buy milk"',
    'Press Enter',
    'Verify text "Buy milk" is visible',
  ],
};
const HEADING = {
  test_name: 'Heading is shown',
  steps: ['Navigate to /', 'Verify heading "todos" is visible'],
};

describe('a run compared with the previous run of its suite', () => {
  let server: InProcessServer;
  let app: FixtureApp;
  let api: ReturnType<typeof client>;
  let alice: { token: string };

  beforeAll(async () => {
    app = await serveFixtureApp('todo');
    server = await startInProcess({
      ALLOWED_TARGETS: '127.0.0.1',
      AUTOMATION_PARALLELISM: '1',
      // The broken case waits this long for its item before it fails.
      STEP_TIMEOUT_MS: '2000',
    });
    api = client(server);
    alice = await api.signUp('alice');
  });
  afterAll(async () => {
    await server?.stop();
    await app?.close();
  });

  it('shows the case a planted bug breaks as a new failure, then as fixed once the bug is gone', async () => {
    const project = await api.call('POST', '/api/projects', {
      token: alice.token,
      json: { name: 'Todos', environments: [{ name: 'staging', base_url: `${app.url}/` }] },
    });
    expect(project.status).toBe(201);
    const suite = await api.call('POST', `/api/projects/${project.data.id}/suites`, {
      token: alice.token,
      json: { name: 'Smoke', test_cases: [ADD, HEADING] },
    });
    expect(suite.status).toBe(201);

    const runOnce = async (bug: string | null) => {
      app.setBug(bug);
      const started = await api.call(
        'POST',
        `/api/projects/${project.data.id}/suites/${suite.data.id}/runs`,
        {
          token: alice.token,
          json: {},
        },
      );
      expect(started.status).toBe(202);
      const id = started.data.test_run_id as string;
      // The run API's own report says when the run is over.
      for (;;) {
        const report = await api.call('GET', `/api/runs/${id}`, { token: alice.token });
        if (isRunOver(report.data.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return id;
    };
    const first = await runOnce(null);
    const second = await runOnce('add-does-nothing');
    const third = await runOnce(null);

    const compare = async (id: string) => {
      const res = await api.call('GET', `/api/history/runs/${id}`, { token: alice.token });
      expect(res.status).toBe(200);
      return res.data;
    };
    const broken = await compare(second);
    expect(broken.previous.id).toBe(first);
    expect(broken.run.status).toBe('failed');
    expect(broken.counts).toEqual({ new_failures: 1, fixed: 0, still_failing: 0, new: 0, removed: 0 });
    const add = broken.cases.find((c: { name: string }) => c.name === ADD.test_name);
    expect(add).toMatchObject({ change: 'new_failure', status: 'failed', previous_status: 'passed' });
    // It now stops at the check for the item the bug no longer adds.
    expect(add.first_difference).toMatchObject({
      step_number: 4,
      now: { action: ADD.steps[3], status: 'error' },
      before: { action: ADD.steps[3], status: 'success' },
    });
    expect(broken.cases.find((c: { name: string }) => c.name === HEADING.test_name).change).toBe(
      'still_passing',
    );

    const repaired = await compare(third);
    expect(repaired.previous.id).toBe(second);
    expect(repaired.run.status).toBe('passed');
    expect(repaired.counts).toEqual({ new_failures: 0, fixed: 1, still_failing: 0, new: 0, removed: 0 });
    expect(repaired.cases.map((c: { name: string; change: string }) => [c.name, c.change])).toEqual([
      [ADD.test_name, 'fixed'],
      [HEADING.test_name, 'still_passing'],
    ]);
  });
});
