/**
 * LLM engine benchmark (not a test): `npm run bench:llm`.
 *
 * The same suite, in the same run, against the to-do fixture app, with a scripted model behind the
 * OpenAI-compatible wire format (rules over the prompts, answering after MODEL_LATENCY_MS to stand in
 * for a real model's round trip; no network):
 * 1. first run: the free-form steps are resolved by the agent loop and the expected results judged,
 *    every resolution cached;
 * 2. cached rerun of the unchanged suite: replayed from the cache, zero model calls;
 * 3. the built-in engine running the very steps the cache holds (the concrete step-language lines and
 *    the judged checks), no interpreter: the baseline the rerun is compared with.
 * Reported: model calls and median wall time of each, and rerun / built-in (aim: at most 1.2×).
 */
import { cpus, loadavg } from 'node:os';
import { createLlmEngine, MemoryStepCache } from '@argus/ai';
import { ruleModel, startScriptedModelServer } from '@argus/ai/testing';
import { BrowserPool, runTestCase, type StepInterpreter, TargetPolicy } from '@argus/engine';
import { type TestCase, TestCaseSchema } from '@argus/protocol';
import { serveFixtureApp } from '../fixtures/apps/serve';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MODEL_LATENCY_MS = Number(process.env.MODEL_LATENCY_MS ?? 400);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const SUITE = {
  test_cases: [
    {
      test_name: 'Adding two to-dos counts them',
      description: '',
      category: 'Functional',
      priority: 'high',
      steps: [
        'Add a to-do called "Buy milk" using the new to-do field',
        'Add a to-do called "Walk the dog" using the new to-do field',
        'Verify text "2 items left" is visible',
      ],
      expected_result: 'The list shows "Buy milk" and "Walk the dog"',
    },
    {
      test_name: 'A to-do added in plain words appears',
      description: '',
      category: 'Functional',
      priority: 'high',
      steps: ['Fill "New todo" with "Write report"', 'Press Enter in "New todo"'],
      expected_result: 'The list shows "Write report"',
    },
  ],
};

const app = await serveFixtureApp('todo');
const model = await startScriptedModelServer(async (request, index) => {
  await new Promise((resolve) => setTimeout(resolve, MODEL_LATENCY_MS));
  return ruleModel(SUITE)(request, index);
});
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
const cases = SUITE.test_cases.map((c) => TestCaseSchema.parse({ ...c, url: `${app.url}/` }));
const config = {
  provider: 'openai-compatible' as const,
  model: 'rules',
  baseUrl: model.baseUrl,
  vision: false,
};

async function runSuite(suite: TestCase[], interpreter?: StepInterpreter) {
  const began = performance.now();
  for (const testCase of suite) {
    const outcome = await runTestCase(pool, testCase, {
      baseUrl: `${app.url}/`,
      interpreter,
      screenshots: true,
    });
    if (outcome.status !== 'passed') throw new Error(`${testCase.test_name} failed: ${outcome.error}`);
  }
  return performance.now() - began;
}

const first: number[] = [];
const rerun: number[] = [];
const builtin: number[] = [];
let firstCalls = 0;
let rerunCalls = 0;
try {
  for (let round = 0; round < ROUNDS; round++) {
    const cache = new MemoryStepCache();
    let before = model.requests.length;
    first.push(await runSuite(cases, createLlmEngine({ config, cache }).interpreter));
    firstCalls = model.requests.length - before;
    before = model.requests.length;
    rerun.push(await runSuite(cases, createLlmEngine({ config, cache }).interpreter));
    rerunCalls = model.requests.length - before;
    // The built-in engine on the same concrete steps: each free-form line replaced by its cached
    // actions, each expected result by its cached checks.
    const concrete = cases.map((c) => {
      const resolved = [...cache.entries.values()];
      const steps = c.steps.flatMap((line) => resolved.find((e) => e.stepText === line)?.actions ?? [line]);
      const checks = resolved.find((e) => e.stepText === c.expected_result)?.actions ?? [];
      return { ...c, steps: [...steps, ...checks], expected_result: '' };
    });
    builtin.push(await runSuite(concrete));
  }
} finally {
  await pool.close();
  await model.close();
  await app.close();
}

const f = median(first);
const r = median(rerun);
const b = median(builtin);
console.log(
  `LLM engine replay benchmark — ${ROUNDS} rounds, medians; ${cpus().length} CPUs, load ${loadavg()[0].toFixed(1)}`,
);
console.log(`scripted model latency: ${MODEL_LATENCY_MS} ms per call`);
console.log(`first run (model resolves and judges): ${f.toFixed(0)} ms, ${firstCalls} model calls`);
console.log(`cached rerun:                           ${r.toFixed(0)} ms, ${rerunCalls} model calls`);
console.log(`built-in engine, same concrete steps:   ${b.toFixed(0)} ms, 0 model calls`);
console.log(
  `rerun / built-in: ${(r / b).toFixed(2)}× (aim ≤ 1.2×); first run / rerun: ${(f / r).toFixed(1)}×`,
);
