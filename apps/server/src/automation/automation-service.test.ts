import type { Planner, PlanRequest } from '@argus/ai';
import type {
  Behaviour,
  BehaviourExploreOptions,
  CapturedScreenshot,
  PageObservation,
  TestOutcome,
} from '@argus/engine';
import type { ServerMessageInput, StepUpdate, TestCase } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { ActivityRegistry } from '../activity/activity-registry';
import { BrowserBudget } from '../limits/quotas';
import { RunLine } from '../run-lines/run-line';
import type { RunRecorder } from '../runs/run-recorder';
import { AutomationService, type BehaviourExplorer, type TestExecutor } from './automation-service';

/** The user, in their personal organization (whose id is theirs). */
const U1 = { userId: 'u1', orgId: 'u1' };

const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;
const config = {
  exploreMaxPages: 3,
  exploreTimeBudgetMs: 1000,
  exploreBehaviourMaxActions: 6,
  exploreBehaviourTimeBudgetMs: 2000,
  generationCheckRuns: 2,
  automationParallelism: 2,
  stepTimeoutMs: 1000,
  testTimeoutMs: 5000,
  maxCasesPerRun: 100,
  maxStepsPerCase: 100,
  maxBrowsersPerUser: 2,
};

const testCase = (name: string): TestCase => ({
  test_name: name,
  description: '',
  steps: ['Navigate to /'],
  category: 'Smoke',
  priority: 'high',
  expected_result: '',
});

/** The recorder's writes, in memory: what a run would have put in the database. */
function fakeRecorder() {
  const writes: string[] = [];
  const recorder = {
    checkSession: async () => {},
    ownRun: async (_user: string, id: string) => ({ id }),
    openStorage: async () => ({ used: 0, limit: 1e9, full: false }),
    create: async () => {
      writes.push('create');
      return { id: 'suite-1' };
    },
    start: async (_user: string, existing: { id: string } | undefined) => {
      writes.push(`start ${existing?.id ?? 'new'}`);
      return existing?.id ?? 'run-1';
    },
    saveScreenshot: async (_u: string, _r: string, name: string, shot: CapturedScreenshot) => {
      writes.push(`screenshot ${name} ${shot.step_index}`);
      return { id: `shot-${name}-${shot.step_index}` };
    },
    recordResult: async (
      _u: string,
      _r: string,
      c: TestCase,
      outcome: TestOutcome,
      _shots: unknown[],
      attempts = 1,
    ) => {
      writes.push(
        `result ${c.test_name} ${outcome.status}${attempts > 1 ? ` after ${attempts} attempts` : ''}`,
      );
    },
    ended: () => undefined,
    complete: async () => void writes.push('complete'),
    note: async () => undefined,
    stopped: async () => void writes.push('stopped'),
    failed: async () => void writes.push('failed'),
    interrupted: async () => void writes.push('interrupted'),
    screenshotUrl: (id: string) => `/signed/${id}`,
  };
  return { writes, recorder: recorder as unknown as RunRecorder };
}

const step = (index: number, status: StepUpdate['status']): StepUpdate => ({
  step_number: index + 1,
  step_index: index,
  action: 'navigate',
  status,
  timestamp: '2026-01-01T00:00:00.000Z',
});

