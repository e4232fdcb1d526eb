/**
 * The LLM engine against a real model, only when one is configured in the environment (no key, no
 * call; CI runs without one):
 *   ARGUS_TEST_AI_PROVIDER=openai|anthropic|openai-compatible ARGUS_TEST_AI_MODEL=gpt-4o-mini
 *   ARGUS_TEST_AI_API_KEY=sk-… [ARGUS_TEST_AI_BASE_URL=http://localhost:11434/v1]
 *   npx vitest run --project browser packages/ai/src/llm/real-model.browser.test.ts
 */
import { BrowserPool, runTestCase, TargetPolicy } from '@argus/engine';
import { ModelProviderSchema, type TestCase } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { generateSuite } from '../generate-suite';
import { createLlmEngine } from './llm-engine';
import { MemoryStepCache } from './step-cache';
import { testConnection } from './test-connection';

const env = process.env;
const provider = ModelProviderSchema.safeParse(env.ARGUS_TEST_AI_PROVIDER);
const configured =
  provider.success &&
  Boolean(env.ARGUS_TEST_AI_MODEL) &&
  Boolean(env.ARGUS_TEST_AI_API_KEY || env.ARGUS_TEST_AI_BASE_URL);
if (!configured)
  console.log('[real model] ARGUS_TEST_AI_PROVIDER/MODEL/API_KEY unset: real-model tests skipped.');

describe.skipIf(!configured)('against a real model', () => {
  const config = {
    provider: provider.data ?? 'openai',
    model: env.ARGUS_TEST_AI_MODEL ?? '',
    apiKey: env.ARGUS_TEST_AI_API_KEY,
    baseUrl: env.ARGUS_TEST_AI_BASE_URL || undefined,
  };
  let pool: BrowserPool;
  let app: FixtureApp;
  beforeAll(async () => {
    pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
    app = await serveFixtureApp('todo');
  });
  afterAll(async () => {
    await app?.close();
    await pool?.close();
  });

  it('answers a connection test', async () => {
    const result = await testConnection(config);
    expect(result.ok, result.message).toBe(true);
  }, 60_000);

  it('writes a suite for the to-do app whose cases pass on it, then reruns it without a call', async () => {
    const cache = new MemoryStepCache();
    const engine = createLlmEngine({ config, cache });
    const suite = await generateSuite(pool, `${app.url}/`, {
      planner: engine.planner,
      command: 'adding and completing to-dos',
    });
    expect(suite.cases.length).toBeGreaterThan(0);
    const run = async () => {
      const outcomes = [];
      for (const testCase of suite.cases as TestCase[])
        outcomes.push(
          await runTestCase(pool, testCase, {
            baseUrl: `${app.url}/`,
            interpreter: engine.interpreter,
            screenshots: false,
          }),
        );
      return outcomes;
    };
    const first = await run();
    const passed = first.filter((o) => o.status === 'passed').length;
    console.log(
      `[real model] ${passed}/${first.length} generated cases passed; ${engine.client.totals.calls} calls, $${engine.client.totals.costUsd.toFixed(4)}`,
    );
    expect(passed).toBeGreaterThan(0);
    const calls = engine.client.totals.calls;
    await run();
    expect(engine.client.totals.calls).toBe(calls);
  }, 600_000);

  it('carries out a free-form step and judges its result', async () => {
    const engine = createLlmEngine({ config });
    const outcome = await runTestCase(
      pool,
      {
        test_name: 'Plain words',
        description: '',
        category: 'Functional',
        priority: 'high',
        steps: ['Add two to-dos, "Buy milk" and "Walk the dog", then mark "Buy milk" as completed'],
        expected_result: 'Only "Walk the dog" is left to do ("1 item left")',
      },
      { baseUrl: `${app.url}/`, interpreter: engine.interpreter, screenshots: false },
    );
    expect(outcome.error).toBeNull();
  }, 300_000);
});
