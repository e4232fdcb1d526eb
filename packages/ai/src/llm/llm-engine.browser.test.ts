/**
 * The LLM engine's whole loop in real Chromium against the to-do fixture app, with a scripted model
 * (rules over the prompts it is sent) behind the OpenAI-compatible and the Anthropic wire formats:
 * generation, a free-form step carried out by the agent loop, a judged expected result, a rerun that
 * makes zero model calls, self-healing when a cached action breaks, and each failure ending in a
 * clear message and a recorded result.
 */
import {
  BrowserPool,
  runTestCase,
  type StepInterpreter,
  TargetPolicy,
  type TestOutcome,
} from '@argus/engine';
import type { ModelProvider, StepUpdate, TestCase } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TODO_LLM_SUITE } from '../../../../fixtures/apps/llm-suites';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { generateSuite } from '../generate-suite';
import { ruleAgent, ruleModel, type ScriptedModelServer, startScriptedModelServer } from '../testing';
import { createLlmEngine } from './llm-engine';
import type { ModelConfig } from './model-config';
import { MemoryStepCache } from './step-cache';

let pool: BrowserPool;
let app: FixtureApp;
let server: ScriptedModelServer;

beforeAll(async () => {
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
  app = await serveFixtureApp('todo');
  server = await startScriptedModelServer(ruleModel());
});
afterAll(async () => {
  await server?.close();
  await app?.close();
  await pool?.close();
});

const SUITE = TODO_LLM_SUITE;

const config = (provider: ModelProvider): ModelConfig => ({
  provider,
  model: provider === 'anthropic' ? 'claude-sonnet-4-5' : 'qwen2.5-coder',
  baseUrl: server.baseUrl,
  apiKey: 'sk-test-0000',
  vision: false,
});

async function run(
  cases: TestCase[],
  interpreter: StepInterpreter,
): Promise<{ outcomes: TestOutcome[]; updates: StepUpdate[] }> {
  const updates: StepUpdate[] = [];
  const outcomes: TestOutcome[] = [];
  for (const testCase of cases)
    outcomes.push(
      await runTestCase(pool, testCase, {
        baseUrl: `${app.url}/`,
        interpreter,
        screenshots: false,
        onStep: (update) => void updates.push(update),
      }),
    );
  return { outcomes, updates };
}

const finalSteps = (outcomes: TestOutcome[]) => outcomes.flatMap((o) => o.steps);

