import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunCaseResult, RunReport } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './index';
import { slugOf, traceFileNames } from './traces';

/**
 * `argus run --traces DIR` against a scripted server on 127.0.0.1: the traces of failed and flaky
 * cases land in DIR under safe, unique names; a trace that cannot be had is a warning, never the verdict.
 */

let server: Server;
let url = '';
let dir = '';
const traceRequests: { path: string; authorization: string | undefined }[] = [];
const ZIP = Buffer.from('PK\u0003\u0004 a trace, byte for byte \u0000\u00ff', 'latin1');

const base: RunCaseResult = {
  test_name: 'Home opens',
  test_case_id: null,
  status: 'passed',
  attempts: 1,
  execution_time: 1,
  error: null,
  result_id: 'res-0',
  failure: null,
  trace_url: null,
  trace_bytes: null,
  repair: null,
  steps: [],
};
const traced = (path: string) => ({ trace_url: `${url}${path}?owner=o&expires=9&sig=s`, trace_bytes: 10 });

function runReport(): RunReport {
  const results: RunCaseResult[] = [
    { ...base, ...traced('/files/home') },
    { ...base, test_name: 'Checkout works', status: 'failed', error: 'boom', ...traced('/files/checkout') },
    { ...base, test_name: 'Checkout works!', status: 'failed', error: 'boom', ...traced('/files/broken') },
    { ...base, test_name: 'Ça marche / CON', status: 'flaky', attempts: 2, ...traced('/files/flaky') },
    { ...base, test_name: 'Not kept', status: 'failed', error: 'boom' },
  ];
  return {
    id: 'run-1',
    status: 'completed',
    suite_name: 'Smoke',
    project_id: 'p1',
    suite_id: 's1',
    suite_version: 1,
    environment_id: 'e1',
    environment_name: 'staging',
    url: 'https://shop.example/',
    engine: 'builtin',
    trigger: 'api',
    started_at: null,
    completed_at: null,
    execution_time: 3,
    total_tests: results.length,
    passed_tests: 1,
    failed_tests: 3,
    flaky_tests: 1,
    results,
    not_run: [],
    repairs: null,
    branch: null,
    visual: null,
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function handle(req: IncomingMessage, res: ServerResponse) {
  const path = (req.url ?? '').split('?')[0];
  if (path.startsWith('/files/')) {
    traceRequests.push({ path, authorization: req.headers.authorization });
    if (path === '/files/broken') return json(res, 500, { detail: 'Disk on fire', code: 'INTERNAL' });
    return res.writeHead(200, { 'content-type': 'application/zip' }).end(ZIP);
  }
  if (req.headers.authorization !== 'Bearer argus_good')
    return json(res, 401, { detail: 'Could not validate credentials', code: 'INVALID_TOKEN' });
  const stamp = '2026-11-26T00:00:00Z';
  switch (`${req.method} ${path}`) {
    case 'GET /api/projects':
      return json(res, 200, [{ id: 'p1', name: 'Shop', kind: 'web', updated_at: stamp }]);
    case 'GET /api/projects/p1':
      return json(res, 200, {
        id: 'p1',
        name: 'Shop',
        description: '',
        kind: 'web',
        environments: [{ id: 'e1', name: 'staging', base_url: 'https://shop.example/', is_default: true }],
        login: { mode: 'none' },
        created_at: stamp,
        updated_at: stamp,
      });
    case 'GET /api/projects/p1/suites':
      return json(res, 200, [
        {
          id: 's1',
          project_id: 'p1',
          name: 'Smoke',
          version: 1,
          test_cases: runReport().results.map((r) => ({ test_name: r.test_name })),
          versions: [],
          created_at: stamp,
          updated_at: stamp,
        },
      ]);
    case 'POST /api/projects/p1/suites/s1/runs':
      return json(res, 202, { test_run_id: 'run-1', environment_id: 'e1', environment_name: 'staging' });
    case 'GET /api/runs/run-1/events':
      // No event stream through this proxy: the command line polls instead.
      return json(res, 502, { detail: 'Bad gateway', code: 'INTERNAL' });
    case 'GET /api/runs/run-1':
      return json(res, 200, runReport());
    default:
      return json(res, 404, { detail: 'Not found', code: 'NOT_FOUND' });
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'argus-cli-traces-'));
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main({
    argv,
    env: { ARGUS_TOKEN: 'argus_good' },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    signal: new AbortController().signal,
  });
  return { code, out, err };
}

describe('argus run --traces', () => {
  it('downloads the traces of failed and flaky cases, warns of those it cannot have, keeps the verdict', async () => {
    const traces = join(dir, 'traces');
    const result = await cli([
      'run',
      '--server',
      url,
      '--project',
      'Shop',
      '--suite',
      'Smoke',
      '--traces',
      traces,
    ]);
    expect(result.code).toBe(1);
    expect((await readdir(traces)).sort()).toEqual(['ca-marche-con.trace.zip', 'checkout-works.trace.zip']);
    expect(await readFile(join(traces, 'checkout-works.trace.zip'))).toEqual(ZIP);
    expect(result.out).toContain(
      `argus: trace of "Checkout works": ${join(traces, 'checkout-works.trace.zip')}`,
    );
    expect(result.out.at(-1)).toBe(
      `argus: 2 traces in ${traces} (open one with npx playwright show-trace FILE)`,
    );
    expect(result.err).toEqual([
      'argus: warning: could not download the trace of "Checkout works!": the server answered 500',
      'argus: warning: no trace was kept of "Not kept"',
    ]);
    // A passing case's trace is not fetched; the signed links get no token.
    expect(traceRequests.map((r) => r.path).sort()).toEqual([
      '/files/broken',
      '/files/checkout',
      '/files/flaky',
    ]);
    expect(traceRequests.every((r) => r.authorization === undefined)).toBe(true);
  });

  it('refuses --traces without a directory, and on generate', async () => {
    const empty = await cli([
      'run',
      '--server',
      url,
      '--project',
      'Shop',
      '--suite',
      'Smoke',
      '--traces',
      '',
    ]);
    expect(empty).toMatchObject({ code: 2, err: ['argus: --traces needs a directory (argus --help)'] });
    const generate = await cli([
      'generate',
      '--server',
      url,
      '--project',
      'Shop',
      '--suite',
      'S',
      '--traces',
      dir,
    ]);
    expect(generate.err[0]).toMatch(/--traces are options of run/);
  });
});

describe('trace file names', () => {
  it('are lower-case ASCII, never empty nor a name Windows refuses, at most 80 characters before the suffix', () => {
    expect(slugOf('Checkout: pay €20 with <VISA>')).toBe('checkout-pay-20-with-visa');
    expect(slugOf('Déjà vu')).toBe('deja-vu');
    expect(slugOf('../../etc/passwd')).toBe('etc-passwd');
    expect(slugOf('日本語')).toBe('case');
    expect(slugOf('NUL')).toBe('case-nul');
    expect(slugOf('x'.repeat(300))).toHaveLength(80);
  });

  it('are unique within a run', () => {
    expect(traceFileNames(['Pay', 'pay', 'Pay!', 'Refund'])).toEqual([
      'pay.trace.zip',
      'pay-2.trace.zip',
      'pay-3.trace.zip',
      'refund.trace.zip',
    ]);
  });
});
