import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunReportSchema } from '@argus/protocol';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_EXPLORATION } from '../apps/server/src/testing/small-exploration';
import {
  freePort,
  REPO_ROOT,
  type RunningServer,
  spawnServer,
} from '../apps/server/src/testing/spawn-server';
import { type FixtureApp, serveFixtureApp } from '../fixtures/apps/serve';
import { PASSWORD, registerAccount } from './support/app';

/**
 * The `argus` command line (packages/cli, docs/CI.md) as a CI job runs it: the built bundle, from a
 * temporary directory, with an API token in ARGUS_TOKEN, against the spawned server and the to-do
 * fixture app. A suite with a failing case exits 1 and writes a JUnit report CI servers can read (its
 * counts and the failure's message); a passing one exits 0; two runs with one token at once both
 * complete (one waits its turn); an unknown suite, a refused token and no server exit 2 with a
 * one-line reason; `argus generate` saves a suite; Ctrl-C cancels the run.
 */

const CLI_BUNDLE = join(REPO_ROOT, 'packages/cli/dist/argus.mjs');
const PROJECT = 'To-do list';
const MISSING_TEXT = 'This text is on no page';
const PASSING = { test_name: 'The list is shown', steps: ['Verify heading "todos" is visible'] };
const FAILING = { test_name: 'A banner is shown', steps: [`Verify text "${MISSING_TEXT}" is visible`] };