/** Passes every case but 'Broken', reporting one step with a screenshot. */
const executor: TestExecutor = async (c, options) => {
  options.onStep?.(step(0, 'pending'));
  options.onStep?.(step(0, 'success'), {
    step_index: 0,
    step_name: 'navigate',
    data: Buffer.from('jpeg'),
    width: 10,
    height: 10,
  });
  const failed = c.test_name === 'Broken';
  return {
    status: failed ? 'failed' : 'passed',
    error: failed ? 'Broken link' : null,
    executionTime: 0.5,
    steps: [],
    screenshots: [],
    logs: [],
    usage: { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
  };
};

/** The words of an error or progress message. */
const messageOf = (m: ServerMessageInput | undefined) =>
  m?.data && 'message' in m.data ? String(m.data.message) : undefined;

function service(
  overrides: {
    runTest?: TestExecutor;
    planner?: Planner;
    exploreBehaviours?: BehaviourExplorer;
    pages?: PageObservation[];
    /** Recorder methods replaced (a database that fails). */
    recorder?: Partial<Record<keyof RunRecorder, unknown>>;
    /** The line work waits its turn in. */
    line?: RunLine;
  } = {},
) {
  const { writes, recorder: fake } = fakeRecorder();
  const recorder = Object.assign(fake, overrides.recorder ?? {}) as RunRecorder;
  const explore = vi.fn(async (_url: string, options: { onProgress?: (m: string) => void }) => {
    options.onProgress?.('Reading the home page');
    return overrides.pages ?? [{} as PageObservation];
  });
  const planner: Planner = overrides.planner ?? {
    engine: 'fake planner',
    generate: async () => [testCase('Home loads'), testCase('Broken')],
  };
  const automation = new AutomationService({
    config,
    activities: new ActivityRegistry({ browsers: new BrowserBudget(2), log }),
    line: overrides.line ?? new RunLine({ browsers: 4, perOrg: 2 }),
    recorder,
    browsers: { explore, exploreBehaviours: overrides.exploreBehaviours },
    runTest: overrides.runTest ?? executor,
    engineFor: async () => ({ planner, runEngine: 'fake engine' }),
    log,
  });
  const sent: ServerMessageInput[] = [];
  const send = (message: ServerMessageInput) => void sent.push(message);
  return { automation, writes, explore, sent, send, types: () => sent.map((m) => m.type) };
}

describe('AutomationService (explorer, planner and executor injected)', () => {
  it('generates: explores, plans, records the suite and hands out its cases', async () => {
    const { automation, writes, explore, sent, send, types } = service();
    const { done } = await automation.generate(U1, { url: 'https://shop.example/', session_id: 's1' }, send);
    await done;
    expect(explore).toHaveBeenCalledWith('https://shop.example/', expect.objectContaining({ maxPages: 3 }));
    expect(types()).toEqual([
      'generation_started',
      'progress_update',
      'progress_update',
      'test_cases_generated',
    ]);
    expect(sent.at(-1)).toMatchObject({
      data: { engine: 'fake planner', test_run_id: 'suite-1' },
    });
    expect(writes).toEqual(['create']);
    expect(automation.isBusy('u1')).toBe(false);
    // Every message is about the generation's session.
    expect(new Set(sent.map((m) => m.session_id))).toEqual(new Set(['s1']));
  });

  it('explores behaviour after the pages and hands the behaviours to the planner', async () => {
    const behaviour = { kind: 'add', description: 'type into "New todo" and press Enter' } as Behaviour;
    const exploreBehaviours = vi.fn(async (_url: string, options: BehaviourExploreOptions) => {
      options.onProgress?.('Trying: type into "New todo" and press Enter');
      return [behaviour];
    });
    const generate = vi.fn(async (request: PlanRequest) => [
      testCase(`${request.behaviours?.length} behaviour`),
    ]);
    const { automation, sent, send } = service({
      exploreBehaviours,
      planner: { engine: 'fake planner', generate },
    });
    const { done } = await automation.generate(U1, { url: 'https://shop.example/', session_id: 's1' }, send);
    await done;
    expect(exploreBehaviours).toHaveBeenCalledWith(
      'https://shop.example/',
      expect.objectContaining({ signal: expect.any(AbortSignal), pages: [] }),
    );
    // The operator's behaviour budget (EXPLORE_BEHAVIOUR_*) reaches the explorer.
    expect(exploreBehaviours.mock.calls[0][1]).toMatchObject({ maxActions: 6, timeBudgetMs: 2000 });
    expect(generate.mock.calls[0][0].behaviours).toEqual([behaviour]);
    const messages = sent.filter((m) => m.type === 'progress_update').map((m) => m.data.message);
    expect(messages).toContain('Trying: type into "New todo" and press Enter');
    expect(messages).toContain('Explored 1 page and found 1 behaviour; writing test cases');
    expect(sent.at(-1)).toMatchObject({
      type: 'test_cases_generated',
      data: { test_cases: [{ test_name: '1 behaviour' }] },
    });
  });

  it('stops during behaviour exploration: nothing is planned or recorded', async () => {
    let started = () => {};
    const exploring = new Promise<void>((resolve) => (started = resolve));
    const exploreBehaviours: BehaviourExplorer = (_url, options) =>
      new Promise((resolve) => {
        started();
        options.signal?.addEventListener('abort', () => resolve([]));
      });
    const generate = vi.fn(async () => [testCase('never')]);
    const { automation, writes, sent, send, types } = service({
      exploreBehaviours,
      planner: { engine: 'fake planner', generate },
    });
    const { done } = await automation.generate(U1, { url: 'https://shop.example/', session_id: 's1' }, send);
    await exploring;
    await automation.stop('u1', send);
    await done;
    expect(generate).not.toHaveBeenCalled();
    expect(writes).toEqual([]);
    expect(types()).toContain('execution_stopped');
    expect(sent.some((m) => m.type === 'test_cases_generated')).toBe(false);
  });

  it('says why when the planner writes nothing for a command, and records nothing', async () => {
    const notice = 'The built-in rule-based engine found nothing matching "the weather". Configure an LLM.';
    const planner: Planner = {
      engine: 'fake planner',
      generate: async (_request, options) => {
        options?.onNotice?.(notice);
        return [];
      },
    };
    const { automation, writes, sent, send } = service({ planner });
    const { done } = await automation.generate(
      U1,
      { url: 'https://shop.example/', session_id: 's1', command: 'the weather' },
      send,
    );
    await done;
    expect(writes).toEqual([]);
    expect(sent.filter((m) => m.type === 'progress_update').map((m) => m.data.message)).toContain(notice);
    expect(sent.at(-1)).toEqual({
      type: 'error',
      session_id: 's1',
      data: { message: notice, code: 'GENERATION_FAILED', feature: 'automation' },
    });
  });

  it('a generation that explored nothing says so, not that the page has nothing to test', async () => {
    const nothing: Planner = { engine: 'fake planner', generate: async () => [] };
    const { automation, writes, sent, send } = service({ planner: nothing, pages: [] });
    const { done } = await automation.generate(U1, { url: 'https://shop.example/', session_id: 's1' }, send);
    await done;
    expect(writes).toEqual([]);
    const error = sent.at(-1);
    expect(error?.type).toBe('error');
    expect(messageOf(error)).toMatch(/^Nothing was explored at https:\/\/shop\.example\/: /);
  });

  it('a generation from an empty start page says the page showed nothing to act on or check', async () => {
    const blank = {
      url: 'https://shop.example/',
      title: '',
      headings: [],
      links: [],
      forms: [],
      buttons: [],
      listItems: [],
      tables: [],
    } as unknown as PageObservation;
    const nothing: Planner = { engine: 'fake planner', generate: async () => [] };
    const { automation, sent, send } = service({ planner: nothing, pages: [blank] });
    const { done } = await automation.generate(U1, { url: 'https://shop.example/', session_id: 's1' }, send);
    await done;
    expect(messageOf(sent.at(-1))).toMatch(/^https:\/\/shop\.example\/ opened but showed nothing/);
  });

  it('a run whose test waits for a free browser says its place in line as it moves up', async () => {
    const queued: TestExecutor = async (c, options) => {
      options.onQueued?.(2);
      options.onQueued?.(1);
      return executor(c, options);
    };
    const { automation, sent, send } = service({ runTest: queued });
    const { done } = await automation.run(
      U1,
      {
        url: 'https://shop.example/',
        test_cases: [testCase('Home loads')],
        test_mode: 'full',
        session_id: 's1',
      },
      send,
    );
    await done;
    const progress = sent.filter((m) => m.type === 'progress_update').map((m) => m.data.message);
    expect(progress).toEqual(['Waiting for a free browser: 2 ahead', 'Waiting for a free browser: 1 ahead']);
    expect(sent.find((m) => m.type === 'progress_update')?.session_id).toBe('s1');
  });

  it('acknowledges a stop when nothing runs, about the session the stop named', async () => {
    const { automation, sent, send } = service();
    await automation.stop('u1', send, 's4');
    expect(sent).toEqual([{ type: 'execution_stopped', session_id: 's4', data: { execution_time: 0 } }]);
  });

  it('runs: every test is recorded as it ends, the run completes, and a late tab is told where it stands', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: TestExecutor = async (c, options) => {
      const outcome = await executor(c, options);
      if (c.test_name === 'Broken') await gate;
      return outcome;
    };
    const { automation, writes, sent, send } = service({ runTest: slow });
    const { done } = await automation.run(
      U1,
      {
        url: 'https://shop.example/',
        test_cases: [testCase('Home loads'), testCase('Broken')],
        test_mode: 'full',
        session_id: 's1',
        test_run_id: 'suite-1',
      },
      send,
    );
    await vi.waitFor(() => expect(sent.some((m) => m.type === 'test_completed')).toBe(true));
    const late = automation.inProgress('u1');
    expect(late).toMatchObject({
      type: 'automation_in_progress',
      data: {
        kind: 'running',
        session_id: 's1',
        test_run_id: 'suite-1',
        results: [{ test_name: 'Home loads', status: 'passed' }],
        active_tests: ['Broken'],
      },
    });
    const steps = (late?.data as { steps: { screenshot_url: string | null }[] } | undefined)?.steps ?? [];
    expect(steps.map((s) => s.screenshot_url)).toContain('/signed/shot-Home loads-0');
    release();
    await done;
    expect(sent.map((m) => m.type).filter((t) => t !== 'step_update')).toEqual([
      'execution_started',
      'test_progress',
      'test_progress',
      'test_completed',
      'test_failed',
      'all_tests_completed',
    ]);
    expect(sent.at(-1)).toMatchObject({ data: { total_tests: 2, passed: 1 } });
    expect(writes).toEqual([
      'start suite-1',
      'screenshot Home loads 0',
      'screenshot Broken 0',
      'result Home loads passed',
      'result Broken failed',
      'complete',
    ]);
    expect(automation.inProgress('u1')).toBeNull();
    expect(new Set(sent.map((m) => m.session_id))).toEqual(new Set(['s1']));
  });

  it('tells the user a run failed even when the database that would record the failure is gone', async () => {
    const unreachable = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    };
    const { automation, sent, send } = service({
      recorder: { recordResult: unreachable, failed: unreachable },
    });
    const { done } = await automation.run(
      U1,
      {
        url: 'https://shop.example/',
        test_cases: [testCase('Home loads')],
        test_mode: 'full',
        session_id: 's1',
        test_run_id: 'suite-1',
      },
      send,
    );
    await done;
    expect(sent.at(-1)).toMatchObject({
      type: 'error',
      data: { message: 'An error occurred during test execution', code: 'INTERNAL' },
    });
    expect(sent.some((m) => m.type === 'all_tests_completed')).toBe(false);
    // The next piece of work is not refused: the failed one let go of the user.
    expect(automation.isBusy('u1')).toBe(false);
  });

  it('retries a failed case in a fresh run of it: flaky when a retry passes, failed after every attempt', async () => {
    const tries = new Map<string, number>();
    const flakyOnce: TestExecutor = async (c, options) => {
      const n = (tries.get(c.test_name) ?? 0) + 1;
      tries.set(c.test_name, n);
      return executor(n === 1 && c.test_name === 'Flaky' ? { ...c, test_name: 'Broken' } : c, options);
    };
    const { automation, writes, sent, send } = service({ runTest: flakyOnce });
    const { done } = await automation.run(
      U1,
      {
        url: 'https://shop.example/',
        test_cases: [testCase('Flaky'), testCase('Broken')],
        test_mode: 'full',
        retries: 2,
      },
      send,
    );
    await done;
    expect(Object.fromEntries(tries)).toEqual({ Flaky: 2, Broken: 3 });
    expect(sent.filter((m) => m.type === 'progress_update').map(messageOf)).toEqual(
      expect.arrayContaining(['Retrying Flaky (attempt 2 of 3)', 'Retrying Broken (attempt 3 of 3)']),
    );
    expect(sent.find((m) => m.type === 'test_completed')).toMatchObject({
      data: { test_name: 'Flaky', flaky: true, attempts: 2, max_attempts: 3 },
    });
    expect(sent.find((m) => m.type === 'test_failed')).toMatchObject({
      data: { test_name: 'Broken', attempts: 3 },
    });
    expect(sent.at(-1)).toMatchObject({ type: 'all_tests_completed', data: { passed: 0, flaky: 1 } });
    // Only the final attempt's screenshots are stored; the failed attempts' are dropped.
    // The cases run side by side: each one's writes, in order.
    const of = (name: string) => writes.filter((w) => w.includes(name));
    expect(of('Flaky')).toEqual(['screenshot Flaky 0', 'result Flaky passed after 2 attempts']);
    expect(of('Broken')).toEqual(['screenshot Broken 0', 'result Broken failed after 3 attempts']);
  });

  it('a second piece of work while one goes on waits its turn, told its place, and starts when the first is stopped', async () => {
    const untilStopped: TestExecutor = (_c, options) =>
      new Promise((resolve) =>
        options.signal?.addEventListener('abort', () =>
          resolve({
            status: 'failed',
            error: 'Stopped',
            executionTime: 0,
            steps: [],
            screenshots: [],
            logs: [],
            usage: { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
          }),
        ),
      );
    // One piece of work at a time for the organization.
    const { automation, writes, sent, send } = service({
      runTest: untilStopped,
      line: new RunLine({ browsers: 4, perOrg: 1 }),
    });
    await automation.run(
      U1,
      {
        url: 'https://shop.example/',
        test_cases: [testCase('Home loads')],
        test_mode: 'full',
        session_id: 's1',
      },
      send,
    );
    const generation = await automation.generate(
      U1,
      { url: 'https://shop.example/', session_id: 's2' },
      send,
    );
    expect(sent.find((m) => m.type === 'automation_queued')).toEqual({
      type: 'automation_queued',
      session_id: 's2',
      data: { kind: 'generating', ahead: 0, test_run_id: null },
    });
    await vi.waitFor(() => expect(automation.activeRun('u1')).toBe('run-1'));
    expect(sent.some((m) => m.type === 'generation_started')).toBe(false);
    await automation.stop('u1', send, 's1');
    expect(sent.map((m) => m.type).filter((t) => t.startsWith('execution'))).toEqual([
      'execution_started',
      'execution_stopping',
      'execution_stopped',
    ]);
    expect(writes).toContain('stopped');
    // Its turn came: the generation ran to its end.
    await generation.done;
    expect(sent.find((m) => m.type === 'generation_started')?.session_id).toBe('s2');
    expect(automation.isBusy('u1')).toBe(false);
  });

  it('marks a run cut short by a shutdown as interrupted', async () => {
    const untilStopped: TestExecutor = (_c, options) =>
      new Promise((resolve) =>
        options.signal?.addEventListener('abort', () =>
          resolve({
            status: 'failed',
            error: 'Stopped',
            executionTime: 0,
            steps: [],
            screenshots: [],
            logs: [],
            usage: { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
          }),
        ),
      );
    const { automation, writes, send } = service({ runTest: untilStopped });
    await automation.run(
      U1,
      { url: 'https://shop.example/', test_cases: [testCase('Home loads')], test_mode: 'full' },
      send,
    );
    await vi.waitFor(() => expect(automation.activeRun('u1')).toBe('run-1'));
    await automation.shutdown();
    expect(writes.at(-1)).toBe('interrupted');
  });
});
