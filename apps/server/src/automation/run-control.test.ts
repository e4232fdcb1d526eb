import type { CapturedScreenshot, TestOutcome } from '@argus/engine';
import type { ServerMessageInput, TestCase } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { ActivityRegistry } from '../activity/activity-registry';
import { BrowserBudget } from '../limits/quotas';
import { RunLine } from '../run-lines/run-line';
import type { RunRecorder } from '../runs/run-recorder';
import { AutomationService, type TestExecutor } from './automation-service';
import type { RunControl } from './run-control';

const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;

const testCase = (name: string): TestCase => ({
  test_name: name,
  description: '',
  steps: ['Navigate to /'],
  category: 'Smoke',
  priority: 'high',
  expected_result: '',
});

const passed = (): TestOutcome => ({
  status: 'passed',
  error: null,
  executionTime: 0.5,
  steps: [],
  screenshots: [],
  logs: [],
  usage: { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
});

/** A run over one browser; the recorder in memory, `before` being what the run recorded earlier. */
function service(runTest: TestExecutor, before: Map<string, string> = new Map()) {
  const writes: string[] = [];
  const recorded = new Map(before);
  const recorder = {
    checkSession: async () => {},
    ownRun: async (_user: string, id: string) => ({ id }),
    openStorage: async () => ({ used: 0, limit: 1e9, full: false }),
    recordedCases: async () => new Map(recorded),
    start: async (_u: string, existing: { id: string } | undefined, ...rest: unknown[]) => {
      writes.push(`start ${existing?.id ?? 'new'}${rest[2] ? ' resumed' : ''}`);
      return existing?.id ?? 'run-1';
    },
    saveScreenshot: async (_u: string, _r: string, name: string, shot: CapturedScreenshot) => ({
      id: `shot-${name}-${shot.step_index}`,
    }),
    recordResult: async (_u: string, _r: string, c: TestCase, outcome: TestOutcome) => {
      recorded.set(c.test_name, outcome.status);
      writes.push(`result ${c.test_name}`);
    },
    note: async (_u: string, _r: string, message: string, level = 'info') =>
      void writes.push(`${level}: ${message}`),
    ended: () => undefined,
    complete: async () => void writes.push('complete'),
    stopped: async () => void writes.push('stopped'),
    failed: async () => void writes.push('failed'),
  } as unknown as RunRecorder;
  const automation = new AutomationService({
    config: {
      exploreMaxPages: 3,
      exploreTimeBudgetMs: 1000,
      exploreBehaviourMaxActions: 6,
      exploreBehaviourTimeBudgetMs: 2000,
      generationCheckRuns: 2,
      automationParallelism: 1,
      stepTimeoutMs: 1000,
      testTimeoutMs: 5000,
      maxCasesPerRun: 100,
      maxStepsPerCase: 100,
      maxBrowsersPerUser: 2,
    },
    activities: new ActivityRegistry({ browsers: new BrowserBudget(2), log }),
    line: new RunLine({ browsers: 4, perOrg: 2 }),
    recorder,
    browsers: { explore: async () => [] },
    runTest,
    engineFor: async () => ({
      planner: { engine: 'fake', generate: async () => [] },
      runEngine: 'fake engine',
    }),
    log,
  });
  const sent: ServerMessageInput[] = [];
  return { automation, writes, sent, send: (m: ServerMessageInput) => void sent.push(m) };
}

/** A control whose words name themselves, and that remembers the runs it was told were handed back. */
function control(resume: boolean, handingBack: () => boolean) {
  const handedBack: string[] = [];
  const steering: RunControl = {
    resume,
    handingBack,
    handedBack: (runId) => void handedBack.push(runId),
    resumedNotice: (recorded, total) => ({ progress: `resumed ${recorded}/${total}`, note: 'resumed note' }),
    handedBackNotice: (recorded, total) => ({
      progress: `handed back ${recorded}/${total}`,
      note: 'back note',
    }),
  };
  return { steering, handedBack };
}

const progressOf = (sent: ServerMessageInput[]) =>
  sent.flatMap((m) => (m.type === 'progress_update' ? [m.data.message] : []));

/** The user, in their personal organization (whose id is theirs). */
const U1 = { userId: 'u1', orgId: 'u1' };

describe('a run steered by a RunControl', () => {
  it('handed back: takes no new case once asked, records the one under way, and ends without a verdict', async () => {
    let back = false;
    const { automation, writes, sent, send } = service(async () => {
      back = true; // asked to hand back while the first case runs
      return passed();
    });
    const { steering, handedBack } = control(false, () => back);
    const cases = ['One', 'Two', 'Three'].map(testCase);
    const started = await automation.run(
      U1,
      { url: 'https://shop.example/', test_cases: cases, test_mode: 'full', test_run_id: 'r1' },
      send,
      steering,
    );
    await started.done;
    expect(handedBack).toEqual(['r1']);
    expect(writes).toEqual(['start r1', 'info: Steps run by: fake engine', 'result One', 'warn: back note']);
    expect(progressOf(sent)).toEqual(['handed back 1/3']);
    expect(sent.some((m) => m.type === 'all_tests_completed' || m.type === 'execution_stopped')).toBe(false);
  });

  it('resumed: the cases recorded before are counted, not run again, and the run says so', async () => {
    const ran: string[] = [];
    const before = new Map([
      ['One', 'passed'],
      ['Two', 'flaky'],
    ]);
    const { automation, writes, sent, send } = service(async (c) => {
      ran.push(c.test_name);
      return passed();
    }, before);
    const { steering, handedBack } = control(true, () => false);
    const cases = ['One', 'Two', 'Three'].map(testCase);
    const started = await automation.run(
      U1,
      { url: 'https://shop.example/', test_cases: cases, test_mode: 'full', test_run_id: 'r1' },
      send,
      steering,
    );
    await started.done;
    expect(ran).toEqual(['Three']);
    expect(handedBack).toEqual([]);
    expect(writes.slice(0, 2)).toEqual(['start r1 resumed', 'warn: resumed note']);
    expect(progressOf(sent)).toEqual(['resumed 2/3']);
    expect(sent.at(-1)).toMatchObject({
      type: 'all_tests_completed',
      data: { total_tests: 3, passed: 2, flaky: 1 },
    });
  });

  it('without a control, a run named by test_run_id starts afresh and runs every case', async () => {
    const ran: string[] = [];
    const { automation, writes, send } = service(
      async (c) => {
        ran.push(c.test_name);
        return passed();
      },
      new Map([['One', 'passed']]),
    );
    const started = await automation.run(
      U1,
      { url: 'https://shop.example/', test_cases: [testCase('One')], test_mode: 'full', test_run_id: 'r1' },
      send,
    );
    await started.done;
    expect(ran).toEqual(['One']);
    expect(writes[0]).toBe('start r1');
  });
});