describe.each(['openai-compatible', 'anthropic'] as const)('through the %s wire format', (provider) => {
  const cache = new MemoryStepCache();
  let cases: TestCase[] = [];

  it('generates a suite from the observed app with one model call, keeping free-form lines', async () => {
    server.respondWith(ruleModel(SUITE));
    const engine = createLlmEngine({ config: config(provider), cache });
    const before = server.requests.length;
    const suite = await generateSuite(pool, `${app.url}/`, {
      planner: engine.planner,
      maxPages: 2,
      behaviour: { maxActions: 6, timeBudgetMs: 8000 },
    });
    cases = suite.cases;
    expect(suite.engine).toBe(`LLM (${provider} · ${config(provider).model})`);
    expect(cases.map((c) => c.test_name)).toEqual(SUITE.test_cases.map((c) => c.test_name));
    expect(cases[1].steps[0]).toBe('Add a to-do called "Buy milk" using the new to-do field');
    const generation = server.requests.slice(before);
    expect(generation).toHaveLength(1);
    expect(generation[0].wire).toBe(provider === 'anthropic' ? 'anthropic' : 'openai');
    expect(generation[0].prompt).toContain('Pages explored');
    expect(generation[0].prompt).toContain('textbox "New todo"');
    expect(engine.client.totals.calls).toBe(1);
  });

  it('runs the suite: the free-form step through the agent loop, expected results judged', async () => {
    server.respondWith(ruleModel(SUITE));
    const engine = createLlmEngine({ config: config(provider), cache });
    const before = server.requests.length;
    const { outcomes, updates } = await run(cases, engine.interpreter);
    expect(outcomes.map((o) => o.error)).toEqual([null, null]);
    const steps = finalSteps(outcomes);
    const freeForm = steps.find((s) => s.action === 'free_form');
    expect(freeForm).toMatchObject({
      status: 'success',
      resolved_by: 'model',
      engine: engine.interpreter.engine,
    });
    expect(freeForm?.usage?.model_calls).toBe(3);
    expect(freeForm?.description).toContain('Carried out');
    const judged = steps.filter((s) => s.action === 'judge_expected_result');
    expect(judged.map((s) => s.status)).toEqual(['success', 'success']);
    expect(judged[1].description).toContain('The page shows "Buy milk"');
    // Step-language lines never call the model.
    expect(steps.filter((s) => s.action === 'fill').every((s) => s.engine === 'built-in (rule-based)')).toBe(
      true,
    );
    // Each model turn told the screen what it was about to do.
    expect(
      updates.some(
        (u) => u.status === 'pending' && u.thoughts?.next_goal === 'Type "Buy milk" into New todo',
      ),
    ).toBe(true);
    // fill, press, done for the free-form step; one judgement per case.
    expect(server.requests.length - before).toBe(5);
    expect(outcomes.reduce((n, o) => n + o.usage.model_calls, 0)).toBe(5);
  });

  it('reruns the unchanged suite without a single model call', async () => {
    const engine = createLlmEngine({ config: config(provider), cache });
    const before = server.requests.length;
    const { outcomes } = await run(cases, engine.interpreter);
    expect(outcomes.map((o) => o.status)).toEqual(['passed', 'passed']);
    expect(server.requests.length).toBe(before);
    const resolved = finalSteps(outcomes).filter((s) => s.resolved_by);
    expect(resolved.map((s) => s.resolved_by)).toEqual(['cache', 'cache', 'cache']);
    expect(resolved[1].description).toContain('replayed from the cache without a model call');
  });

  it('heals a cached step whose locator broke, saves the new actions, and replays them next time', async () => {
    const [key, entry] = [...cache.entries].find(([, e]) => e.stepText.startsWith('Add a to-do')) ?? [];
    expect(entry?.actions).toEqual(['Fill "New todo" with "Buy milk"', 'Press Enter in "New todo"']);
    cache.entries.set(key as string, {
      ...(entry as NonNullable<typeof entry>),
      actions: ['Fill "Old field" with "Buy milk"'],
    });
    // A broken locator is given up on after 2 s here (10 s by default) before the model is asked.
    const engine = createLlmEngine({ config: config(provider), cache, actionTimeoutMs: 2000 });
    let before = server.requests.length;
    const healed = await run([cases[1]], engine.interpreter);
    expect(healed.outcomes[0].error).toBeNull();
    const step = healed.outcomes[0].steps.find((s) => s.action === 'free_form');
    expect(step?.resolved_by).toBe('healed');
    expect(step?.description).toContain('self-healed');
    expect(server.requests.length - before).toBe(3);
    expect(cache.entries.get(key as string)?.actions).toEqual([
      'Fill "New todo" with "Buy milk"',
      'Press Enter in "New todo"',
    ]);
    before = server.requests.length;
    await run([cases[1]], engine.interpreter);
    expect(server.requests.length).toBe(before);
  });
});

