import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { client } from './api-targets';

// The small site the scale-out tests run suites against (scale/*.test.ts), on 127.0.0.1.

/** /ok shows the heading a case checks, /broken does not; /slow?ms=N answers after N ms. */
export function startScaleSite(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const page = (body: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><title>Site</title></head><body><main>${body}</main></body></html>`,
      );
    };
    if (url.pathname === '/')
      page(
        '<h1>Home</h1><nav><a href="/ok">Ready</a></nav><form action="/ok"><label>Search <input name="q"></label><button>Go</button></form>',
      );
    else if (url.pathname === '/ok') page('<h1>Ready</h1>');
    else if (url.pathname === '/broken') page('<h2>Something else</h2>');
    else if (url.pathname === '/slow')
      setTimeout(() => page('<h1>Ready</h1>'), Number(url.searchParams.get('ms')));
    else res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

export const checksReady = (test_name: string, path: string) => ({
  test_name,
  steps: [`Navigate to ${path}`, 'Verify heading "Ready" is visible'],
});
export const SUITE = [
  checksReady('Ready page', '/ok'),
  checksReady('Broken page', '/broken'),
  checksReady('Slow page', '/slow?ms=400'),
];
/**
 * A run that lasts several seconds: eight pages that each take 700 ms. The tests give steps 3 s
 * (STEP_TIMEOUT_MS): a loaded CI machine once took over 1 s to load one, failing a case that passes.
 */
export const LONG_SUITE = Array.from({ length: 8 }, (_, i) =>
  checksReady(`Slow page ${i + 1}`, `/slow?ms=700&n=${i}`),
);

/**
 * A project whose one environment is the site at `siteUrl` and, given cases, a suite of them saved in
 * it; answers the ids and where a run of the suite is started.
 */
export async function siteProject(
  api: ReturnType<typeof client>,
  token: string,
  siteUrl: string,
  suite?: { name: string; test_cases: unknown[] },
): Promise<{ projectId: string; suiteId: string; runsPath: string }> {
  const created = await api.call('POST', '/api/projects', {
    token,
    json: { name: 'Site', kind: 'web', environments: [{ name: 'staging', base_url: `${siteUrl}/` }] },
  });
  if (created.status !== 201) throw new Error(`project: ${created.status} ${JSON.stringify(created.data)}`);
  const projectId = created.data.id as string;
  if (!suite) return { projectId, suiteId: '', runsPath: '' };
  const saved = await api.call('POST', `/api/projects/${projectId}/suites`, { token, json: suite });
  if (saved.status !== 201) throw new Error(`suite: ${saved.status} ${JSON.stringify(saved.data)}`);
  const suiteId = saved.data.id as string;
  return { projectId, suiteId, runsPath: `/api/projects/${projectId}/suites/${suiteId}/runs` };
}

/** What the scale-out tests read of a run (GET /api/automation/test-runs/{id}). */
export interface RunDetail {
  status: string;
  test_results: { id: string; test_case_name: string; status: string }[];
  execution_log: { message: string }[];
}

export async function runDetail(
  api: ReturnType<typeof client>,
  token: string,
  runId: string,
): Promise<RunDetail> {
  return (await api.call('GET', `/api/automation/test-runs/${runId}`, { token })).data as RunDetail;
}

/** Resolves once the run is over: its event stream (GET /api/runs/{id}/events) ends with it. */
export async function runEnd(webUrl: string, token: string, runId: string): Promise<void> {
  const events = await fetch(`${webUrl}/api/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await events.text();
}
