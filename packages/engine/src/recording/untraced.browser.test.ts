import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestCase, TestCaseSchema } from '@argus/protocol';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../browser-pool';
import { TargetPolicy } from '../target-policy';
import { runTestCase } from '../test-runner';
import { type DiagnosticsApp, startDiagnosticsApp } from '../testing/diagnostics-app';
import { untraced } from './untraced';

// untraced() rests on private API of the pinned playwright-core (ChannelOwner._wrapApiCall with
// `internal`): these tests read real traces, so an upgrade that changes it fails here.

let app: DiagnosticsApp;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
const testCase = (steps: string[]): TestCase => TestCaseSchema.parse({ test_name: 'case', steps });

interface TraceEvent {
  type: string;
  callId?: string;
  class?: string;
  method?: string;
  snapshot?: { callId: string; phase: string };
}

function traceEvents(zip: Buffer): TraceEvent[] {
  const files = unzipSync(zip);
  return Buffer.from(files['trace.trace'])
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TraceEvent);
}

/** The DOM snapshots taken for a call, by phase. */
const snapshots = (events: TraceEvent[], callId: string) =>
  events
    .filter((e) => e.type === 'frame-snapshot' && e.snapshot?.callId === callId)
    .map((e) => e.snapshot?.phase);

/** The traced calls, as `Class.method`, in order. */
const calls = (events: TraceEvent[]) =>
  events.filter((e) => e.type === 'before').map((e) => `${e.class}.${e.method}`);

beforeAll(async () => {
  app = await startDiagnosticsApp();
});
afterAll(async () => {
  await pool.close();
  await app.close();
});

describe('the engine’s own reads stay out of a case’s trace', () => {
  it('a recorded case lists only its navigation and actions, each action with its snapshots', async () => {
    const outcome = await runTestCase(
      pool,
      testCase([
        `Navigate to ${app.url}/login`,
        'Verify text "Sign in" is visible',
        'Fill "Username" with "ada"',
        'Click "Check"',
        'Verify text "Checked" is visible',
      ]),
      { baseUrl: app.url, recording: { trace: 'always', video: false } },
    );
    expect(outcome.status, outcome.error ?? '').toBe('passed');
    const events = traceEvents(outcome.recorded!.trace!);

    // Locating "Username" and "Check" counted matches, the Verify steps waited for their texts, the page
    // tracker read the page's icons, the step screenshots opened a CDP session: none of it is traced.
    // Left: the page's opening (the trace starts with the context), the navigation, the actions and the
    // click's wait for the page it may have led to.
    expect(calls(events)).toEqual([
      'BrowserContext.newPage',
      'Frame.goto',
      'Frame.fill',
      'Frame.click',
      'Page.__waitInfo__',
    ]);
    for (const method of ['fill', 'click']) {
      const action = events.find((e) => e.type === 'before' && e.method === method);
      expect(events.some((e) => e.type === 'after' && e.callId === action?.callId)).toBe(true);
      expect(snapshots(events, action!.callId!), method).toEqual(['before', 'action', 'after']);
    }
  });

  it('a failed Verify step leaves one look at what it looked for, with the page as it was', async () => {
    const outcome = await runTestCase(
      pool,
      testCase([
        `Navigate to ${app.url}/orders`,
        'Click "Place order"',
        'Verify text "Order confirmed" is visible',
      ]),
      { baseUrl: app.url, stepTimeoutMs: 1_500, recording: { trace: 'on-failure', video: false } },
    );
    expect(outcome.error).toMatch(/^Expected the text "Order confirmed" to be visible/);
    const events = traceEvents(outcome.recorded!.trace!);
    expect(calls(events)).toEqual([
      'BrowserContext.newPage',
      'Frame.goto',
      'Frame.click',
      'Page.__waitInfo__',
      'Frame.waitForSelector',
    ]);
    const look = events.find((e) => e.type === 'before' && e.method === 'waitForSelector');
    expect(JSON.stringify(look)).toContain('Order confirmed');
    expect(snapshots(events, look!.callId!)).toEqual(['before', 'after']);
  });

  it('playwright-core records no event for a call made inside untraced(), and one for the same call outside', async () => {
    await pool.withContext(async (context) => {
      const page = await context.newPage();
      await page.setContent('<h1>Hello</h1>');
      await context.tracing.start({ snapshots: true, screenshots: false });
      const heading = page.locator('h1');
      expect(await untraced(page, () => heading.count())).toBe(1);
      expect(await untraced(heading, () => heading.textContent())).toBe('Hello');
      expect(await heading.count()).toBe(1);
      const path = join(tmpdir(), `untraced-${process.pid}.zip`);
      await context.tracing.stop({ path });
      const zip = await readFile(path);
      await rm(path, { force: true });
      expect(calls(traceEvents(zip))).toEqual(['Frame.queryCount']);
    });
  });

  it('hands back the work’s own failure untouched, whatever was thrown', async () => {
    await pool.withContext(async (context) => {
      const page = await context.newPage();
      const error = new Error('no such thing');
      const stack = error.stack;
      await expect(untraced(page, () => Promise.reject(error))).rejects.toBe(error);
      expect(error.stack).toBe(stack);
      expect(error.message).toBe('no such thing');
      await expect(untraced(page, () => Promise.reject('a plain string'))).rejects.toBe('a plain string');
      expect(await untraced({} as never, async () => 'ran anyway')).toBe('ran anyway');
    });
  });
});
