import type { NewCaseRepair } from '@argus/db';
import type { RepairOutcome, RepairRequest, TestOutcome } from '@argus/engine';
import type { TestCase } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import type { CaseEnd } from '../automation/automation-messages';
import type { CaseContext } from '../automation/run-context';
import {
  type ProposeRepair,
  passingSteps,
  type RepairStore,
  repairFailedCase,
  stepOffset,
} from './repair-hook';

// The hook after a saved suite's failed case (docs/REPAIRS.md), over a store that keeps what it is
// given and a proposer that answers a set verdict: what the engine is asked, what is stored, what the
// run says, and when nothing is done at all.

const CASE: TestCase = {
  test_name: 'Add a task',
  description: '',
  steps: [
    'Fill "What needs to be done?" with "Buy milk"',
    'Press Enter',
    'Verify text "Buy milk" is visible',
  ],
  category: 'General',
  priority: 'medium',
  expected_result: '',
};
/** The last passing result's steps as the runner reported them: a Navigate put before the case's own. */
const PASSED_STEPS = [
  { step_index: 0, description: 'Navigate to http://app.test/', selector: null, url: 'http://app.test/' },
  {
    step_index: 1,
    description: CASE.steps[0],
    selector: 'textbox:name="What needs to be done?"',
    url: 'http://app.test/',
  },
  { step_index: 2, description: CASE.steps[1], selector: null, url: 'http://app.test/' },
  { step_index: 3, description: CASE.steps[2], selector: 'text="Buy milk"', url: 'http://app.test/' },
];
const FAILED: TestOutcome = {
  status: 'failed',
  error: 'No element matches "What needs to be done?"',
  executionTime: 1,
  steps: [],
  screenshots: [],
  logs: [],
  usage: { model_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
  failure: { kind: 'not_found', evidence: 'gone', fingerprint: '0123456789abcdef', step_index: 1 },
} as TestOutcome;
const EVIDENCE = {
  summary: 'Field "Task description" takes the text',
  signals: [],
  engine: 'built-in',
  proof: null,
};
const SHOT = { step_index: 1, step_name: 'Fill', data: Buffer.from('jpeg'), width: 1, height: 1 };

/** A run of a saved suite as far as the hook reads it, recording what it stores and says. */
function context(options: { suite?: boolean; aborted?: boolean; lastPassing?: boolean } = {}) {
  const added: NewCaseRepair[] = [];
  const said: string[] = [];
  const notes: string[] = [];
  const warnings: unknown[] = [];
  const saved: string[] = [];
  const controller = new AbortController();
  if (options.aborted) controller.abort();
  const store: RepairStore = {
    add: async (_owner, input) => {
      added.push(input);
      return input as never;
    },
    lastPassing: async () =>
      options.lastPassing === false
        ? undefined
        : { run_id: 'run-0', result_id: 'res-0', steps: PASSED_STEPS },
    rejected: async () => [{ page_state: 'p0', after: ['Click "Nope"'] }],
    resultOf: async () => 'res-1',
    stepScreenshot: async (_owner, runId, _name, index) => `${runId}#${index}`,
  };
  const ctx = {
    deps: {
      repairs: store,
      config: { stepTimeoutMs: 1000, testTimeoutMs: 5000 },
      log: { warn: (...args: unknown[]) => warnings.push(args) },
      recorder: {
        note: async (_owner: string, _run: string, line: string) => {
          notes.push(line);
        },
        saveScreenshot: async (_owner: string, _run: string, _name: string, shot: { step_name: string }) => {
          saved.push(shot.step_name);
          return { id: 'shot-proof' };
        },
      },
    },
    request: {
      ownerId: 'org-1',
      data: {
        url: 'http://app.test/',
        project_id: 'project-1',
        suite: options.suite === false ? null : { id: 'suite-1', version: 3, name: 'Smoke' },
      },
      target: null,
      storage: { used: 0, limit: 1e9, full: false },
    },
    activity: { signal: controller.signal },
    runId: 'run-1',
    engine: { repairProposer: undefined },
    runTest: async () => FAILED,
    progress: (line: string) => said.push(line),
  } as unknown as CaseContext;
  return { ctx, added, said, notes, warnings, saved, controller };
}

const end = (outcome: TestOutcome = FAILED): CaseEnd => ({
  testCase: CASE,
  outcome,
  screenshots: [],
  attempt: 1,
  maxAttempts: 1,
});

/** A proposer answering `verdict`, keeping the requests it was asked. */
function proposer(verdict: RepairOutcome | Error) {
  const asked: RepairRequest[] = [];
  const propose: ProposeRepair = async (request) => {
    asked.push(request);
    if (verdict instanceof Error) throw verdict;
    return verdict;
  };
  return { propose, asked };
}

describe('the repair hook', () => {
  it("maps the runner's step numbers to the case's own", () => {
    expect(stepOffset(CASE.steps, PASSED_STEPS)).toBe(1);
    expect(
      stepOffset(
        ['Navigate to /', 'Click "Add"'],
        [{ description: 'Navigate to /' }, { description: 'Click "Add"' }],
      ),
    ).toBe(0);
    expect(passingSteps(CASE.steps, PASSED_STEPS)).toEqual([
      { index: 0, selector: 'textbox:name="What needs to be done?"', url: 'http://app.test/' },
      { index: 1, selector: null, url: 'http://app.test/' },
      { index: 2, selector: 'text="Buy milk"', url: 'http://app.test/' },
    ]);
  });

  it('stores a proposed repair with its diff and both screenshots, and says it on the run', async () => {
    const after = [
      'Fill "Task description" with "Buy milk"',
      'Press Enter',
      'Verify text "Buy milk" is visible',
    ];
    const { propose, asked } = proposer({
      verdict: 'repair',
      after,
      stepIndex: 0,
      weakenings: [],
      evidence: EVIDENCE,
      page_state: 'p1',
      screenshot: SHOT,
    });
    const run = context();
    await repairFailedCase(run.ctx, 2, end(), propose);
    expect(asked[0]).toMatchObject({
      testCase: CASE,
      failure: FAILED.failure,
      error: FAILED.error,
      rejected: [{ page_state: 'p0', after: ['Click "Nope"'] }],
    });
    expect(asked[0].lastPassing?.steps[0]).toEqual({
      index: 0,
      selector: 'textbox:name="What needs to be done?"',
      url: 'http://app.test/',
    });
    expect(run.added).toHaveLength(1);
    expect(run.added[0]).toMatchObject({
      test_run_id: 'run-1',
      project_id: 'project-1',
      suite_id: 'suite-1',
      suite_version: 3,
      case_index: 2,
      result_id: 'res-1',
      verdict: 'repair',
      status: 'proposed',
      steps_before: CASE.steps,
      steps_after: after,
      page_state: 'p1',
      // The last passing run's screenshot of the step, numbered as its runner numbered it.
      before_screenshot_id: 'run-0#1',
      after_screenshot_id: 'shot-proof',
    });
    expect(run.added[0].diff).toEqual([
      { op: 'removed', line: CASE.steps[0], before: 0, after: null },
      { op: 'added', line: after[0], before: null, after: 0 },
      { op: 'same', line: CASE.steps[1], before: 1, after: 1 },
      { op: 'same', line: CASE.steps[2], before: 2, after: 2 },
    ]);
    expect(run.saved).toEqual(['Repair proof: Fill']);
    const line = `Repair proposed for "Add a task": ${EVIDENCE.summary}`;
    expect(run.said).toEqual([line]);
    expect(run.notes).toEqual([line]);
  });

  it('stores a bug with nothing to review, and says it looks like a bug', async () => {
    const { propose } = proposer({
      verdict: 'bug',
      stepIndex: 2,
      evidence: { ...EVIDENCE, summary: 'The list stayed empty' },
      page_state: null,
    });
    const run = context({ lastPassing: false });
    await repairFailedCase(run.ctx, 0, end(), propose);
    expect(run.added[0]).toMatchObject({
      verdict: 'bug',
      status: 'none',
      steps_after: [],
      diff: [],
      before_screenshot_id: null,
    });
    expect(run.said).toEqual(['Looks like a bug: "Add a task" — The list stayed empty']);
  });

  it("asks nothing for a case that passed, a run that is not a saved suite's, or a stopped run", async () => {
    for (const [options, outcome] of [
      [{}, { ...FAILED, status: 'passed', failure: undefined }],
      [{ suite: false }, FAILED],
      [{ aborted: true }, FAILED],
    ] as const) {
      const { propose, asked } = proposer(new Error('not to be asked'));
      const run = context(options);
      await repairFailedCase(run.ctx, 0, end(outcome as TestOutcome), propose);
      expect(asked).toEqual([]);
      expect(run.added).toEqual([]);
    }
  });

  it('proposes nothing when the case passed again with its own steps (flaky, not changed)', async () => {
    const { propose } = proposer({
      verdict: 'repair',
      after: [...CASE.steps],
      stepIndex: 0,
      weakenings: [],
      evidence: EVIDENCE,
      page_state: 'p1',
      screenshot: SHOT,
    });
    const run = context();
    await repairFailedCase(run.ctx, 0, end(), propose);
    expect(run.added).toEqual([]);
    expect(run.saved).toEqual([]);
    expect(run.said).toEqual([
      'No repair for "Add a task": it passed unchanged when run again (a flaky failure, not a change of the app)',
    ]);
  });

  it('keeps nothing and warns of nothing when the run is stopped during the repair', async () => {
    const run = context();
    const propose: ProposeRepair = async () => {
      run.controller.abort();
      throw new Error('aborted');
    };
    await repairFailedCase(run.ctx, 0, end(), propose);
    expect([run.added, run.warnings, run.said]).toEqual([[], [], []]);
  });

  it('logs a repair that fails and leaves no row, never failing the run', async () => {
    const { propose, asked } = proposer(new Error('the browser went away'));
    const run = context();
    await expect(repairFailedCase(run.ctx, 0, end(), propose)).resolves.toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(run.added).toEqual([]);
    expect(run.warnings).toHaveLength(1);
    expect(run.said).toEqual([]);
  });
});
