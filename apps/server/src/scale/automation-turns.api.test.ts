/**
 * Fair turns over BullMQ (docs/DEPLOYMENT.md#how-work-flows) on the machine's Redis: a web process's
 * QueuedAutomation puts runs in their organizations' lines, and a worker (QueueWorker around
 * AutomationWorker, the same AutomationService one process uses, its executor gated by the test)
 * takes turns. Ten runs queued by one organization and then one by another: the other's starts as
 * soon as one run ends, as in one process; a run waiting is told its place as it goes down; a run
 * stopped while it waits never starts. Short: no browser, no database.
 */
import { randomUUID } from 'node:crypto';
import type { TestOutcome } from '@argus/engine';
import type { ServerMessageInput } from '@argus/protocol';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ActivityRegistry } from '../activity/activity-registry';
import { AutomationService, type TestExecutor } from '../automation/automation-service';
import { BrowserBudget } from '../limits/quotas';
import type { UserChannel } from '../realtime/user-channel';
import { RunLine } from '../run-lines/run-line';
import type { RunRecorder } from '../runs/run-recorder';
import { automationLine } from './automation-line';
import { AutomationWorker } from './automation-worker';
import { QueueWorker } from './queue-worker';
import { QueuedAutomation } from './queued-automation';
import { AUTOMATION_QUEUE } from './redis-keys';

/** A Redis database of its own (the scale-out test uses 9), emptied before and after. */
const REDIS_URL = process.env.TEST_TURNS_REDIS_URL ?? 'redis://127.0.0.1:6379/11';
const log = pino({ level: 'warn' });