describe('when the model or the app does not cooperate', () => {
  const freeForm = (steps: string[], expected = ''): TestCase => ({
    test_name: 'Free-form',
    description: '',
    steps,
    category: 'Functional',
    priority: 'medium',
    expected_result: expected,
  });
  const engine = () => createLlmEngine({ config: config('openai-compatible'), maxTurns: 6 });

  it('fails a case whose expected result the page does not show, citing the evidence', async () => {
    server.respondWith(ruleModel());
    const { outcomes } = await run(
      [freeForm(['Verify text "todos" is visible'], 'The list shows "Walk the dog"')],
      engine().interpreter,
    );
    expect(outcomes[0].status).toBe('failed');
    expect(outcomes[0].error).toBe('Expected result not met: The page does not show "Walk the dog"');
  });

  it('stops a model that keeps naming elements the page does not have', async () => {
    server.respondWith(() => ({
      json: { thought: '', next_goal: 'Click', tool: 'click', element: 999, value: null },
    }));
    const { outcomes } = await run([freeForm(['Open the secret panel'])], engine().interpreter);
    expect(outcomes[0].error).toMatch(
      /^The model kept naming elements that are not on the page \(there is no element \[999\]/,
    );
    expect(outcomes[0].steps.at(-1)?.status).toBe('error');
  });

  it('stops a model that repeats itself without progress', async () => {
    server.respondWith((request) => {
      const reply = ruleAgent(request);
      // Never says done: keeps clicking the first element listed.
      return 'json' in reply
        ? { json: { thought: '', next_goal: 'Look', tool: 'click', element: 0, value: null } }
        : reply;
    });
    const { outcomes } = await run([freeForm(['Look at the heading closely'])], engine().interpreter);
    expect(outcomes[0].error).toMatch(
      /^The model repeated 'Click textbox "New todo"' three times without finishing the step/,
    );
  });

  it('records the model giving up as the step’s failure', async () => {
    server.respondWith(() => ({
      json: {
        thought: '',
        next_goal: '',
        tool: 'give_up',
        element: null,
        value: 'There is no checkout on this site',
      },
    }));
    const { outcomes } = await run([freeForm(['Pay for the order'])], engine().interpreter);
    expect(outcomes[0].error).toBe(
      'The model could not carry out the step: There is no checkout on this site',
    );
  });

  it('fails later free-form steps at once after a 401, without calling again', async () => {
    server.respondWith(() => ({ status: 401, message: 'Incorrect API key provided' }));
    const interpreter = engine().interpreter;
    const before = server.requests.length;
    const { outcomes } = await run([freeForm(['Do one thing']), freeForm(['Do another thing'])], interpreter);
    expect(outcomes.map((o) => o.error)).toEqual([
      expect.stringContaining('check your API key in Settings'),
      expect.stringContaining('check your API key in Settings'),
    ]);
    expect(server.requests.length - before).toBe(1);
  });

  it('stops a model call in flight when the run is stopped', async () => {
    server.respondWith(() => ({ hang: true }));
    const stop = new AbortController();
    const running = runTestCase(pool, freeForm(['Do something slow']), {
      baseUrl: `${app.url}/`,
      interpreter: engine().interpreter,
      screenshots: false,
      signal: stop.signal,
      onStep: (update) => {
        if (update.action === 'free_form' && update.status === 'pending') setTimeout(() => stop.abort(), 200);
      },
    });
    const outcome = await running;
    expect(outcome.error).toBe('Stopped by the user');
  });

  it('ends a free-form step that runs out of time with a clear message', async () => {
    server.respondWith(() => ({ hang: true }));
    const outcome = await runTestCase(pool, freeForm(['Do something slow']), {
      baseUrl: `${app.url}/`,
      interpreter: engine().interpreter,
      screenshots: false,
      freeFormTimeoutMs: 1500,
    });
    expect(outcome.error).toBe('The free-form step ran out of time while the model was answering (turn 1).');
  });

  it('without an interpreter, a free-form line fails before a browser opens, naming the grammar', async () => {
    const outcome = await runTestCase(pool, freeForm(['Add a to-do called "Buy milk"']), {
      baseUrl: `${app.url}/`,
    });
    expect(outcome.error).toMatch(/^Cannot understand the step "Add a to-do called/);
    expect(outcome.steps).toEqual([]);
  });
});
