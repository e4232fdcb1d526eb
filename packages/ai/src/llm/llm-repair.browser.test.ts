/**
 * A failed case repaired end to end with the LLM engine (docs/REPAIRS.md): the case fails on the to-do
 * fixture app in real Chromium, the engine's `proposeRepair` asks `LlmRepairProposer` (a scripted
 * model behind the OpenAI-compatible wire format), proves the answer by running the repaired case in a
 * fresh browser, and compares its checks with the case's. A model's repair that passes is a `repair`
 * in the model's name; one that weakens a check is `weakens`, never a plain repair; one that names an
 * element not on the page is refused and the built-in rules take over.
 */
import {
  BrowserPool,
  proposeRepair,
  type RepairCaseRunner,
  type RepairOutcome,
  runTestCase,
  TargetPolicy,
} from '@argus/engine';
import type { TestCase } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, serveFixtureApp } from '../../../../fixtures/apps/serve';
import { type ScriptedModelServer, startScriptedModelServer } from '../testing';
import { ModelClient } from './model-client';
import { LlmRepairProposer } from './repair-proposer';

let pool: BrowserPool;
let app: FixtureApp;
let server: ScriptedModelServer;
let proposer: LlmRepairProposer;

beforeAll(async () => {
  pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 1 });
  app = await serveFixtureApp('todo');
  server = await startScriptedModelServer(() => ({ status: 500 }));
  const client = new ModelClient({
    config: {
      provider: 'openai-compatible',
      model: 'qwen2.5-coder',
      baseUrl: server.baseUrl,
      apiKey: 'sk-test-0000',
      vision: false,
    },
  });
  proposer = new LlmRepairProposer({ client });
});
afterAll(async () => {
  await server?.close();
  await app?.close();
  await pool?.close();
});

const run: RepairCaseRunner = (testCase, options) =>
  runTestCase(pool, testCase, {
    ...options,
    baseUrl: `${app.url}/`,
    screenshots: options.screenshots ?? false,
    // A step of this small app answers at once; a missing element need not be waited for long (1.5 s,
    // as propose-repair.browser.test.ts waits).
    stepTimeoutMs: 1_500,
  });

const testCase = (steps: string[]): TestCase => ({
  test_name: 'Adds a task',
  description: '',
  category: 'General',
  priority: 'high',
  expected_result: '',
  steps,
});

/** Runs the case as a run would, then asks for its repair with the model's `answer`. */
async function repairOf(
  steps: string[],
  answer: { lines: string[]; reason: string },
): Promise<RepairOutcome> {
  const failed = await run(testCase(steps), {});
  expect(failed.status).toBe('failed');
  expect(failed.failure).toBeDefined();
  server.respondWith(() => ({ json: answer }));
  return proposeRepair(
    {
      testCase: testCase(steps),
      failure: failed.failure as NonNullable<typeof failed.failure>,
      error: failed.error ?? '',
      lastPassing: null,
      rejected: [],
    },
    { run, proposer, maxProofs: 2 },
  );
}

describe('proposeRepair with the LLM engine', () => {
  it("a model's repair that passes its proof is a repair in the model's name", async () => {
    const steps = [
      'Navigate to /',
      'Fill "Task description" with "Buy milk"',
      'Press Enter in "New todo"',
      'Verify text "Buy milk" is visible',
    ];
    const before = server.requests.length;
    const outcome = await repairOf(steps, {
      lines: ['Fill "New todo" with "Buy milk"'],
      reason: 'The task field is now labelled "New todo"',
    });
    expect(server.requests.length - before).toBe(1);
    expect(outcome).toMatchObject({
      verdict: 'repair',
      stepIndex: 1,
      after: [steps[0], 'Fill "New todo" with "Buy milk"', ...steps.slice(2)],
      weakenings: [],
    });
    expect(outcome.evidence.engine).toBe(proposer.engine);
    expect(outcome.evidence.proof?.status).toBe('passed');
  });

  it('a model answer that weakens a check is flagged weakens, never a plain repair', async () => {
    const steps = [
      'Navigate to /',
      'Fill "New todo" with "Buy milk"',
      'Press Enter in "New todo"',
      'Verify text "todos for today" is visible',
    ];
    const outcome = await repairOf(steps, {
      lines: ['Verify text "todos" is visible'],
      reason: 'The heading reads "todos"',
    });
    expect(outcome.verdict).toBe('weakens');
    if (outcome.verdict === 'bug') return;
    expect(outcome.after[3]).toBe('Verify text "todos" is visible');
    expect(outcome.weakenings).toEqual([
      expect.objectContaining({
        kind: 'text_widened',
        before: 'Verify text "todos for today" is visible',
        after: 'Verify text "todos" is visible',
      }),
    ]);
  });

  it('a model answer naming an element not on the page is refused; the built-in rules take over', async () => {
    const steps = [
      'Navigate to /',
      'Fill "Task description" with "Buy milk"',
      'Press Enter in "New todo"',
      'Verify text "Buy milk" is visible',
    ];
    const outcome = await repairOf(steps, {
      lines: ['Fill "Task name" with "Buy milk"'],
      reason: 'The field is called "Task name"',
    });
    expect(outcome.evidence.signals.join('\n')).toMatch(
      /model refused: The model named .*"Task name", which is not on the page/,
    );
    expect(outcome.evidence.engine).not.toBe(proposer.engine);
    if (outcome.verdict !== 'bug') expect(outcome.after).not.toContain('Fill "Task name" with "Buy milk"');
  });
});
