import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunCaseResult, RunReport } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSentEvents } from './http';
import { main } from './index';
import { caseLine, exitCodeOf, summaryLine } from './run';

/**
 * The command line against a scripted server on 127.0.0.1 (the real one is in e2e/cli.e2e.test.ts):
 * the event stream's parsing, the fall-back to polling when the stream fails, the exit codes, and the
 * refusals said before any request.
 */

const passed: RunCaseResult = {
  test_name: 'Home opens',
  test_case_id: null,
  status: 'passed',
  attempts: 1,
  execution_time: 1.23,
  error: null,
  result_id: null,
  failure: null,
  trace_url: null,
  trace_bytes: null,
  repair: null,
  steps: [],
};
const failed: RunCaseResult = {
  ...passed,
  test_name: 'Checkout works',
  status: 'failed',
  error: 'Expected text "Paid" to be visible\nmore lines',
};

function report(status: RunReport['status'], results: RunCaseResult[]): RunReport {
  return {
    id: 'run-1',
    status,
    suite_name: 'Smoke',
    project_id: 'p1',
    suite_id: 's1',
    suite_version: 2,
    environment_id: 'e1',
    environment_name: 'staging',
    url: 'https://shop.example/',
    engine: 'builtin',
    trigger: 'api',
    started_at: null,
    completed_at: null,
    execution_time: status === 'running' ? null : 4.5,
    total_tests: 2,
    passed_tests: results.filter((r) => r.status === 'passed').length,
    failed_tests: results.filter((r) => r.status === 'failed').length,
    flaky_tests: results.filter((r) => r.status === 'flaky').length,
    results,
    not_run: [],
    repairs: null,
    branch: null,
    visual: null,
  };
}

let server: Server;
let url = '';
let dir = '';
const seen: string[] = [];
let polls = 0;

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function handle(req: IncomingMessage, res: ServerResponse) {
  seen.push(`${req.method} ${req.url}`);
  if (req.headers.authorization !== 'Bearer argus_good')
    return json(res, 401, { detail: 'Could not validate credentials', code: 'INVALID_TOKEN' });
  const project = {
    id: 'p1',
    name: 'Shop',
    description: '',
    kind: 'web',
    environments: [
      { id: 'e0', name: 'production', base_url: 'https://shop.example/', is_default: true },
      { id: 'e1', name: 'staging', base_url: 'https://staging.shop.example/', is_default: false },
    ],
    login: { mode: 'none' },
    created_at: '2026-11-26T00:00:00Z',
    updated_at: '2026-11-26T00:00:00Z',
  };
  switch (`${req.method} ${req.url}`) {
    case 'GET /api/projects':
      return json(res, 200, [{ id: 'p1', name: 'Shop', kind: 'web', updated_at: project.updated_at }]);
    case 'GET /api/projects/p1':
      return json(res, 200, project);
    case 'GET /api/projects/p1/suites':
      return json(res, 200, [
        {
          id: 's1',
          project_id: 'p1',
          name: 'Smoke',
          version: 2,
          test_cases: [{ test_name: 'Home opens' }, { test_name: 'Checkout works' }],
          versions: [],
          created_at: project.created_at,
          updated_at: project.updated_at,
        },
      ]);
    case 'POST /api/projects/p1/suites/s1/runs':
      return json(res, 202, { test_run_id: 'run-1', environment_id: 'e1', environment_name: 'staging' });
    case 'GET /api/runs/run-1/events':
      // A proxy that does not pass event streams: the command line polls instead.
      return json(res, 502, { detail: 'Bad gateway', code: 'INTERNAL' });
    case 'GET /api/runs/run-1':
      polls++;
      return json(
        res,
        200,
        polls === 1 ? report('running', [passed]) : report('completed', [passed, failed]),
      );
    case 'GET /api/runs/run-1/report.xml':
      res.writeHead(200, { 'content-type': 'application/xml' }).end('<testsuites tests="2" failures="1"/>');
      return;
    default:
      return json(res, 404, { detail: 'Not found', code: 'NOT_FOUND' });
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'argus-cli-unit-'));
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function cli(argv: string[], token = 'argus_good') {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main({
    argv,
    env: { ARGUS_TOKEN: token },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    signal: new AbortController().signal,
  });
  return { code, out, err };
}