const passed: TestOutcome = {
  status: 'passed',
  error: null,
  executionTime: 0.1,
  steps: [],
  screenshots: [],
  logs: [],
  usage: { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
};

const recorder = {
  checkSession: async () => {},
  ownRun: async (_user: string, id: string) => ({ id }),
  openStorage: async () => ({ used: 0, limit: 1e9, full: false }),
  start: async (_user: string, existing: { id: string } | undefined) => existing?.id ?? 'new',
  recordResult: async () => {},
  ended: () => undefined,
  complete: async () => {},
  note: async () => {},
  stopped: async () => {},
  failed: async () => {},
  interrupted: async () => {},
  screenshotUrl: (id: string) => `/signed/${id}`,
} as unknown as RunRecorder;

describe('fair turns on BullMQ workers', () => {
  const connections: Redis[] = [];
  const connect = (options: { maxRetriesPerRequest?: null } = {}) => {
    const redis = new Redis(REDIS_URL, options);
    connections.push(redis);
    return redis;
  };
  let web: QueuedAutomation;
  let worker: QueueWorker;
  /** The runs' single cases, in the order they started on the worker. */
  const starts: string[] = [];
  const gates = new Map<string, () => void>();
  const dones = new Map<string, Promise<void>>();
  /** What each run's caller was told, by run. */
  const said: { name: string; message: ServerMessageInput }[] = [];
  const sessions = new Map<string, string>();

  beforeAll(async () => {
    const commands = connect();
    await commands.flushdb();
    const channel: UserChannel = { sendToUser: () => {}, sendFrame: () => {}, connectionCount: () => 0 };
    const runTest: TestExecutor = (c) => {
      starts.push(c.test_name);
      return new Promise((resolve) => gates.set(c.test_name, () => resolve(passed)));
    };
    const automation = new AutomationService({
      config: {
        exploreMaxPages: 1,
        exploreTimeBudgetMs: 1000,
        exploreBehaviourMaxActions: 1,
        exploreBehaviourTimeBudgetMs: 1000,
        generationCheckRuns: 0,
        automationParallelism: 1,
        stepTimeoutMs: 1000,
        testTimeoutMs: 5000,
        maxCasesPerRun: 10,
        maxStepsPerCase: 10,
        maxBrowsersPerUser: 2,
      },
      activities: new ActivityRegistry({ browsers: new BrowserBudget(2), log }),
      line: new RunLine({ browsers: 2, perOrg: 2 }),
      recorder,
      browsers: { explore: async () => [] },
      runTest,
      engineFor: async () => ({ planner: { engine: 'none', generate: async () => [] }, runEngine: 'fake' }),
      log,
    });
    const line = automationLine(commands);
    // Two jobs at once on the worker; two per organization.
    worker = new QueueWorker(
      new AutomationWorker({ channel, redis: commands, log, automation, line, perOrg: 2, busyRetryMs: 100 }),
      { subscriber: connect(), connection: connect({ maxRetriesPerRequest: null }), concurrency: 2, log },
    );
    web = new QueuedAutomation({
      queue: new Queue(AUTOMATION_QUEUE, { connection: connect({ maxRetriesPerRequest: null }) }),
      redis: commands,
      subscriber: connect(),
      line,
      users: channel,
      createRun: async () => {
        throw new Error('no saved suites here');
      },
      leftLine: async () => {},
      log,
    });
    await web.start();
    await worker.start();
  }, 30_000);

  afterAll(async () => {
    for (const open of gates.values()) open();
    await worker?.stop();
    await web?.shutdown();
    await connections[0]?.flushdb();
    for (const redis of connections) redis.disconnect();
  });

  /** Queues the run `name` (one case of that name) for `userId`, in their personal organization. */
  const start = async (userId: string, name: string) => {
    sessions.set(name, randomUUID());
    const { done } = await web.run(
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
        session_id: sessions.get(name),
        test_run_id: name,
      },
      (message) => void said.push({ name, message }),
    );
    dones.set(name, done);
  };
  const finish = async (name: string) => {
    await vi.waitFor(() => expect(gates.has(name)).toBe(true), { timeout: 10_000 });
    gates.get(name)?.();
    await dones.get(name);
  };

  it("another organization's one run starts within one run's time of ten queued runs of the first", async () => {
    for (let i = 1; i <= 10; i++) await start('alice', `a${i}`);
    await start('bob', 'b1');
    await vi.waitFor(() => expect(starts).toEqual(['a1', 'a2']), { timeout: 10_000 });
    // a10 waits behind a3…a9 and bob's run: 8 ahead, told so; b1 is next.
    const placeOf = (name: string) =>
      said.filter((s) => s.name === name && s.message.type === 'automation_queued').at(-1)?.message.data;
    await vi.waitFor(() => expect(placeOf('b1')).toMatchObject({ ahead: 0 }), { timeout: 5_000 });
    await vi.waitFor(() => expect(placeOf('a10')).toMatchObject({ ahead: 8 }), { timeout: 5_000 });
    await finish('a1');
    await vi.waitFor(() => expect(starts).toHaveLength(3), { timeout: 10_000 });
    // Measured: bob's run is the 3rd of 11 to start, as soon as one of alice's ended.
    expect(starts[2]).toBe('b1');
    // a10's place went down as the line moved.
    await vi.waitFor(() => expect(placeOf('a10')).toMatchObject({ ahead: 7 }), { timeout: 5_000 });
    for (const name of ['a2', 'b1']) await finish(name);
    for (let i = 3; i <= 9; i++) await finish(`a${i}`);
    await vi.waitFor(() => expect(starts).toHaveLength(11), { timeout: 10_000 });
    await finish('a10');
    expect(starts.slice(3)).toEqual(['a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10']);
  }, 60_000);

  it('a run stopped while it waits leaves the line and never starts', async () => {
    starts.length = 0;
    for (const name of ['c1', 'c2', 'c3']) await start('carol', name);
    await vi.waitFor(() => expect(starts).toEqual(['c1', 'c2']), { timeout: 10_000 });
    // The screen's Stop names the session of the work: c3 waits, so it leaves the line.
    const stopped: ServerMessageInput[] = [];
    await web.stop('carol', (m) => void stopped.push(m), sessions.get('c3') ?? null);
    expect(stopped).toEqual([
      { type: 'execution_stopped', session_id: sessions.get('c3'), data: { execution_time: 0 } },
    ]);
    await dones.get('c3');
    await finish('c1');
    await finish('c2');
    // Its turn never comes: the turn it left in BullMQ finds nothing waiting.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(starts).toEqual(['c1', 'c2']);
    expect(await web.isBusy('carol')).toBe(false);
  }, 30_000);
});
