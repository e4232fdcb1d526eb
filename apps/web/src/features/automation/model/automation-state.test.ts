import { type ServerMessage, ServerMessageSchema } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { automationReducer } from './automation-reducer';
import {
  type AutomationAction,
  type AutomationState,
  concernsAutomation,
  initialAutomationState,
} from './automation-state';
import { createAutomationStore } from './automation-store';
import { EXPLORATION } from './test-fixtures';

/**
 * Messages go through the real protocol schema, as the realtime client parses them. They are about
 * `session` (none by default, as the screen's state starts), and an `error` is automation's unless
 * it says otherwise.
 */
function server(type: string, data: unknown = {}, session: string | null = null): AutomationAction {
  const body = type === 'error' ? { feature: 'automation', ...(data as object) } : data;
  return {
    type: 'server',
    message: ServerMessageSchema.parse({ type, session_id: session, data: body }) as ServerMessage,
  };
}

function run(actions: AutomationAction[], from: AutomationState = initialAutomationState): AutomationState {
  return actions.reduce(automationReducer, from);
}

const cases = [
  { test_name: 'Home page loads', steps: ['Navigate to "/"'], priority: 'high' },
  { name: 'About page links work', steps: ['Navigate to "/about.html"', 'Verify links'] },
];

function stepUpdate(test: string, index: number, status: string, screenshot = false) {
  return server('step_update', {
    test_name: test,
    step_data: {
      step_number: index + 1,
      step_index: index,
      action: 'navigate',
      description: `step ${index}`,
      status,
      timestamp: '2026-01-01T00:00:00.000Z',
      ...(screenshot ? { screenshot: { base64_data: `IMG${index}`, width: 1280, height: 800 } } : {}),
    },
  });
}

const generated = run([
  { type: 'generate_requested', url: 'http://127.0.0.1:4400/', mode: 'full' },
  server('generation_started', { message: 'Opening the site' }),
  server('progress_update', { message: 'Exploring 3 pages' }),
  server('test_cases_generated', {
    test_cases: cases,
    engine: 'builtin (rule-based, no LLM)',
    test_run_id: 'run1',
  }),
]);

describe('automation state: generation', () => {
  it('goes generating → idle with the cases, the engine and the test run id', () => {
    expect(generated.status).toBe('idle');
    expect(generated.testCases.map((c) => c.test_name)).toEqual(['Home page loads', 'About page links work']);
    expect(generated.testCases[1].category).toBe('General');
    expect(generated.engine).toBe('builtin (rule-based, no LLM)');
    expect(generated.testRunId).toBe('run1');
    expect(generated.targetUrl).toBe('http://127.0.0.1:4400/');
    expect(generated.generationMessages).toEqual([]);
  });

  it('collects progress messages while generating', () => {
    const state = run([
      { type: 'generate_requested', url: 'http://x/', mode: 'command' },
      server('generation_started', { message: 'Opening' }),
      server('progress_update', { message: 'Reading forms' }),
    ]);
    expect(state.status).toBe('generating');
    expect(state.generationMode).toBe('command');
    expect(state.generationMessages).toEqual(['Opening', 'Reading forms']);
  });

  it('shows a generation waiting its turn its place, then its own messages once it starts', () => {
    const waiting = run([
      { type: 'generate_requested', url: 'http://x/', mode: 'full' },
      server('automation_queued', { kind: 'generating', ahead: 2 }),
      server('automation_queued', { kind: 'generating', ahead: 0 }),
    ]);
    expect(waiting.status).toBe('generating');
    expect(waiting.generationMessages).toEqual(['Waiting: 0 ahead']);
    expect(run([server('generation_started', { message: 'Opening' })], waiting).generationMessages).toEqual([
      'Opening',
    ]);
  });

  it('fails on a server error and returns to idle when the request never left', () => {
    const requested = run([{ type: 'generate_requested', url: 'http://x/', mode: 'full' }]);
    expect(run([server('error', { message: 'Target not allowed' })], requested)).toMatchObject({
      status: 'failed',
      lastError: 'Target not allowed',
    });
    expect(run([{ type: 'generate_aborted' }], requested).status).toBe('idle');
  });
});

