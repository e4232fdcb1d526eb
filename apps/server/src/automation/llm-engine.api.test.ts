/**
 * The LLM engine through the real server: a user's Settings name a model (the scripted OpenAI-
 * compatible server, rules over the prompts), a generation is written by it, a run carries out its
 * free-form step and judges expected results, usage is stored and shown, a rerun of the unchanged
 * suite makes zero model calls, and a used-up budget stops model calls with the user's message while
 * cached steps still replay.
 */
import { ruleModel, type ScriptedModelServer, startScriptedModelServer } from '@argus/ai/testing';
import type { StepUpdate } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TODO_LLM_SUITE } from '../../../../fixtures/apps/llm-suites';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { client } from '../testing/api-targets';
import { startInProcess } from '../testing/in-process-server';
import { SMALL_EXPLORATION } from '../testing/small-exploration';
import type { RunningServer } from '../testing/spawn-server';
import { type Message, openSocket, type TestSocket } from '../testing/ws-client';

const SUITE = TODO_LLM_SUITE;

describe('the LLM engine through the server', () => {
  let server: RunningServer;
  let model: ScriptedModelServer;
  let app: FixtureApp;
  let api: ReturnType<typeof client>;
  let alice: { token: string; user: { id: string } };
  let socket: TestSocket;
  let cases: unknown[] = [];
  let runId: string;

  beforeAll(async () => {
    model = await startScriptedModelServer(ruleModel(SUITE));
    app = await serveFixtureApp('todo');
    // The subject is which engine writes and runs the suite, not what the exploration finds: the small
    // generation budget (docs/TESTING.md). The scripted model answers the same suite either way.
    server = await startInProcess({
      ...SMALL_EXPLORATION,
      ALLOWED_TARGETS: '127.0.0.1',
      AUTOMATION_PARALLELISM: '1',
    });
    api = client(server);
    alice = await api.signUp('alice');
    const saved = await api.call('PUT', '/api/settings', {
      token: alice.token,
      json: {
        ai_provider: 'openai-compatible',
        ai_model: 'qwen2.5-coder',
        ai_base_url: model.baseUrl,
        ai_api_key: 'sk-local-9876',
      },
    });
    expect(saved.status).toBe(200);
    socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${alice.user.id}?token=${alice.token}`);
    await socket.next('connection_established');
  });
  afterAll(async () => {
    socket?.ws.close(1000);
    await server?.stop();
    await app?.close();
    await model?.close();
  });

  async function runSuite(): Promise<{ done: Message; steps: StepUpdate[] }> {
    const from = socket.all.length;
    socket.send('run_all_tests', {
      url: `${app.url}/`,
      test_cases: cases,
      test_mode: 'full',
      test_run_id: runId,
    });
    const started = await socket.next('execution_started');
    expect(started.data.engine).toBe(
      'built-in (rule-based) for step-language lines; LLM (openai-compatible · qwen2.5-coder) for free-form steps and expected results',
    );
    const done = await socket.next('all_tests_completed', 90_000);
    const steps = socket.all
      .slice(from)
      .filter((m) => m.type === 'step_update' && (m.data.step_data as StepUpdate).status !== 'pending')
      .map((m) => m.data.step_data as StepUpdate);
    return { done, steps };
  }

  it('generates the suite with the model the user chose, saying so', async () => {
    socket.send('generate_test_cases', { url: `${app.url}/` });
    const generated = await socket.next('test_cases_generated', 120_000);
    expect(generated.data.engine).toBe('LLM (openai-compatible · qwen2.5-coder)');
    cases = generated.data.test_cases as unknown[];
    runId = generated.data.test_run_id as string;
    expect(cases).toHaveLength(2);
    expect(model.requests).toHaveLength(1);
    expect(generated.data.usage).toMatchObject({
      model_calls: 1,
      input_tokens: 3000,
      output_tokens: 800,
      cost_usd: 0,
    });
    expect(model.requests[0].headers.authorization).toBe('Bearer sk-local-9876');
    expect(socket.all.find((m) => m.type === 'generation_started')?.data.message).toContain(
      'with the LLM (openai-compatible · qwen2.5-coder) engine',
    );
  });

  it('runs it: free-form step by the model, expected results judged, usage counted and stored', async () => {
    const before = model.requests.length;
    const { done, steps } = await runSuite();
    expect(done.data).toMatchObject({ total_tests: 2, passed: 2 });
    const calls = model.requests.length - before;
    expect(calls).toBe(5); // fill, press, done + one judgement per case
    expect(done.data.usage).toMatchObject({ model_calls: 5, cost_usd: 0 });
    expect(steps.find((s) => s.action === 'free_form')).toMatchObject({
      status: 'success',
      resolved_by: 'model',
      engine: 'LLM (openai-compatible · qwen2.5-coder)',
    });
    expect(steps.filter((s) => s.action === 'judge_expected_result').map((s) => s.status)).toEqual([
      'success',
      'success',
    ]);
    const run = await api.call('GET', `/api/automation/test-runs/${runId}`, { token: alice.token });
    expect(run.status).toBe(200);
    expect(run.data.usage).toMatchObject({ model_calls: 5, cost_usd: 0 });
    expect(run.data.usage.input_tokens).toBeGreaterThan(0);
    expect(
      run.data.execution_log.some((l: { message: string }) => l.message.startsWith('Steps run by: built-in')),
    ).toBe(true);
    const settings = await api.call('GET', '/api/settings', { token: alice.token });
    expect(settings.data.usage.model_calls).toBe(6); // the generation too
  });

  it('reruns the unchanged suite without a model call', async () => {
    const before = model.requests.length;
    const { done, steps } = await runSuite();
    expect(done.data).toMatchObject({ passed: 2, usage: { model_calls: 0 } });
    expect(model.requests.length).toBe(before);
    expect(steps.filter((s) => s.resolved_by).map((s) => s.resolved_by)).toEqual(['cache', 'cache', 'cache']);
  });

  it('a used-up budget stops model calls with a clear message; cached steps still replay', async () => {
    await api.call('PUT', '/api/settings', { token: alice.token, json: { monthly_budget_usd: 0 } });
    const before = model.requests.length;
    const extra = {
      test_name: 'Needs the model',
      description: '',
      category: 'Functional',
      priority: 'low',
      steps: ['Tick the first to-do as done'],
      expected_result: '',
    };
    cases = [...cases, extra];
    const { done, steps } = await runSuite();
    expect(done.data).toMatchObject({ total_tests: 3, passed: 2 });
    expect(model.requests.length).toBe(before);
    const failed = steps.find((s) => s.status === 'error');
    expect(failed?.error).toMatch(/^Your monthly model budget of \$0\.00 is reached/);
  });

  it("another user's run does not replay alice's cached steps", async () => {
    const bob = await api.signUp('bob');
    await api.call('PUT', '/api/settings', {
      token: bob.token,
      json: { ai_provider: 'openai-compatible', ai_model: 'qwen2.5-coder', ai_base_url: model.baseUrl },
    });
    const bobSocket = openSocket(`${server.url.replace('http', 'ws')}/ws/${bob.user.id}?token=${bob.token}`);
    await bobSocket.next('connection_established');
    const before = model.requests.length;
    bobSocket.send('run_single_test', {
      url: `${app.url}/`,
      test_case: SUITE.test_cases[1],
      test_mode: 'full',
    });
    const done = await bobSocket.next('all_tests_completed', 60_000);
    expect((done.data.usage as { model_calls: number }).model_calls).toBeGreaterThan(0);
    expect(model.requests.length).toBeGreaterThan(before);
    bobSocket.ws.close(1000);
  });
});
