import { TestCaseSchema } from '@argus/protocol';
import { unzipSync } from 'fflate';
import { type BrowserServer, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../browser-pool';
import { CHROMIUM_ARGS, findChromium } from '../chromium';
import { TargetPolicy } from '../target-policy';
import { runTestCase } from '../test-runner';
import { type DiagnosticsApp, startDiagnosticsApp } from '../testing/diagnostics-app';

let app: DiagnosticsApp;
let remote: BrowserServer;
let pool: BrowserPool;

beforeAll(async () => {
  app = await startDiagnosticsApp();
  remote = await chromium.launchServer({
    executablePath: findChromium(),
    args: CHROMIUM_ARGS,
    host: '127.0.0.1',
  });
  pool = new BrowserPool({
    policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }),
    maxContexts: 1,
    wsEndpoint: remote.wsEndpoint(),
  });
});
afterAll(async () => {
  await pool?.close();
  await remote?.close();
  await app?.close();
});

describe('a case run on a remote browser', () => {
  it('keeps the trace and video of its failed attempt, brought over from the browser', async () => {
    const outcome = await runTestCase(
      pool,
      TestCaseSchema.parse({
        test_name: 'remote',
        steps: [`Navigate to ${app.url}/orders`, 'Click "Buy the moon"'],
      }),
      { baseUrl: app.url, stepTimeoutMs: 1_000, recording: { trace: 'on-failure', video: true } },
    );
    expect(outcome.failure?.kind).toBe('not_found');
    const files = unzipSync(outcome.recorded!.trace!);
    expect(Object.keys(files)).toContain('trace.trace');
    expect(outcome.recorded?.video?.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    expect(outcome.diagnostics?.network.some((entry) => entry.url.endsWith('/orders'))).toBe(true);
  });
});