describe('automation state: a run', () => {
  const running = run(
    [
      { type: 'run_requested', run: { kind: 'all' } },
      server('execution_started', { total_tests: 2, test_run_id: 'run1' }),
      server('test_progress', { current_test: 1, total_tests: 2, test_name: 'Home page loads' }),
      stepUpdate('Home page loads', 0, 'pending'),
      server('test_progress', { current_test: 2, total_tests: 2, test_name: 'About page links work' }),
      stepUpdate('About page links work', 0, 'pending'),
      stepUpdate('Home page loads', 0, 'success', true),
      stepUpdate('About page links work', 0, 'error', true),
    ],
    generated,
  );

  it('shows a run waiting for a free browser its place in line, until its tests act', () => {
    const waiting = run(
      [
        { type: 'run_requested', run: { kind: 'all' } },
        server('execution_started', { total_tests: 2, test_run_id: 'run1' }),
        server('test_progress', { current_test: 1, total_tests: 2, test_name: 'Home page loads' }),
        server('progress_update', { message: 'Waiting for a free browser: 3 ahead' }),
        server('progress_update', { message: 'Waiting for a free browser: 1 ahead' }),
      ],
      generated,
    );
    expect(waiting.runNotice).toBe('Waiting for a free browser: 1 ahead');
    expect(run([stepUpdate('Home page loads', 0, 'pending')], waiting).runNotice).toBeNull();
  });

  it('shows a run waiting its turn its place as it moves up, until it starts', () => {
    const queued = run(
      [
        { type: 'run_requested', run: { kind: 'all' } },
        server('automation_queued', { kind: 'running', ahead: 2 }),
        server('automation_queued', { kind: 'running', ahead: 1 }),
      ],
      generated,
    );
    expect(queued.runNotice).toBe('Waiting: 1 ahead');
    expect(queued.pendingRun).toEqual({ kind: 'all' });
    const started = run([server('execution_started', { total_tests: 2, test_run_id: 'run2' })], queued);
    expect(started.runNotice).toBeNull();
    expect(started.status).toBe('running');
  });

  it('shows a run on a project signing in before it starts; a failed sign-in fails it with its message', () => {
    const signingIn = run(
      [
        { type: 'run_requested', run: { kind: 'all' } },
        server('progress_update', { message: 'Signing in to Desk/staging' }),
      ],
      generated,
    );
    expect(signingIn).toMatchObject({ status: 'idle', runNotice: 'Signing in to Desk/staging' });
    const started = run(
      [
        server('progress_update', { message: 'Signed in to Desk/staging' }),
        server('execution_started', { total_tests: 2, test_run_id: 'run1' }),
      ],
      signingIn,
    );
    expect(started).toMatchObject({ status: 'running', runNotice: null });
    const message = 'Sign-in failed for Desk/staging: still on the sign-in page';
    expect(run([server('error', { message, code: 'SIGN_IN_FAILED' })], signingIn)).toMatchObject({
      status: 'failed',
      runNotice: null,
      pendingRun: null,
      lastError: message,
    });
    // Nothing asked for: a stray progress message is not shown.
    expect(run([server('progress_update', { message: 'Signing in' })], generated).runNotice).toBeNull();
    expect(run([{ type: 'run_aborted' }], signingIn).runNotice).toBeNull();
  });

  it('runs with progress, one log line per step and a screenshot per finished step', () => {
    expect(running.status).toBe('running');
    expect(running.progress).toEqual({ current: 2, total: 2 });
    expect(running.currentTest).toBe('About page links work');
    expect(running.activeTests).toEqual(['Home page loads', 'About page links work']);
    expect(running.log.map((e) => e.status)).toEqual(['success', 'error']);
    expect(running.screenshots.map((s) => s.src)).toEqual([
      'data:image/jpeg;base64,IMG0',
      'data:image/jpeg;base64,IMG0',
    ]);
    expect(running.screenshots.map((s) => s.testName)).toEqual(['Home page loads', 'About page links work']);
  });

  it('records results, names a test still running, and completes', () => {
    const oneDone = run(
      [
        server('test_failed', {
          test_name: 'About page links work',
          error: 'Broken link: /careers.html answered 404',
          execution_time: 1.2,
        }),
      ],
      running,
    );
    expect(oneDone.currentTest).toBe('Home page loads');
    const done = run(
      [
        server('test_completed', {
          test_name: 'Home page loads',
          result: { status: 'passed', test_case: { test_name: 'Home page loads' }, execution_time: 0.8 },
        }),
        server('all_tests_completed', { total_tests: 2, passed: 1, execution_time: 2.1 }),
      ],
      oneDone,
    );
    expect(done.status).toBe('completed');
    expect(done.results).toEqual([
      {
        testName: 'About page links work',
        status: 'failed',
        executionTime: 1.2,
        error: 'Broken link: /careers.html answered 404',
      },
      { testName: 'Home page loads', status: 'passed', executionTime: 0.8, error: null },
    ]);
    expect(done.runTime).toBe(2.1);
    expect(done.outcome).toEqual({ passed: 1, total: 2 });
    expect(done.progress).toEqual({ current: 2, total: 2 });
    expect(done.activeTests).toEqual([]);
  });

  it("starts a retried test's steps over, and shows it flaky when it passes on the retry", () => {
    const retried = run(
      [
        server('test_progress', {
          current_test: 1,
          total_tests: 2,
          test_name: 'Home page loads',
          attempt: 2,
          max_attempts: 3,
        }),
      ],
      running,
    );
    // The failed attempt's steps and screenshots go; the other test's stay.
    expect(retried.log.map((entry) => entry.testName)).toEqual(['About page links work']);
    expect(retried.screenshots.map((shot) => shot.testName)).toEqual(['About page links work']);
    const done = run(
      [
        stepUpdate('Home page loads', 0, 'success', true),
        server('test_completed', {
          test_name: 'Home page loads',
          result: { status: 'passed', test_case: { test_name: 'Home page loads' }, execution_time: 2.4 },
          flaky: true,
          attempts: 2,
          max_attempts: 3,
        }),
        server('test_failed', {
          test_name: 'About page links work',
          error: 'Broken link',
          execution_time: 3,
          attempts: 3,
        }),
        server('all_tests_completed', { total_tests: 2, passed: 0, flaky: 1, execution_time: 6 }),
      ],
      retried,
    );
    expect(done.results).toEqual([
      {
        testName: 'Home page loads',
        status: 'flaky',
        executionTime: 2.4,
        error: null,
        attempts: 2,
        maxAttempts: 3,
      },
      {
        testName: 'About page links work',
        status: 'failed',
        executionTime: 3,
        error: 'Broken link',
        attempts: 3,
      },
    ]);
    expect(done.outcome).toEqual({ passed: 0, total: 2, flaky: 1 });
  });

  it('returns to idle when stopped, and to idle when the socket closes', () => {
    expect(
      run([server('execution_stopping'), server('execution_stopped', { execution_time: 1 })], running),
    ).toMatchObject({ status: 'idle', runTime: 1, currentTest: null });
    expect(run([{ type: 'socket_closed' }], running)).toMatchObject({ status: 'idle', activeTests: [] });
  });

  it('starts a full run clean, but a single test replaces only its own lines', () => {
    const finished = run(
      [
        server('test_completed', {
          test_name: 'Home page loads',
          result: { status: 'passed', test_case: { test_name: 'Home page loads' }, execution_time: 0.8 },
        }),
        server('test_failed', { test_name: 'About page links work', error: 'x', execution_time: 1 }),
        server('all_tests_completed', { total_tests: 2, passed: 1, execution_time: 2 }),
      ],
      running,
    );
    const single = run(
      [
        { type: 'run_requested', run: { kind: 'single', testName: 'About page links work' } },
        server('execution_started', { total_tests: 1 }),
      ],
      finished,
    );
    expect(single.status).toBe('running');
    expect(single.testRunId).toBe('run1');
    expect(single.log.map((e) => e.testName)).toEqual(['Home page loads']);
    expect(single.results.map((r) => r.testName)).toEqual(['Home page loads']);
    expect(single.screenshots.map((s) => s.testName)).toEqual(['Home page loads']);

    const full = run(
      [{ type: 'run_requested', run: { kind: 'all' } }, server('execution_started', { total_tests: 2 })],
      finished,
    );
    expect(full).toMatchObject({ log: [], results: [], screenshots: [], progress: { current: 0, total: 2 } });
    // The last run's outcome goes with it: a new run is not yet a success or a failure.
    expect(finished.outcome).toEqual({ passed: 1, total: 2 });
    expect(single.outcome).toBeNull();
    expect(full.outcome).toBeNull();
  });

  it('clears results and leaves a finished state', () => {
    const done = run(
      [server('all_tests_completed', { total_tests: 2, passed: 2, execution_time: 1 })],
      running,
    );
    const cleared = run([{ type: 'clear_results' }], done);
    expect(cleared).toMatchObject({
      status: 'idle',
      log: [],
      results: [],
      screenshots: [],
      runTime: null,
      outcome: null,
    });
    expect(cleared.testCases).toHaveLength(2);
  });
});

