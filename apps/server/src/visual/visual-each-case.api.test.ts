/**
 * A saved suite's visual check after every case (docs/VISUAL-CHECKS.md#a-check-after-every-case),
 * through the real server, runner and Chromium against a page served here: the suite answers the
 * setting; saving only it makes no new version; a run of the suite with it on ends each case with
 * `Verify the page looks as approved` (a case ending with a visual check already is not given a
 * second), the run records those steps and their checks (new, for review: the cases pass), and the
 * saved suite's cases stay as written.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

const page = `<!doctype html><html lang="en"><head><title>Plans</title></head><body>
  <main><h1>Team plan</h1><section aria-label="Pricing"><h2>Pricing</h2><p>10 seats, 99 a month.</p></section>
  </main></body></html>`;

const CASES = [
  { test_name: 'Plans page', steps: ['Navigate to /', 'Verify heading "Team plan" is visible'] },
  { test_name: 'Checked already', steps: ['Navigate to /', 'Verify "Pricing" looks as approved'] },
];

describe('a visual check after every case', () => {
  let site: Server;
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let olga: { token: string };
  let project: string;

  beforeAll(async () => {
    site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    server = await startInProcess({ ALLOWED_TARGETS: '127.0.0.1', AUTOMATION_PARALLELISM: '1' });
    api = client(server);
    olga = await api.signUp('each-case-olga');
    const port = (site.address() as AddressInfo).port;
    const created = await api.call('POST', '/api/projects', {
      token: olga.token,
      json: {
        name: 'Shop',
        kind: 'web',
        environments: [{ name: 'staging', base_url: `http://127.0.0.1:${port}/` }],
      },
    });
    expect(created.status).toBe(201);
    project = created.data.id;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    site?.closeAllConnections();
    await new Promise((r) => site?.close(r));
  });

  it('is off for a new suite; saving only it keeps the version', async () => {
    const saved = await api.call('POST', `/api/projects/${project}/suites`, {
      token: olga.token,
      json: { name: 'Off', test_cases: CASES },
    });
    expect(saved.status).toBe(201);
    expect(saved.data).toMatchObject({ visual_each_case: false, retries: 0, version: 1 });
    const path = `/api/projects/${project}/suites/${saved.data.id}`;
    const on = await api.call('PUT', path, {
      token: olga.token,
      json: { name: 'Off', test_cases: saved.data.test_cases, base_version: 1, visual_each_case: true },
    });
    expect(on.status).toBe(200);
    expect(on.data).toMatchObject({ visual_each_case: true, version: 1, retries: 0 });
    expect(on.data.versions).toHaveLength(1);
    // A save that leaves it out keeps it; a save of the retries only keeps it too.
    const retries = await api.call('PUT', path, {
      token: olga.token,
      json: { name: 'Off', test_cases: saved.data.test_cases, base_version: 1, retries: 1 },
    });
    expect(retries.data).toMatchObject({ visual_each_case: true, version: 1, retries: 1 });
    expect((await api.call('GET', path, { token: olga.token })).data.visual_each_case).toBe(true);
  });

  it("ends each case's run with the page's visual check, once, leaving the saved suite as written", async () => {
    const saved = await api.call('POST', `/api/projects/${project}/suites`, {
      token: olga.token,
      json: { name: 'Looks each case', test_cases: CASES, visual_each_case: true },
    });
    expect(saved.status).toBe(201);
    expect(saved.data.visual_each_case).toBe(true);
    const suitePath = `/api/projects/${project}/suites/${saved.data.id}`;
    const started = await api.call('POST', `${suitePath}/runs`, { token: olga.token, json: {} });
    expect(started.status).toBe(202);
    const runId = started.data.test_run_id as string;
    const events = await fetch(`${server.url}/api/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${olga.token}` },
    });
    await events.text();

    const run = await api.call('GET', `/api/runs/${runId}`, { token: olga.token });
    const detail = await api.call('GET', `/api/automation/test-runs/${runId}`, { token: olga.token });
    const failed = detail.data.test_results.filter((r: { status: string }) => r.status !== 'passed');
    expect(failed.map((r: { error?: string }) => r.error)).toEqual([]);
    // New checks are for review, not failures: both cases pass.
    expect(run.data).toMatchObject({ status: 'completed', passed_tests: 2, failed_tests: 0 });
    expect(run.data.visual.to_review).toBe(2);

    const byName = Object.fromEntries(
      detail.data.test_results.map((r: { test_case_name: string }) => [r.test_case_name, r]),
    );
    const steps = (name: string) =>
      byName[name].steps.map((s: { description?: string; action: string; status: string }) => ({
        text: s.description ?? s.action,
        status: s.status,
      }));
    const plans = steps('Plans page');
    expect(plans).toHaveLength(3);
    expect(plans.at(-1).text).toMatch(/the page looks as approved/i);
    expect(plans.map((s: { status: string }) => s.status)).toEqual(['success', 'success', 'success']);
    // Its last step a region's visual check already: no second check added.
    const checked = steps('Checked already');
    expect(checked).toHaveLength(2);
    expect(checked.at(-1).text).toMatch(/"Pricing" looks as approved/i);

    const checks = await api.call('GET', `/api/runs/${runId}/visual-checks`, { token: olga.token });
    expect(checks.status).toBe(200);
    expect(
      checks.data.checks
        .map((c: { case_name: string; check_name: string; status: string; step_index: number }) => [
          c.case_name,
          c.check_name,
          c.status,
          c.step_index,
        ])
        .sort(),
    ).toEqual([
      ['Checked already', 'Pricing', 'new', 1],
      ['Plans page', 'page', 'new', 2],
    ]);

    // The saved suite is as written, at its first version.
    const suite = await api.call('GET', suitePath, { token: olga.token });
    expect(suite.data).toMatchObject({ version: 1, visual_each_case: true });
    expect(suite.data.test_cases.map((c: { steps: string[] }) => c.steps)).toEqual(CASES.map((c) => c.steps));
  }, 120_000);
});