describe('serverSentEvents', () => {
  it('reads events split anywhere between chunks, CRLF or LF, skipping comments', async () => {
    async function* chunks() {
      yield 'event: run\r\ndata: {"a":';
      yield '1}\r';
      yield '\n\r\n: keep-alive\n\n';
      yield 'event: case_finished\ndata: {"b":2}\ndata: {"c":3}\n\n';
    }
    const events = [];
    for await (const event of serverSentEvents(chunks())) events.push(event);
    expect(events).toEqual([
      { event: 'run', data: '{"a":1}' },
      { event: 'case_finished', data: '{"b":2}\n{"c":3}' },
    ]);
  });
});

describe('argus run', () => {
  it('falls back to polling when the event stream fails, prints each case once, exits 1 on a failure', async () => {
    const result = await cli([
      'run',
      '--server',
      `${url}/`,
      '--project',
      'shop',
      '--suite',
      's1',
      '--env',
      'STAGING',
      '--junit',
      join(dir, 'out/junit.xml'),
    ]);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(1);
    expect(result.out).toEqual([
      'argus: running "Smoke" v2 (2 cases) of "Shop" on staging (https://staging.shop.example/), run run-1',
      '  ✓ Home opens (1.2 s)',
      '  ✗ Checkout works (1.2 s): Expected text "Paid" to be visible',
      'argus: 1 passed, 1 failed of 2 in 4.5 s; run run-1 completed',
      `argus: wrote ${join(dir, 'out/junit.xml')}`,
    ]);
    expect(seen).toContain('POST /api/projects/p1/suites/s1/runs');
    expect(await readFile(join(dir, 'out/junit.xml'), 'utf8')).toBe('<testsuites tests="2" failures="1"/>');
  });

  it('exit 2 with one line: a refused token, an unknown project, no token, a --token flag', async () => {
    const base = ['run', '--server', url, '--project', 'Shop', '--suite', 'Smoke'];
    expect(await cli(base, 'argus_bad')).toEqual({
      code: 2,
      out: [],
      err: [
        'argus: could not start: the server refused the token (401 INVALID_TOKEN: Could not validate credentials)',
      ],
    });
    const unknown = await cli(['run', '--server', url, '--project', 'Blog', '--suite', 'Smoke']);
    expect(unknown.err).toEqual(['argus: could not start: unknown project "Blog" (projects: Shop)']);
    expect((await cli(base, '')).err[0]).toMatch(/^argus: could not start: ARGUS_TOKEN is not set/);
    const flag = await cli([...base, '--token', 'argus_good']);
    expect(flag.code).toBe(2);
    expect(flag.err[0]).toMatch(/the token is read from ARGUS_TOKEN only/);
    expect((await cli(['run', '--project', 'Shop', '--suite', 'Smoke'])).err[0]).toMatch(
      /--server \(or ARGUS_SERVER\) is required/,
    );
  });

  it('exit 0 only for a completed run where every case passed', () => {
    expect(exitCodeOf(report('completed', [passed]))).toBe(0);
    expect(exitCodeOf(report('completed', [passed, failed]))).toBe(1);
    for (const status of ['interrupted', 'error', 'failed'] as const)
      expect(exitCodeOf(report(status, [passed]))).toBe(1);
    expect(exitCodeOf({ ...report('completed', [passed]), not_run: ['Checkout works'] })).toBe(1);
  });

  it('exit 0 when the only cases that did not pass at once are flaky, and says them in the summary', () => {
    const flaky: RunCaseResult = { ...failed, status: 'flaky', attempts: 2, error: null };
    const run = report('completed', [passed, flaky]);
    expect(exitCodeOf(run)).toBe(0);
    expect(summaryLine(run)).toBe('1 passed, 1 flaky, 0 failed of 2 in 4.5 s; run run-1 completed');
    expect(caseLine(flaky)).toBe('  ~ Checkout works (1.2 s): flaky, passed on attempt 2');
    expect(exitCodeOf(report('completed', [flaky, { ...failed, attempts: 2 }]))).toBe(1);
  });
});