describe('automation state: the LLM engine (which engine, and what the model cost)', () => {
  const LLM = 'LLM (openai-compatible · qwen2.5-coder)';
  const RUN_ENGINE = `built-in (rule-based) for step-language lines; ${LLM} for free-form steps and expected results`;
  const usage = { model_calls: 5, input_tokens: 4200, output_tokens: 900, cost_usd: 0.0123 };
  const zero = { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 };

  const byModel = run([
    { type: 'generate_requested', url: 'http://127.0.0.1:4400/', mode: 'full' },
    server('test_cases_generated', {
      test_cases: cases,
      engine: LLM,
      test_run_id: 'run1',
      usage: { model_calls: 1, input_tokens: 3000, output_tokens: 800, cost_usd: 0 },
    }),
  ]);
  const freeFormStep = (status: string, extra: object = {}) =>
    server('step_update', {
      test_name: 'Home page loads',
      step_data: {
        step_number: 2,
        step_index: 1,
        action: 'free_form',
        description: 'Add a to-do called "Buy milk"',
        status,
        timestamp: '2026-01-01T00:00:00.000Z',
        engine: LLM,
        ...extra,
      },
    });
  const ran = run(
    [
      { type: 'run_requested', run: { kind: 'all' } },
      server('execution_started', { total_tests: 2, test_run_id: 'run1', engine: RUN_ENGINE }),
      freeFormStep('pending'),
      freeFormStep('pending', {
        description: 'The page is open',
        thoughts: { next_goal: 'Fill "New todo"' },
      }),
      freeFormStep('success', {
        description: 'Add a to-do called "Buy milk" — typed "Buy milk" and pressed Enter',
        resolved_by: 'model',
        usage: { model_calls: 3, input_tokens: 2000, output_tokens: 300, cost_usd: 0.01 },
      }),
    ],
    byModel,
  );

  it('keeps what writing the cases cost, and forgets it when the built-in engine writes the next ones', () => {
    expect(byModel.engine).toBe(LLM);
    expect(byModel.generationUsage).toEqual({
      model_calls: 1,
      input_tokens: 3000,
      output_tokens: 800,
      cost_usd: 0,
    });
    expect(generated.generationUsage).toBeNull();
    const again = run(
      [
        { type: 'generate_requested', url: 'http://127.0.0.1:4400/', mode: 'full' },
        server('test_cases_generated', { test_cases: cases, engine: 'builtin (rule-based, no LLM)' }),
      ],
      byModel,
    );
    expect(again.generationUsage).toBeNull();
  });

  it("keeps a command's clause coverage with its cases, and forgets it when the next cases come without", () => {
    const coverage = [
      { clause: 'adding a todo', tests: ['Adding an item'] },
      { clause: 'the weather', tests: [], reason: 'No test covers it: nothing matches it.' },
    ];
    const withCoverage = run(
      [
        { type: 'generate_requested', url: 'http://127.0.0.1:4400/', mode: 'command' },
        server('test_cases_generated', { test_cases: cases, command_coverage: coverage }),
      ],
      generated,
    );
    expect(withCoverage.commandCoverage).toEqual(coverage);
    const next = run(
      [
        { type: 'generate_requested', url: 'http://127.0.0.1:4400/', mode: 'full' },
        server('test_cases_generated', { test_cases: cases }),
      ],
      withCoverage,
    );
    expect(next.commandCoverage).toBeNull();
  });

  it("names the run's engine from execution_started, and its step's engine, resolution and usage", () => {
    expect(ran.runEngine).toBe(RUN_ENGINE);
    expect(ran.runUsage).toBeNull();
    expect(ran.log).toHaveLength(1);
    expect(ran.log[0]).toMatchObject({
      engine: LLM,
      resolvedBy: 'model',
      usage: { model_calls: 3 },
      line: 'Add a to-do called "Buy milk"',
      nextGoal: 'Fill "New todo"',
    });
  });

  it("keeps the run's usage from all_tests_completed; a rerun from the cache is all zero", () => {
    const done = run(
      [
        server('all_tests_completed', {
          total_tests: 2,
          passed: 2,
          execution_time: 3,
          engine: RUN_ENGINE,
          usage,
        }),
      ],
      ran,
    );
    expect(done).toMatchObject({ status: 'completed', runEngine: RUN_ENGINE, runUsage: usage });
    const rerun = run(
      [
        { type: 'run_requested', run: { kind: 'all' } },
        server('execution_started', { total_tests: 2, test_run_id: 'run1', engine: RUN_ENGINE }),
      ],
      done,
    );
    // A new run does not show the last one's cost.
    expect(rerun.runUsage).toBeNull();
    const cached = run(
      [
        freeFormStep('success', { resolved_by: 'cache', usage: zero }),
        server('all_tests_completed', {
          total_tests: 2,
          passed: 2,
          execution_time: 1,
          engine: RUN_ENGINE,
          usage: zero,
        }),
      ],
      rerun,
    );
    expect(cached.runUsage).toEqual(zero);
    expect(cached.log[0].resolvedBy).toBe('cache');
    expect(run([{ type: 'clear_results' }], cached)).toMatchObject({ runEngine: null, runUsage: null });
  });

  it('a stopped LLM run keeps what it spent before it stopped', () => {
    const spent = { model_calls: 2, input_tokens: 900, output_tokens: 40, cost_usd: 0.0021 };
    const started = run([
      { type: 'run_requested', run: { kind: 'all' } },
      server('execution_started', { total_tests: 1, test_run_id: 'run1', engine: RUN_ENGINE }),
    ]);
    const stopped = run(
      [server('execution_stopping'), server('execution_stopped', { execution_time: 3, usage: spent })],
      started,
    );
    expect(stopped).toMatchObject({ status: 'idle', runUsage: spent });
  });

  it('a built-in run names its engine and has no usage', () => {
    const builtIn = run(
      [
        { type: 'run_requested', run: { kind: 'all' } },
        server('execution_started', { total_tests: 2, engine: 'built-in (rule-based)' }),
        server('all_tests_completed', { total_tests: 2, passed: 2, execution_time: 1 }),
      ],
      generated,
    );
    expect(builtIn).toMatchObject({ runEngine: 'built-in (rule-based)', runUsage: null });
  });

  it('keeps what the generation explored with its cases, and restores it with the coverage', () => {
    const exploration = EXPLORATION;
    const withSummary = run(
      [
        { type: 'generate_requested', url: 'http://127.0.0.1:4400/', mode: 'full' },
        server('test_cases_generated', { test_cases: cases, exploration }),
      ],
      generated,
    );
    expect(withSummary.exploration).toEqual(exploration);
    const coverage = [{ clause: 'adding a todo', tests: ['Adding an item'] }];
    const restored = automationReducer(initialAutomationState, {
      type: 'restore',
      mode: 'command',
      targetUrl: 'http://127.0.0.1:4400/',
      testCases: generated.testCases,
      engine: null,
      generationUsage: null,
      commandCoverage: coverage,
      exploration,
      runEngine: null,
      runUsage: null,
      testRunId: 'run1',
      results: [],
    });
    expect(restored).toMatchObject({ commandCoverage: coverage, exploration });
  });

  it('restores the generation usage, run engine and run usage kept with the session', () => {
    const restored = automationReducer(initialAutomationState, {
      type: 'restore',
      mode: 'full',
      targetUrl: 'http://127.0.0.1:4400/',
      testCases: generated.testCases,
      engine: LLM,
      generationUsage: usage,
      runEngine: RUN_ENGINE,
      runUsage: zero,
      testRunId: 'run1',
      results: [],
    });
    expect(restored).toMatchObject({ generationUsage: usage, runEngine: RUN_ENGINE, runUsage: zero });
  });
});

