/**
 * Repairs through real runs (docs/REPAIRS.md): a saved suite passes on the to-do fixture app, the app
 * is redesigned (the same behaviour in other words and markup), the next run's failed case gets a
 * repair proposed, proved and stored with both screenshots and said on the run; approved, it is the
 * suite's next version, which passes on the redesign.
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

describe('repairs of a real run', () => {
  let server: InProcessServer;
  let todo: FixtureApp;
  let api: ReturnType<typeof client>;
  let me: { token: string; user: { id: string } };
  let project: string;
  let suite: string;
  const call = (method: string, path: string, json?: unknown) =>
    api.call(method, path, { token: me.token, ...(json === undefined ? {} : { json }) });
  /** Runs the suite and answers its report once it is over. */
  const run = async () => {
    const started = await call('POST', `/api/projects/${project}/suites/${suite}/runs`, {});
    expect(started.status).toBe(202);
    for (let i = 0; i < 1200; i += 1) {
      const res = await call('GET', `/api/runs/${started.data.test_run_id}`);
      if (['completed', 'failed', 'error', 'interrupted'].includes(res.data.status)) return res.data;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the run did not end');
  };

  beforeAll(async () => {
    todo = await serveFixtureApp('todo');
    // A step the redesign broke, and each candidate a repair tries and loses, waits out the step
    // timeout: 2 s (as e2e/repairs sets it) instead of the default 10 s. The fixture app answers at once.
    server = await startInProcess({
      ALLOWED_TARGETS: '127.0.0.1',
      AUTOMATION_PARALLELISM: '1',
      STEP_TIMEOUT_MS: '2000',
    });
    api = client(server);
    me = await api.signUp('repair-runner');
    const made = await call('POST', '/api/projects', {
      name: 'Todos',
      environments: [{ name: 'staging', base_url: `${todo.url}/` }],
    });
    project = made.data.id;
    suite = (await call('POST', `/api/projects/${project}/suites`, { name: 'Smoke', test_cases: [ADD_TODO] }))
      .data.id;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await todo?.close();
  });

  it('proposes a proved repair for a case the redesign broke; approved, the suite passes on the redesign', async () => {
    const first = await run();
    expect([first.status, first.passed_tests, first.repairs]).toEqual([
      'completed',
      1,
      { proposed: 0, bugs: 0, review_path: `/history/runs/${first.id}?tab=repairs` },
    ]);

    todo.setRedesign(true);
    const broken = await run();
    expect([broken.status, broken.failed_tests]).toEqual(['completed', 1]);
    const list = await call('GET', `/api/runs/${broken.id}/repairs`);
    expect(list.status).toBe(200);
    expect(list.data.repairs).toHaveLength(1);
    const [repair] = list.data.repairs;
    expect(repair).toMatchObject({
      verdict: 'repair',
      status: 'proposed',
      case_name: 'Add a to-do',
      before: ADD_TODO.steps,
    });
    expect(repair.after).not.toEqual(ADD_TODO.steps);
    expect(repair.diff.some((line: { op: string }) => line.op === 'removed')).toBe(true);
    expect(repair.evidence.proof).toMatchObject({ status: 'passed' });
    // The last passing run's screenshot of the step, and the proof's.
    expect(repair.before_screenshot_id).toEqual(expect.any(String));
    expect(repair.after_screenshot_id).toEqual(expect.any(String));
    // Said on the run, in its report, and in JUnit.
    const row = await server.app.services.repos.testRuns.get(me.user.id, broken.id);
    const log = (row?.execution_log ?? []).map((line) => line.message);
    expect(log.some((line) => line.startsWith('Repair proposed for "Add a to-do": '))).toBe(true);
    const report = await call('GET', `/api/runs/${broken.id}`);
    expect(report.data.repairs).toMatchObject({ proposed: 1, bugs: 0 });
    expect(report.data.results[0].repair).toMatchObject({ id: repair.id, verdict: 'repair' });
    const xml = await call('GET', `/api/runs/${broken.id}/report.xml`);
    expect(xml.data).toContain('Repair proposed: ');

    const approved = await call('POST', `/api/projects/${project}/suites/${suite}/repairs/approve`, {
      ids: [repair.id],
    });
    expect(approved.status).toBe(200);
    expect(approved.data).toMatchObject({
      version: 2,
      change: `Repaired from run ${broken.id.slice(0, 8)}: 1 case`,
    });
    const repaired = await run();
    expect([repaired.status, repaired.passed_tests, repaired.failed_tests]).toEqual(['completed', 1, 0]);
  }, 300_000);

  it('does not propose a rejected repair again for the same page', async () => {
    const other = await call('POST', `/api/projects/${project}/suites`, {
      name: 'Second',
      test_cases: [ADD_TODO],
    });
    const second = other.data.id as string;
    const runSecond = async () => {
      const started = await call('POST', `/api/projects/${project}/suites/${second}/runs`, {});
      for (let i = 0; i < 1200; i += 1) {
        const res = await call('GET', `/api/runs/${started.data.test_run_id}`);
        if (['completed', 'failed', 'error', 'interrupted'].includes(res.data.status)) return res.data;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the run did not end');
    };
    todo.setRedesign(true);
    const broken = await runSecond();
    const [proposal] = (await call('GET', `/api/runs/${broken.id}/repairs`)).data.repairs;
    expect(proposal).toMatchObject({ verdict: 'repair', status: 'proposed' });
    const rejected = await call(
      'POST',
      `/api/projects/${project}/suites/${second}/repairs/${proposal.id}/reject`,
      {
        reason: 'Not this one',
      },
    );
    expect(rejected.data.status).toBe('rejected');
    const again = await runSecond();
    expect(again.failed_tests).toBe(1);
    const later = (await call('GET', `/api/runs/${again.id}/repairs`)).data.repairs;
    expect(later).toHaveLength(1);
    expect(later[0].after).not.toEqual(proposal.after);
    const waiting = await call('GET', `/api/projects/${project}/suites/${second}/repairs?status=proposed`);
    expect(
      waiting.data.repairs.every((r: { after: string[] }) => r.after.join() !== proposal.after.join()),
    ).toBe(true);
  }, 300_000);
});