let server: RunningServer;
let todo: FixtureApp;
let workDir: string;
let login = '';
let runToken = '';
let projectId = '';

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a child process in the temporary directory, as a CI step would. */
function argus(
  args: string[],
  {
    token = runToken,
    onStdout,
  }: { token?: string; onStdout?: (text: string, kill: () => void) => void } = {},
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ARGUS_TOKEN: token };
    const child = spawn(process.execPath, [CLI_BUNDLE, ...args], { cwd: workDir, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      onStdout?.(stdout, () => child.kill('SIGINT'));
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function api(method: string, path: string, body?: unknown, token = login): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

async function createToken(scope: 'run' | 'read' | 'full'): Promise<string> {
  const created = (await api('POST', '/api/tokens', { name: `CI ${scope}`, scope })) as { token: string };
  expect(created.token).toMatch(/^argus_/);
  return created.token;
}

const runArgs = (suite: string, ...more: string[]) => [
  'run',
  '--server',
  server.url,
  '--project',
  'TO-DO LIST',
  '--suite',
  suite,
  '--env',
  'staging',
  ...more,
];

beforeAll(async () => {
  // The bundle `npm run setup` builds (a few milliseconds when it is up to date).
  const build = spawnSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`building the CLI failed:\n${build.stdout}${build.stderr}`);
  [server, todo, workDir] = await Promise.all([
    // One run at a time for the organization, so a second run started meanwhile waits its turn.
    spawnServer({
      ALLOWED_TARGETS: '127.0.0.1',
      STEP_TIMEOUT_MS: '2000',
      ORG_MAX_CONCURRENT_RUNS: '1',
      ...SMALL_EXPLORATION,
    }),
    serveFixtureApp('todo'),
    mkdtemp(join(tmpdir(), 'argus-cli-')),
  ]);
  const username = await registerAccount(server.url, 'cli');
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  login = ((await res.json()) as { access_token: string }).access_token;
  runToken = await createToken('run');
  const project = (await api('POST', '/api/projects', {
    name: PROJECT,
    kind: 'web',
    environments: [
      { name: 'production', base_url: 'https://todo.example.com/' },
      { name: 'staging', base_url: `${todo.url}/` },
    ],
  })) as { id: string };
  projectId = project.id;
  await api('POST', `/api/projects/${projectId}/suites`, { name: 'Smoke', test_cases: [PASSING, FAILING] });
  await api('POST', `/api/projects/${projectId}/suites`, { name: 'Passing', test_cases: [PASSING] });
}, 180_000);

afterAll(async () => {
  await todo?.close();
  await server?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('argus run', () => {
  it('runs a suite with a failing case: exit 1, each case printed, JUnit and JSON reports written', async () => {
    const result = await argus(runArgs('smoke', '--junit', 'reports/results.xml', '--json', 'results.json'));
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toMatch(/running "Smoke" v1 \(2 cases\) of "To-do list" on staging/);
    expect(result.stdout).toMatch(/✓ The list is shown \(\d+\.\d s\)/);
    expect(result.stdout).toMatch(new RegExp(`✗ A banner is shown \\(\\d+\\.\\d s\\): .*${MISSING_TEXT}`));
    expect(result.stdout).toMatch(/1 passed, 1 failed of 2 in \d+\.\d s; run \S+ completed/);
    expect(result.stdout).toContain('wrote reports/results.xml');

    const xml = await readFile(join(workDir, 'reports/results.xml'), 'utf8');
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml, true);
    const suite = parsed.testsuites.testsuite;
    expect(suite.name).toMatch(/^Smoke/);
    expect(Number(suite.tests)).toBe(2);
    expect(Number(suite.failures)).toBe(1);
    const cases = [suite.testcase].flat() as { name: string; failure?: { message: string } }[];
    expect(cases.map((c) => c.name).sort()).toEqual(['A banner is shown', 'The list is shown']);
    expect(cases.filter((c) => c.failure).length).toBe(1);
    const failed = cases.find((c) => c.name === 'A banner is shown');
    expect(failed?.failure?.message).toContain(MISSING_TEXT);

    const json = RunReportSchema.parse(JSON.parse(await readFile(join(workDir, 'results.json'), 'utf8')));
    expect(json).toMatchObject({
      suite_name: 'Smoke (v1) on staging',
      environment_name: 'staging',
      total_tests: 2,
    });
    expect(json.passed_tests).toBe(1);
    expect(json.failed_tests).toBe(1);
    expect(json.trigger).toBe('api');
  });

  it('runs a suite whose cases all pass: exit 0', async () => {
    const result = await argus(runArgs('Passing'));
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/✓ The list is shown/);
    expect(result.stdout).toMatch(/1 passed, 0 failed of 1/);
    expect(result.stderr).toBe('');
  });

  it('two runs with one token started at the same moment both complete, each with its own verdict and reports; one waits its turn, saying so', async () => {
    const [first, second] = await Promise.all([
      argus(runArgs('Passing', '--junit', 'first/results.xml', '--json', 'first/results.json')),
      argus(runArgs('Passing', '--junit', 'second/results.xml', '--json', 'second/results.json')),
    ]);
    const runIds: string[] = [];
    for (const [result, dir] of [
      [first, 'first'],
      [second, 'second'],
    ] as const) {
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toMatch(/1 passed, 0 failed of 1 in \d+\.\d s; run \S+ completed/);
      const runId = result.stdout.match(/run (\S+) completed/)?.[1] ?? '';
      runIds.push(runId);
      const json = RunReportSchema.parse(
        JSON.parse(await readFile(join(workDir, dir, 'results.json'), 'utf8')),
      );
      expect(json).toMatchObject({ id: runId, status: 'completed', passed_tests: 1, total_tests: 1 });
      const xml = await readFile(join(workDir, dir, 'results.xml'), 'utf8');
      const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml, true)
        .testsuites.testsuite;
      expect([Number(suite.tests), Number(suite.failures)]).toEqual([1, 0]);
      expect(suite.timestamp).toBe(json.started_at);
    }
    expect(runIds[0]).not.toBe(runIds[1]);
    // The organization runs one at a time here: the other waited, told its place, never refused.
    const waited = [first, second].filter((result) => result.stdout.includes('argus: queued, 0 ahead'));
    expect(waited).toHaveLength(1);
  });

  it('could not start: exit 2 with a one-line reason, for an unknown suite, a refused token, no server', async () => {
    const runsBefore = ((await api('GET', `/api/projects/${projectId}/runs`)) as unknown[]).length;
    const unknown = await argus(runArgs('Nightly'));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `argus: could not start: unknown suite "Nightly" in project "${PROJECT}" (suites: Passing, Smoke)\n`,
    );

    const badToken = await argus(runArgs('Smoke'), { token: 'argus_not_a_real_token_1234567890' });
    expect(badToken.code).toBe(2);
    expect(badToken.stderr).toMatch(
      /^argus: could not start: the server refused the token \(401 [^\n]*\)\n$/,
    );

    const port = await freePort();
    const args = runArgs('Smoke');
    args[2] = `http://127.0.0.1:${port}`;
    const away = await argus(args);
    expect(away.code).toBe(2);
    expect(away.stderr).toBe(
      `argus: could not start: server unreachable at http://127.0.0.1:${port} (ECONNREFUSED)\n`,
    );

    const noToken = await argus(runArgs('Smoke'), { token: '' });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/^argus: could not start: ARGUS_TOKEN is not set/);

    const unknownEnv = await argus([...runArgs('Smoke').slice(0, -2), '--env', 'qa']);
    expect(unknownEnv.code).toBe(2);
    expect(unknownEnv.stderr).toBe(
      `argus: could not start: unknown environment "qa" in project "${PROJECT}" (environments: production, staging)\n`,
    );
    // Nothing was started by any of them.
    const runs = (await api('GET', `/api/projects/${projectId}/runs`)) as unknown[];
    expect(runs.length).toBe(runsBefore);
  });

  it('the bin npm links (`npx argus`) runs the same bundle', () => {
    const help = spawnSync(join(REPO_ROOT, 'node_modules/.bin/argus'), ['--help'], {
      cwd: workDir,
      encoding: 'utf8',
    });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('argus run --server URL --project NAME --suite NAME');
  });
});