describe('createAutomationStore', () => {
  it('notifies on change only and always answers the latest state', () => {
    const store = createAutomationStore();
    let calls = 0;
    store.subscribe(() => {
      calls += 1;
    });
    store.dispatch({ type: 'generate_requested', url: 'http://x/', mode: 'full' });
    expect(store.getState().status).toBe('generating');
    store.dispatch({ type: 'generate_requested', url: 'http://x/', mode: 'full' });
    store.dispatch(server('video_frame', { frame: 'x', timestamp: 1 }, 'live-1'));
    expect(calls).toBe(1);
  });
});

describe('createAutomationStore batching', () => {
  it("tells listeners of a burst of server messages once, but of the user's own actions at once", () => {
    const timers: (() => void)[] = [];
    const store = createAutomationStore(initialAutomationState, {
      serverBatchMs: 80,
      setTimer: (callback) => timers.push(callback),
      clearTimer: () => {},
    });
    let calls = 0;
    store.subscribe(() => {
      calls += 1;
    });
    store.dispatch(server('execution_started', { total_tests: 2 }));
    store.dispatch(server('test_progress', { current_test: 1, total_tests: 2, test_name: 'A' }));
    expect(calls).toBe(0);
    expect(store.getState().currentTest).toBe('A');
    expect(timers).toHaveLength(1);
    timers[0]();
    expect(calls).toBe(1);
    store.dispatch({ type: 'clear_results' });
    expect(calls).toBe(2);
  });
});

