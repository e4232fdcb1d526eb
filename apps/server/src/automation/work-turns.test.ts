import type { TestOutcome } from '@argus/engine';
import type { ServerMessageInput, TestCase } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { ActivityRegistry } from '../activity/activity-registry';
import { BrowserBudget } from '../limits/quotas';
import { RunLine } from '../run-lines/run-line';
import type { RunRecorder } from '../runs/run-recorder';
import { AutomationService, type TestExecutor } from './automation-service';

const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;

const config = {
  exploreMaxPages: 3,
  exploreTimeBudgetMs: 1000,
  exploreBehaviourMaxActions: 6,
  exploreBehaviourTimeBudgetMs: 2000,
  generationCheckRuns: 0,
  automationParallelism: 1,
  stepTimeoutMs: 1000,
  testTimeoutMs: 5000,
  maxCasesPerRun: 100,
  maxStepsPerCase: 100,
  maxBrowsersPerUser: 2,
};

const passed: TestOutcome = {
  status: 'passed',
  error: null,
  executionTime: 0.1,
  steps: [],
  screenshots: [],
  logs: [],
  usage: { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
};

/**
 * A server whose runs each run one case named after the run and end when the test lets them (`finish`):
 * `starts` lists the runs in the order their case started. Runs record into the rows they name.
 */
function server(limits: { browsers: number; perOrg: number }) {
  const writes: string[] = [];
  const starts: string[] = [];
  const gates = new Map<string, () => void>();
  const runTest: TestExecutor = (c: TestCase) => {
    starts.push(c.test_name);
    return new Promise((resolve) => gates.set(c.test_name, () => resolve(passed)));
  };
  const recorder = {
    checkSession: async () => {},
    ownRun: async (_user: string, id: string) => ({ id }),
    openStorage: async () => ({ used: 0, limit: 1e9, full: false }),
    start: async (_user: string, existing: { id: string } | undefined) => {
      writes.push(`start ${existing?.id}`);
      return existing?.id ?? 'new';
    },
    recordResult: async () => {},
    ended: () => undefined,
    complete: async () => void writes.push('complete'),
    note: async (_u: string, runId: string, message: string) => void writes.push(`${runId}: ${message}`),
    stopped: async (_u: string, runId: string) => void writes.push(`stopped ${runId}`),
    failed: async () => void writes.push('failed'),
    interrupted: async () => void writes.push('interrupted'),
    screenshotUrl: (id: string) => `/signed/${id}`,
  } as unknown as RunRecorder;
  const automation = new AutomationService({
    config,
    activities: new ActivityRegistry({ browsers: new BrowserBudget(2), log }),
    line: new RunLine(limits),
    recorder,
    browsers: { explore: async () => [] },
    runTest,
    engineFor: async () => ({
      planner: { engine: 'none', generate: async () => [] },
      runEngine: 'fake engine',
    }),
    log,
  });
  const sent: ServerMessageInput[] = [];
  const dones = new Map<string, Promise<void>>();
  /** Starts the run `name` (its row id too) for `userId` in their personal organization. */
  const start = async (userId: string, name: string) => {
    const started = await automation.run(
      { userId, orgId: userId },
      {
        url: 'https://shop.example/',
        test_cases: [
          {
            test_name: name,
            description: '',
            steps: ['Navigate to /'],
            category: 'Smoke',
            priority: 'high',
            expected_result: '',
          },
        ],
        test_mode: 'full',
        session_id: `session-${name}`,
        test_run_id: name,
      },
      (message) => void sent.push(message),
    );
    dones.set(name, started.done);
    return started;
  };
  /** Once the run `name`'s case has started, lets it end, and waits for the run to be over. */
  const finish = async (name: string) => {
    await vi.waitFor(() => expect(gates.has(name)).toBe(true));
    gates.get(name)?.();
    await dones.get(name);
  };
  return { automation, writes, starts, sent, start, finish };
}

describe('runs wait their turn (one process)', () => {
  it("another organization's one run starts within one run's time of ten queued runs of the first", async () => {
    // Two runs at once on the server (two browsers, one a run), two per organization.
    const { starts, start, finish, automation } = server({ browsers: 2, perOrg: 2 });
    const first: Promise<{ done: Promise<void> }>[] = [];
    for (let i = 1; i <= 10; i++) first.push(start('alice', `a${i}`));
    await Promise.all(first);
    const { done } = await start('bob', 'b1');
    await vi.waitFor(() => expect(starts).toEqual(['a1', 'a2']));
    // Next in line, whatever alice still has queued.
    expect(automation.queuePlace('b1')).toBe(0);
    expect(automation.queuePlace('a3')).toBe(1);
    await finish('a1');
    await vi.waitFor(() => expect(starts).toEqual(['a1', 'a2', 'b1']));
    // Measured: bob's run started as the 3rd of 11, after one of alice's runs ended.
    await finish('b1');
    await done;
    for (let i = 2; i <= 10; i++) await finish(`a${i}`);
    await vi.waitFor(() => expect(starts).toHaveLength(11));
    expect(starts.indexOf('b1')).toBe(2);
  });

  it('a queued run is told its place as it goes down, by the run API and on the socket', async () => {
    const { automation, sent, start, finish } = server({ browsers: 1, perOrg: 1 });
    for (const name of ['r1', 'r2', 'r3', 'r4']) await start('alice', name);
    const places: (number | null)[] = [automation.queuePlace('r4')];
    for (const name of ['r1', 'r2', 'r3']) {
      await finish(name);
      places.push(automation.queuePlace('r4'));
    }
    expect(places).toEqual([2, 1, 0, null]);
    const told = sent
      .filter((m) => m.type === 'automation_queued' && m.session_id === 'session-r4')
      .map((m) => (m.data as { ahead: number }).ahead);
    expect(told).toEqual([2, 1, 0]);
  });

  it('a cancelled queued run leaves the line: it never starts, and its row says it was cancelled', async () => {
    const { automation, writes, starts, start, finish } = server({ browsers: 1, perOrg: 1 });
    await start('alice', 'r1');
    const second = await start('alice', 'r2');
    await start('alice', 'r3');
    expect(automation.queuePlace('r3')).toBe(1);
    expect(await automation.cancel('alice', 'r2')).toBe('left');
    await second.done;
    expect(automation.queuePlace('r2')).toBeNull();
    expect(automation.queuePlace('r3')).toBe(0);
    expect(writes).toContain('stopped r2');
    expect(writes).toContain('r2: Cancelled while it waited its turn: it never started');
    await finish('r1');
    await finish('r3');
    expect(starts).toEqual(['r1', 'r3']);
    expect(writes.filter((w) => w.startsWith('start'))).toEqual(['start r1', 'start r3']);
    // Cancelling it again finds nothing to do.
    expect(await automation.cancel('alice', 'r2')).toBeNull();
  });
});