describe('argus generate', () => {
  it('generates a suite with a run token and saves it into the project; a read token may not', async () => {
    const args = ['generate', '--server', server.url, '--project', PROJECT, '--env', 'staging'];
    const result = await argus([...args, '--suite', 'Generated']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const saved = result.stdout.match(/saved (\d+) test cases? as "Generated" version 1 \(new suite\)/);
    expect(saved, result.stdout).not.toBeNull();
    const suites = (await api('GET', `/api/projects/${projectId}/suites`)) as {
      name: string;
      test_cases: unknown[];
    }[];
    const generated = suites.find((suite) => suite.name === 'Generated');
    expect(generated?.test_cases.length).toBe(Number(saved?.[1]));
    // The generation's own pending record is not left in the project's runs.
    const runs = (await api('GET', `/api/projects/${projectId}/runs`)) as { status: string }[];
    expect(runs.map((run) => run.status)).not.toContain('pending');

    // Generated again into the same suite: a new version whose note says a generation wrote it (a
    // regenerate's comparison tells those from hand edits, suite-compare/curated.ts).
    const again = await argus([...args, '--suite', 'Generated']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const detail = (await api('GET', `/api/projects/${projectId}/suites`)) as {
      name: string;
      versions: { version: number; change: string }[];
    }[];
    const versions = detail.find((suite) => suite.name === 'Generated')?.versions ?? [];
    expect(versions.find((v) => v.version === 2)?.change).toMatch(
      /^Generated: (added \d+ test cases?, changed \d+, removed \d+|saved with no changes)$/,
    );

    const readOnly = await argus([...args, '--suite', 'Generated'], { token: await createToken('read') });
    expect(readOnly.code).toBe(2);
    expect(readOnly.stderr).toMatch(/^argus: could not start: the token may not do this \(403 TOKEN_SCOPE/);
  });
});

describe('POST /api/projects/{id}/generations', () => {
  it("refuses bad bodies and URLs off the environment before anything starts, and another user's project is 404", async () => {
    const post = async (body: unknown, token = runToken, id = projectId) => {
      const res = await fetch(`${server.url}/api/projects/${id}/generations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { code: string; detail: unknown } };
    };
    expect(await post({})).toMatchObject({ status: 422, body: { code: 'VALIDATION' } });
    expect(await post({ suite_name: 'X', url: 'javascript:alert(1)' })).toMatchObject({ status: 422 });
    expect(await post({ suite_name: 'X', url: 'https://elsewhere.example/' })).toMatchObject({
      status: 400,
      body: { detail: expect.stringContaining("is not on the production environment's address") },
    });
    expect(await post({ suite_name: 'X', environment_id: 'nope' })).toMatchObject({
      status: 404,
      body: { code: 'ENVIRONMENT_NOT_FOUND' },
    });
    const other = await registerAccount(server.url, 'cliother');
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: other, password: PASSWORD }),
    });
    const otherLogin = ((await res.json()) as { access_token: string }).access_token;
    expect(await post({ suite_name: 'X' }, otherLogin)).toMatchObject({
      status: 404,
      body: { code: 'PROJECT_NOT_FOUND' },
    });
    // Nothing was saved by any of them.
    const suites = (await api('GET', `/api/projects/${projectId}/suites`)) as { name: string }[];
    expect(suites.map((suite) => suite.name)).not.toContain('X');
  });
});

describe('Ctrl-C', () => {
  it('cancels the run, then exits 130', async () => {
    await api('POST', `/api/projects/${projectId}/suites`, {
      name: 'Slow',
      test_cases: [{ test_name: 'Waits', steps: Array(6).fill('Wait 1500 ms') }],
    });
    let interrupted = false;
    const result = await argus(runArgs('Slow'), {
      onStdout: (text, kill) => {
        if (!interrupted && text.includes('running "Slow"')) {
          interrupted = true;
          kill();
        }
      },
    });
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(result.stdout).toMatch(/cancelling run (\S+)\n.*run \S+ cancelled/);
    const runId = result.stdout.match(/cancelling run (\S+)/)?.[1] ?? '';
    // The run stopped early (the recorder records a stopped run as failed, its case 'Stopped by the user').
    await expect
      .poll(async () => RunReportSchema.parse(await api('GET', `/api/runs/${runId}`)), { timeout: 20_000 })
      .toMatchObject({
        status: 'failed',
        results: [expect.objectContaining({ error: expect.stringContaining('Stopped') })],
      });
    // Stopped before its end: not all of its 7 steps (the runner's Navigate and 6 waits) passed. A bound
    // on the seconds would fail on a busy machine.
    const report = RunReportSchema.parse(await api('GET', `/api/runs/${runId}`));
    expect(report.results[0].steps.filter((s) => s.status === 'success').length).toBeLessThan(7);
  });
});