describe('restore', () => {
  const restore: AutomationAction = {
    type: 'restore',
    mode: 'command',
    targetUrl: 'http://shop.test/',
    testCases: generated.testCases,
    engine: 'builtin',
    generationUsage: null,
    runEngine: null,
    runUsage: null,
    testRunId: 'run9',
    results: [{ testName: 'Home page loads', status: 'passed', executionTime: 1, error: null }],
  };
  it('shows the stored cases and results on an empty, idle screen only', () => {
    expect(run([restore])).toMatchObject({
      status: 'idle',
      generationMode: 'command',
      targetUrl: 'http://shop.test/',
      engine: 'builtin',
      testRunId: 'run9',
      results: [{ testName: 'Home page loads' }],
    });
    expect(run([restore], generated)).toBe(generated);
    const busy = run([{ type: 'generate_requested', url: 'http://x/', mode: 'full' }]);
    expect(run([restore], busy)).toBe(busy);
  });
});

describe('automation state: following work already under way on the server', () => {
  const runningNow = (testRunId: string) =>
    server('automation_in_progress', {
      kind: 'running',
      url: 'http://127.0.0.1:4400/',
      test_mode: 'full',
      command: null,
      session_id: 's1',
      test_run_id: testRunId,
      test_cases: cases,
      total_tests: 2,
      results: [{ test_name: 'Home page loads', status: 'failed', execution_time: 1.5, error: 'boom' }],
      active_tests: ['About page links work'],
      elapsed: 4.2,
      steps: [
        {
          test_name: 'Home page loads',
          step_data: {
            step_number: 1,
            step_index: 0,
            action: 'navigate',
            description: 'Navigate to "/"',
            status: 'success',
            timestamp: '2026-01-01T00:00:00.000Z',
            screenshot: { width: 1280, height: 800 },
          },
          screenshot_url: '/api/screenshots/shot1/image',
        },
        {
          test_name: 'About page links work',
          step_data: {
            step_number: 1,
            step_index: 0,
            action: 'navigate',
            status: 'pending',
            timestamp: '2026-01-01T00:00:01.000Z',
          },
          screenshot_url: null,
        },
      ],
    });

  it('a fresh screen joins a run: running, with its cases, finished results and active test', () => {
    const joined = run([runningNow('run9')]);
    expect(joined.status).toBe('running');
    expect(joined.testRunId).toBe('run9');
    expect(joined.testCases).toHaveLength(2);
    expect(joined.results).toEqual([
      { testName: 'Home page loads', status: 'failed', executionTime: 1.5, error: 'boom' },
    ]);
    expect(joined.currentTest).toBe('About page links work');
    expect(joined.progress).toEqual({ current: 2, total: 2 });
    // The steps so far are replayed, with the stored screenshot as the image source.
    expect(joined.log.map((e) => [e.testName, e.status])).toEqual([
      ['Home page loads', 'success'],
      ['About page links work', 'pending'],
    ]);
    expect(joined.screenshots).toHaveLength(1);
    expect(joined.screenshots[0]).toMatchObject({
      testName: 'Home page loads',
      src: '/api/screenshots/shot1/image',
      stored: { id: 'shot1', runId: 'run9' },
      width: 1280,
      height: 800,
      fileName: 'home-page-loads-step-1.jpg',
    });
    // Fresh links from the run's screenshot list replace the held one; others change nothing.
    const fresh = '/api/screenshots/shot1/image?owner=u&expires=1900000000&sig=abc';
    const renewed = automationReducer(joined, {
      type: 'screenshot_links',
      refs: [{ id: 'shot1', url: fresh }],
    });
    expect(renewed.screenshots[0].src).toBe(fresh);
    expect(
      automationReducer(renewed, { type: 'screenshot_links', refs: [{ id: 'other', url: fresh }] }),
    ).toBe(renewed);
    // The screen follows the session of the run it joined.
    expect(joined.sessionId).toBe('s1');
    const finished = run(
      [
        server(
          'test_completed',
          {
            test_name: 'About page links work',
            result: {
              status: 'passed',
              test_case: { test_name: 'About page links work' },
              execution_time: 2,
            },
          },
          's1',
        ),
        server('all_tests_completed', { total_tests: 2, passed: 1, execution_time: 6 }, 's1'),
      ],
      joined,
    );
    expect(finished.status).toBe('completed');
    expect(finished.results.map((r) => r.status)).toEqual(['failed', 'passed']);
  });

  it('after a dropped socket the same run keeps the images it has; another run takes the stored ones', () => {
    const during = run([stepUpdate('Home page loads', 0, 'success', true)]);
    const withRun = { ...during, testRunId: 'run9' };
    expect(withRun.screenshots[0].src).toBe('data:image/jpeg;base64,IMG0');
    const dropped = automationReducer(withRun, { type: 'socket_closed' });
    expect(dropped.status).toBe('idle');
    const again = automationReducer(dropped, runningNow('run9'));
    expect(again.status).toBe('running');
    expect(again.log).toHaveLength(2);
    expect(again.screenshots.map((s) => s.src)).toEqual(['data:image/jpeg;base64,IMG0']);
    const other = automationReducer(dropped, runningNow('run10'));
    expect(other.screenshots.map((s) => s.src)).toEqual(['/api/screenshots/shot1/image']);
  });

  it("results restored from an earlier run with the same id give way to the server's", () => {
    const restored = automationReducer(initialAutomationState, {
      type: 'restore',
      mode: 'full',
      targetUrl: 'http://127.0.0.1:4400/',
      testCases: generated.testCases,
      engine: null,
      generationUsage: null,
      runEngine: null,
      runUsage: null,
      testRunId: 'run9',
      results: [
        { testName: 'Home page loads', status: 'passed', executionTime: 1, error: null },
        { testName: 'About page links work', status: 'passed', executionTime: 1, error: null },
      ],
    });
    const joined = automationReducer(restored, runningNow('run9'));
    expect(joined.results).toEqual([
      { testName: 'Home page loads', status: 'failed', executionTime: 1.5, error: 'boom' },
    ]);
  });

  it('joins a generation with its mode, page and latest messages', () => {
    const joined = run([
      server('automation_in_progress', {
        kind: 'generating',
        url: 'http://127.0.0.1:4400/',
        test_mode: 'command',
        command: 'test the login form',
        session_id: null,
        messages: ['Exploring http://127.0.0.1:4400/', 'Opened /login.html'],
      }),
    ]);
    expect(joined.status).toBe('generating');
    expect(joined.generationMode).toBe('command');
    expect(joined.generationMessages).toEqual(['Exploring http://127.0.0.1:4400/', 'Opened /login.html']);
    const done = automationReducer(
      joined,
      server('test_cases_generated', { test_cases: cases, test_run_id: 'run3' }),
    );
    expect(done.status).toBe('idle');
    expect(done.testCases).toHaveLength(2);
  });
});

