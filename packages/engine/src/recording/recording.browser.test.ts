import { createServer } from 'node:net';
import { type RecordingSettings, type TestCase, TestCaseSchema } from '@argus/protocol';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../browser-pool';
import { TargetPolicy } from '../target-policy';
import { runTestCase, type TestOutcome } from '../test-runner';
import { type DiagnosticsApp, startDiagnosticsApp } from '../testing/diagnostics-app';

let app: DiagnosticsApp;
let closedPort: number;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
const testCase = (steps: string[]): TestCase => TestCaseSchema.parse({ test_name: 'case', steps });
const ON_FAILURE: RecordingSettings = { trace: 'on-failure', video: false };

const run = (steps: string[], recording: RecordingSettings = ON_FAILURE, stepTimeoutMs = 1_500) =>
  runTestCase(pool, testCase(steps), { baseUrl: app.url, stepTimeoutMs, recording });

/** The kept trace's files, after checking it is a Playwright trace whose events parse. */
function traceFiles(outcome: TestOutcome): Record<string, Uint8Array> {
  const trace = outcome.recorded?.trace;
  expect(trace, 'a kept trace').toBeDefined();
  const files = unzipSync(trace!);
  const events = Buffer.from(files['trace.trace']).toString('utf8').split('\n').filter(Boolean);
  expect(events.map((line) => JSON.parse(line).type)).toContain('before');
  return files;
}

beforeAll(async () => {
  app = await startDiagnosticsApp();
  // A port nothing listens on: a server is started on it and closed.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  await pool.close();
  await app.close();
});

describe('a failed case is labelled from its evidence and keeps its trace', () => {
  it('app_error: the request behind the step answered 500, named in the evidence', async () => {
    const outcome = await run([
      `Navigate to ${app.url}/orders`,
      'Click "Place order"',
      'Verify text "Order confirmed" is visible',
    ]);
    expect(outcome.status).toBe('failed');
    expect(outcome.failure).toMatchObject({ kind: 'app_error', step_index: 2 });
    expect(outcome.failure?.evidence).toBe(
      'POST /api/orders answered 500 during step 2 (Click "Place order")',
    );
    traceFiles(outcome);
  });

  it('assertion: the page answered and the expected text is not there', async () => {
    const outcome = await run([`Navigate to ${app.url}/orders`, 'Verify text "Order shipped" is visible']);
    expect(outcome.failure).toMatchObject({ kind: 'assertion', step_index: 1 });
    expect(outcome.failure?.evidence).toMatch(/^Step 2 \(Verify text "Order shipped" is visible\) failed/);
    traceFiles(outcome);
  });

  it('not_found: the target is not on the page, also when looked for again', async () => {
    const outcome = await run([`Navigate to ${app.url}/orders`, 'Click "Buy the moon"']);
    expect(outcome.failure).toMatchObject({ kind: 'not_found', step_index: 1 });
    expect(outcome.failure?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    traceFiles(outcome);
  });

  it('timing: the target appears just after the step gave up on it', async () => {
    const outcome = await run([`Navigate to ${app.url}/late`, 'Click "Late button"'], ON_FAILURE, 1_000);
    expect(outcome.error).toMatch(/No visible element matching "Late button"/);
    expect(outcome.failure).toMatchObject({ kind: 'timing', step_index: 1 });
    traceFiles(outcome);
  });

  it('environment: the site cannot be reached', async () => {
    const outcome = await run([`Navigate to http://127.0.0.1:${closedPort}/`]);
    expect(outcome.failure).toMatchObject({ kind: 'environment', step_index: 0 });
    expect(outcome.failure?.evidence).toMatch(/could not reach/);
    traceFiles(outcome);
  });

  it('the same failure in two runs shares a fingerprint', async () => {
    const steps = [`Navigate to ${app.url}/orders`, 'Click "Buy the moon"'];
    const [first, second] = [await run(steps), await run(steps)];
    expect(second.failure?.fingerprint).toBe(first.failure?.fingerprint);
  });
});

describe('the trace policy', () => {
  const passing = () => [`Navigate to ${app.url}/`, 'Verify text "All good" is visible'];

  it('on-failure: a passing case keeps no trace', async () => {
    const outcome = await run(passing());
    expect(outcome.status).toBe('passed');
    expect(outcome.failure).toBeUndefined();
    expect(outcome.recorded).toBeUndefined();
  });

  it('always: a passing case keeps its trace', async () => {
    const outcome = await run(passing(), { trace: 'always', video: false });
    expect(outcome.status).toBe('passed');
    traceFiles(outcome);
  });

  it('off: a failing case records nothing, but still has its console, network and label', async () => {
    const outcome = await run([`Navigate to ${app.url}/orders`, 'Click "Buy the moon"'], {
      trace: 'off',
      video: false,
    });
    expect(outcome.recorded).toBeUndefined();
    expect(outcome.failure?.kind).toBe('not_found');
    expect(outcome.diagnostics?.network.length).toBeGreaterThan(0);
  });

  it('video: a failed case keeps its webm, a passing one none', async () => {
    const failed = await run([`Navigate to ${app.url}/orders`, 'Click "Buy the moon"'], {
      trace: 'off',
      video: true,
    });
    expect(failed.error).toMatch(/Buy the moon/);
    // WebM starts with the EBML magic number.
    expect(failed.recorded?.video?.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    const passed = await run(passing(), { trace: 'off', video: true });
    expect(passed.recorded).toBeUndefined();
  });
});

describe('console and network of a case', () => {
  it('are aligned with the step running, with the 500 and the thrown error', async () => {
    const outcome = await run([
      `Navigate to ${app.url}/orders`,
      'Click "Break"',
      'Click "Place order"',
      'Verify text "Order confirmed" is visible',
    ]);
    const { console, network, truncated } = outcome.diagnostics!;
    expect(truncated).toBe(false);
    expect(console).toContainEqual(
      expect.objectContaining({ level: 'info', text: 'orders ready', step_index: 0 }),
    );
    const thrown = console.find((entry) => entry.level === 'pageerror');
    expect(thrown).toMatchObject({ step_index: 1 });
    expect(thrown?.text).toMatch(/TypeError: .*items/);
    const logged = console.find((entry) => entry.text === 'order failed: 500');
    expect(logged?.level).toBe('error');
    expect(logged?.step_index).toBeGreaterThanOrEqual(2);
    expect(logged?.location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/orders:\d+:\d+$/);
    const order = network.find((entry) => entry.url.endsWith('/api/orders'));
    expect(order).toMatchObject({ method: 'POST', status: 500, resource_type: 'fetch', step_index: 2 });
    expect(order?.request_bytes).toBe('{"item":1}'.length);
    // The body as it travelled (chunked here: its framing counts).
    expect(order?.response_bytes).toBeGreaterThanOrEqual('{"error":"database is down"}'.length);
    expect(order?.duration_ms).toBeGreaterThanOrEqual(0);
    const document = network.find((entry) => entry.resource_type === 'document');
    expect(document).toMatchObject({ step_index: 0, status: 200, method: 'GET' });
    // The 500 comes before the thrown error in the label: the request is the app's fault shown first.
    expect(outcome.failure?.kind).toBe('app_error');
  });
});
