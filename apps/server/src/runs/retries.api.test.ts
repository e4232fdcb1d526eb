/**
 * Retries (docs/HISTORY.md#retries, docs/CI.md#retries), through the real server, runner and Chromium
 * against a small stateful site on 127.0.0.1: its /flaky/<key> page shows the heading a case checks
 * only from its second load on, so a case fails once and then passes, deterministically. With
 * retries the case is recorded flaky (not passed) with its attempts, in the run's counters, its
 * result row, the JSON and JUnit reports; without, it fails; a case that always fails uses every
 * attempt and is failed. Saving only a suite's retries makes no new version.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';
import { openSocket } from '../testing/ws-client';

/** Loads of each /flaky/<key> page so far: the heading is there from the second load on. */
const loads = new Map<string, number>();

function startSite(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const flaky = /^\/flaky\/(\w+)$/.exec(path);
    let body = '<h2>Not yet</h2>';
    if (flaky) {
      const seen = (loads.get(flaky[1]) ?? 0) + 1;
      loads.set(flaky[1], seen);
      if (seen > 1) body = '<h1>Ready</h1>';
    } else if (path !== '/never') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Site</title></head><body><main>${body}</main></body></html>`,
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

const checksReady = (test_name: string, path: string) => ({
  test_name,
  steps: [`Navigate to ${path}`, 'Verify heading "Ready" is visible'],
});

describe('retries', () => {
  let server: InProcessServer;
  let site: { server: Server; url: string };
  let api: ReturnType<typeof client>;
  let alice: { token: string; user: { id: string } };
  let project: { id: string; environments: { id: string }[] };

  /** Saves a suite and runs it on the staging environment; answers the run once it is over. */
  const runSuite = async (name: string, cases: unknown[], retries: number) => {
    const saved = await api.call('POST', `/api/projects/${project.id}/suites`, {
      token: alice.token,
      json: { name, test_cases: cases, retries },
    });
    expect(saved.status).toBe(201);
    expect(saved.data.retries).toBe(retries);
    const started = await api.call('POST', `/api/projects/${project.id}/suites/${saved.data.id}/runs`, {
      token: alice.token,
      json: {},
    });
    expect(started.status).toBe(202);
    const runId = started.data.test_run_id as string;
    // The event stream ends when the run does.
    const events = await fetch(`${server.url}/api/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    await events.text();
    const report = await api.call('GET', `/api/runs/${runId}/report.json`, { token: alice.token });
    const detail = await api.call('GET', `/api/automation/test-runs/${runId}`, { token: alice.token });
    return { suiteId: saved.data.id as string, runId, report: report.data, detail: detail.data };
  };

  beforeAll(async () => {
    site = await startSite();
    server = await startInProcess({
      ALLOWED_TARGETS: '127.0.0.1',
      AUTOMATION_PARALLELISM: '1',
      // A failing attempt waits this long for its heading.
      STEP_TIMEOUT_MS: '1000',
    });
    api = client(server);
    alice = await api.signUp('alice');
    const created = await api.call('POST', '/api/projects', {
      token: alice.token,
      json: { name: 'Site', kind: 'web', environments: [{ name: 'staging', base_url: `${site.url}/` }] },
    });
    expect(created.status).toBe(201);
    project = created.data;
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => site?.server.close(resolve));
  });

  it('records a case that passes on its retry as flaky, and one that always fails as failed after every attempt', async () => {
    const { runId, report, detail } = await runSuite(
      'With retries',
      [checksReady('Ready shows up', '/flaky/a'), checksReady('Never ready', '/never')],
      1,
    );
    expect(report).toMatchObject({
      status: 'completed',
      total_tests: 2,
      passed_tests: 0,
      failed_tests: 1,
      flaky_tests: 1,
    });
    const byName = Object.fromEntries(report.results.map((r: { test_name: string }) => [r.test_name, r]));
    expect(byName['Ready shows up']).toMatchObject({ status: 'flaky', attempts: 2, error: null });
    expect(byName['Never ready']).toMatchObject({ status: 'failed', attempts: 2 });
    expect(loads.get('a')).toBe(2);

    // The result row and the run as the screens read them.
    expect(detail.flaky_tests).toBe(1);
    const flaky = detail.test_results.find(
      (r: { test_case_name: string }) => r.test_case_name === 'Ready shows up',
    );
    expect(flaky).toMatchObject({ status: 'flaky', attempts: 2 });
    // Its steps are the final attempt's, each once; the failed attempt is in its log.
    expect(flaky.steps.map((s: { status: string }) => s.status)).toEqual(['success', 'success']);
    const messages = detail.execution_log.map((l: { message: string }) => l.message);
    expect(messages).toContainEqual(
      expect.stringMatching(/^\[Ready shows up\] Attempt 1 of 2 failed: .*Ready/),
    );
    const shots = await api.call('GET', `/api/screenshots/test-run/${runId}`, { token: alice.token });
    expect(
      shots.data.filter((s: { test_case_name: string }) => s.test_case_name === 'Ready shows up'),
    ).toHaveLength(flaky.screenshots.length);

    const xml = await fetch(`${server.url}/api/runs/${runId}/report.xml`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(await xml.text())
      .testsuites.testsuite;
    expect(suite).toMatchObject({ tests: '2', failures: '1' });
    const junitFlaky = suite.testcase.find((c: { name: string }) => c.name === 'Ready shows up');
    expect(junitFlaky.failure).toBeUndefined();
    expect(junitFlaky.properties.property).toContainEqual({ name: 'flaky', value: 'true' });
    expect(junitFlaky['system-out']).toContain('attempt 2');

    // Analytics lists it among the flaky tests (a pass on retry), with this run; history says so too.
    const analytics = await api.call('GET', '/api/analytics', { token: alice.token });
    expect(analytics.status).toBe(200);
    expect(analytics.data.flaky).toContainEqual(
      expect.objectContaining({ name: 'Ready shows up', retried_passes: 1, run_ids: [runId] }),
    );
    expect(analytics.data.flaky.map((f: { name: string }) => f.name)).not.toContain('Never ready');
    const line = await api.call('GET', `/api/history/runs/${runId}`, { token: alice.token });
    expect(line.data.run).toMatchObject({ status: 'failed', flaky_tests: 1, failed_tests: 1 });
  });

  it('fails a case that fails once when the suite has no retries; saving only the retries keeps the version', async () => {
    const { suiteId, runId, report } = await runSuite(
      'No retries',
      [checksReady('Ready shows up', '/flaky/b')],
      0,
    );
    expect(report).toMatchObject({ passed_tests: 0, failed_tests: 1, flaky_tests: 0 });
    expect(report.results[0]).toMatchObject({ status: 'failed', attempts: 1 });
    // Run once, never again by the run; its repair (docs/REPAIRS.md) then loads the page in browsers
    // of its own, so the page's loads are not the run's attempts.
    const row = await server.app.services.repos.testRuns.get(alice.user.id, runId);
    expect(row?.execution_log.some((line) => /Attempt \d+ of \d+ failed/.test(line.message))).toBe(false);
    expect(loads.get('b')).toBeGreaterThanOrEqual(1);

    const path = `/api/projects/${project.id}/suites/${suiteId}`;
    const before = (await api.call('GET', path, { token: alice.token })).data;
    const saved = await api.call('PUT', path, {
      token: alice.token,
      json: { name: before.name, test_cases: before.test_cases, base_version: before.version, retries: 3 },
    });
    expect(saved.status).toBe(200);
    expect(saved.data).toMatchObject({ retries: 3, version: 1 });
    expect(saved.data.versions).toHaveLength(1);
  });
  it('retries a run from the Automation screen (run_all_tests with retries) the same way, and none without', async () => {
    const socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${alice.user.id}?token=${alice.token}`);
    try {
      await socket.next('connection_established');
      /** Runs one case on /flaky/<key>; answers how it ended and the run's end. */
      const run = async (key: string, retries?: number) => {
        socket.send('run_all_tests', {
          url: `${site.url}/`,
          test_cases: [checksReady(`Screen ${key}`, `/flaky/${key}`)],
          ...(retries === undefined ? {} : { retries }),
        });
        const done = await socket.next('all_tests_completed', 60_000);
        const outcome = socket.all
          .filter((m) => m.type === 'test_completed' || m.type === 'test_failed')
          .at(-1);
        return { outcome, done };
      };
      const flaky = await run('screen1', 2);
      expect(flaky.outcome?.type).toBe('test_completed');
      expect(flaky.outcome?.data).toMatchObject({ flaky: true, attempts: 2, max_attempts: 3 });
      expect(flaky.done.data).toMatchObject({ total_tests: 1, passed: 0, flaky: 1 });

      const once = await run('screen2');
      expect(once.outcome?.type).toBe('test_failed');
      expect(once.outcome?.data).not.toHaveProperty('attempts');
      expect(loads.get('screen2')).toBe(1);

      // More than a saved suite may have is refused, and nothing runs.
      socket.send('run_all_tests', {
        url: `${site.url}/`,
        test_cases: [checksReady('Screen 3', '/flaky/screen3')],
        retries: 6,
      });
      expect((await socket.next('error', 10_000)).data.code).toBe('VALIDATION');
      expect(loads.get('screen3')).toBeUndefined();
    } finally {
      socket.ws.close();
    }
  }, 120_000);
});