describe('automation state: custom cases', () => {
  const custom = {
    id: 'custom-1',
    test_name: 'My check',
    description: '',
    steps: ['Reload'],
    category: 'Custom',
    priority: 'medium',
    expected_result: 'Every step succeeds',
  };

  it('adds a custom case after the generated ones and removes it with its result', () => {
    const added = automationReducer(generated, {
      type: 'add_custom_case',
      testCase: custom,
      targetUrl: 'http://elsewhere.test/',
    });
    expect(added.testCases.map((c) => c.test_name)).toEqual([
      'Home page loads',
      'About page links work',
      'My check',
    ]);
    // The page the cases were generated for stays the run's page.
    expect(added.targetUrl).toBe('http://127.0.0.1:4400/');
    const withResult = {
      ...added,
      results: [{ testName: 'My check', status: 'passed' as const, executionTime: 1, error: null }],
    };
    const removed = automationReducer(withResult, { type: 'remove_case', testName: 'My check' });
    expect(removed.testCases).toHaveLength(2);
    expect(removed.results).toEqual([]);
  });

  it('a custom case on an empty screen sets the page, and nothing changes while a run is going', () => {
    const first = automationReducer(initialAutomationState, {
      type: 'add_custom_case',
      testCase: custom,
      targetUrl: 'http://127.0.0.1:4400/',
    });
    expect(first.targetUrl).toBe('http://127.0.0.1:4400/');
    // Every case removed, the next one belongs to the page typed now (another environment's).
    const emptied = automationReducer(generated, { type: 'remove_case', testName: 'Home page loads' });
    const none = automationReducer(emptied, { type: 'remove_case', testName: 'About page links work' });
    expect(
      automationReducer(none, { type: 'add_custom_case', testCase: custom, targetUrl: 'http://desk.test/' })
        .targetUrl,
    ).toBe('http://desk.test/');
    const running = { ...first, status: 'running' as const };
    expect(automationReducer(running, { type: 'remove_case', testName: 'My check' })).toBe(running);
  });
});

