/**
 * What a saved suite's run keeps of its cases (docs/DIAGNOSTICS.md), through the real server, runner
 * and Chromium against a small site on 127.0.0.1: the suite's recording saved and read back like its
 * retries; under `on-failure` a failed case keeps a trace per attempt (and a video when asked), a flaky
 * one its failed attempt's with the label `timing`, a passing one nothing; every case its console and
 * network counts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StoredTestResult } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

/** Loads of each /flaky/<key> page so far: its heading is there from the second load on. */
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
    } else if (path === '/ready') body = '<h1>Ready</h1>';
    else if (path !== '/never') {
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

describe("a saved suite's recording", () => {
  let server: InProcessServer;
  let site: { server: Server; url: string };
  let api: ReturnType<typeof client>;
  let alice: { token: string; user: { id: string } };
  let projectId: string;

  beforeAll(async () => {
    site = await startSite();
    server = await startInProcess({
      ALLOWED_TARGETS: '127.0.0.1',
      AUTOMATION_PARALLELISM: '1',
      STEP_TIMEOUT_MS: '1000',
    });
    // Over HTTP: the result's file links are made absolute with the request's origin.
    api = client(server.url);
    alice = await api.signUp('alice');
    const created = await api.call('POST', '/api/projects', {
      token: alice.token,
      json: { name: 'Site', kind: 'web', environments: [{ name: 'staging', base_url: `${site.url}/` }] },
    });
    expect(created.status).toBe(201);
    projectId = created.data.id;
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => site?.server.close(resolve));
  });

  it('is saved with the suite and read back; a save changing only it makes no version', async () => {
    const suites = `/api/projects/${projectId}/suites`;
    const saved = await api.call('POST', suites, {
      token: alice.token,
      json: { name: 'Recorded', test_cases: [checksReady('One', '/ready')], recording: { trace: 'always' } },
    });
    expect(saved.status).toBe(201);
    expect(saved.data.recording).toEqual({ trace: 'always', video: false });
    const { id, name, test_cases, version } = saved.data;
    const changed = await api.call('PUT', `${suites}/${id}`, {
      token: alice.token,
      json: { name, test_cases, base_version: version, recording: { video: true } },
    });
    expect(changed.status).toBe(200);
    expect(changed.data).toMatchObject({ version, recording: { trace: 'always', video: true } });
    const read = await api.call('GET', `${suites}/${id}`, { token: alice.token });
    expect(read.data.recording).toEqual({ trace: 'always', video: true });
    const plain = await api.call('POST', suites, {
      token: alice.token,
      json: { name: 'Plain', test_cases: [checksReady('One', '/ready')] },
    });
    expect(plain.data.recording).toEqual({ trace: 'on-failure', video: false });
  });

  it('keeps the traces (and videos) of failed and flaky cases, each attempt apart, and labels the flaky one timing', async () => {
    const saved = await api.call('POST', `/api/projects/${projectId}/suites`, {
      token: alice.token,
      json: {
        name: 'On failure',
        retries: 1,
        recording: { trace: 'on-failure', video: true },
        test_cases: [
          checksReady('Ready at once', '/ready'),
          checksReady('Ready on retry', '/flaky/b'),
          checksReady('Never ready', '/never'),
        ],
      },
    });
    expect(saved.status).toBe(201);
    const started = await api.call('POST', `/api/projects/${projectId}/suites/${saved.data.id}/runs`, {
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
    const detail = await api.call('GET', `/api/automation/test-runs/${runId}`, { token: alice.token });
    const results = detail.data.test_results as StoredTestResult[];
    const byName = Object.fromEntries(results.map((r) => [r.test_case_name, r]));
    const files = (r: StoredTestResult) => r.artifacts.map((a) => `${a.kind} ${a.attempt}`);

    const passed = byName['Ready at once'];
    expect([passed.status, passed.failure, files(passed)]).toEqual(['passed', null, []]);
    expect(passed.diagnostics?.requests).toBeGreaterThan(0);

    const flaky = byName['Ready on retry'];
    expect(flaky.status).toBe('flaky');
    expect(files(flaky)).toEqual(expect.arrayContaining(['trace 1']));
    expect(files(flaky)).not.toContain('trace 2');
    expect(flaky.failure).toMatchObject({ kind: 'timing' });
    expect(flaky.failure?.evidence).toMatch(/^Failed on attempt 1 \(.+\), passed on attempt 2$/);
    expect(flaky.failure?.fingerprint).toMatch(/^[0-9a-f]{16}$/);

    const failed = byName['Never ready'];
    expect(failed.status).toBe('failed');
    expect(files(failed)).toEqual(expect.arrayContaining(['trace 1', 'trace 2', 'video 1', 'video 2']));
    expect(failed.failure?.kind).toMatch(/^(not_found|assertion)$/);
    expect(failed.failure?.step_index).toBe(1);

    // The trace is a zip, served by its signed link; the case's console and network by login.
    const trace = failed.artifacts.find((a) => a.kind === 'trace' && a.attempt === 2);
    const zip = Buffer.from(await (await fetch(trace?.url ?? '')).arrayBuffer());
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(trace?.bytes).toBe(zip.length);
    const network = await api.call('GET', `/api/runs/${runId}/cases/${failed.id}/diagnostics`, {
      token: alice.token,
    });
    expect(network.status).toBe(200);
    expect(network.data.network.map((e: { url: string }) => e.url)).toContain(`${site.url}/never`);
  });
});