describe('automation state on a socket shared by every screen and session', () => {
  const mine = run([
    { type: 'session', sessionId: 's1' },
    { type: 'generate_requested', url: 'http://127.0.0.1:4400/', mode: 'full' },
    server('generation_started', { message: 'Opening the site' }, 's1'),
    server('test_cases_generated', { test_cases: cases, test_run_id: 'run1' }, 's1'),
    server('execution_started', { total_tests: 2, test_run_id: 'run1' }, 's1'),
    server('test_progress', { current_test: 1, total_tests: 2, test_name: 'Home page loads' }, 's1'),
  ]);

  it('follows its own session', () => {
    expect(mine).toMatchObject({ sessionId: 's1', status: 'running', currentTest: 'Home page loads' });
  });

  it.each([
    ['the conversational screen', 'conversational', 's2'],
    ['the design screen', 'design', 's3'],
    ['the conversational screen, in the same session id', 'conversational', 's1'],
    ['the connection (an unreadable frame)', 'connection', null],
    ['another automation session', 'automation', 's9'],
    ['automation work that named no session', 'automation', null],
  ])('ignores an error of %s', (_label, feature, session) => {
    const message = server('error', { message: 'Browser crashed', code: 'INTERNAL', feature }, session);
    expect(automationReducer(mine, message)).toBe(mine);
    if (message.type === 'server') expect(concernsAutomation(mine, message.message)).toBe(false);
  });

  it("fails on its own session's error, and only then", () => {
    expect(
      run([server('error', { message: 'Browser crashed', code: 'INTERNAL' }, 's1')], mine),
    ).toMatchObject({
      status: 'failed',
      lastError: 'Browser crashed',
    });
  });

  it("ignores another session's automation messages and every other feature's", () => {
    const others = [
      stepUpdateAbout('s9', 'Other test'),
      server('test_progress', { current_test: 2, total_tests: 5, test_name: 'Other test' }, 's9'),
      server('all_tests_completed', { total_tests: 5, passed: 5, execution_time: 3 }, 's9'),
      server('execution_stopped', { execution_time: 1 }, 's9'),
      server('execution_started', { total_tests: 7 }, null),
      server('video_frame', { frame: 'data:image/jpeg;base64,AAAA', timestamp: 1 }, 's2'),
      server('browser_status', { status: 'ready' }, 's2'),
      server('vision_comparison_progress', { message: 'Capturing', progress_percentage: 10 }, 's3'),
      server('connection_established', {
        user_id: 'u1',
        server_time: '2026-01-01T00:00:00Z',
        protocol_version: 2,
      }),
    ];
    expect(run(others, mine)).toBe(mine);
    // Its own session's messages still count.
    expect(run([stepUpdateAbout('s1', 'Home page loads')], mine).log).toHaveLength(1);
  });

  it('an idle screen is not started by work of a session it does not follow', () => {
    const idle = run([{ type: 'session', sessionId: 's1' }]);
    expect(run([server('execution_started', { total_tests: 3, test_run_id: 'r' }, 's2')], idle)).toBe(idle);
    expect(run([server('generation_started', { message: 'x' }, 's2')], idle)).toBe(idle);
  });

  it('joins the work the server says is under way, whatever its session, and follows that session', () => {
    const joined = run(
      [
        server(
          'automation_in_progress',
          {
            kind: 'generating',
            url: 'http://127.0.0.1:4400/',
            test_mode: 'full',
            command: null,
            session_id: 's7',
            messages: ['Exploring'],
          },
          's7',
        ),
      ],
      run([{ type: 'session', sessionId: 's1' }]),
    );
    expect(joined).toMatchObject({ sessionId: 's7', status: 'generating' });
    expect(run([server('error', { message: 'x', code: 'INTERNAL' }, 's1')], joined)).toBe(joined);
    expect(run([server('error', { message: 'x', code: 'GENERATION_FAILED' }, 's7')], joined).status).toBe(
      'failed',
    );
  });
});

function stepUpdateAbout(session: string, test: string): AutomationAction {
  return server(
    'step_update',
    {
      test_name: test,
      step_data: { step_number: 1, step_index: 0, action: 'navigate', status: 'pending', timestamp: 't' },
    },
    session,
  );
}
