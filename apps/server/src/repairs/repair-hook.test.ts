import type { CaseRepairRow, NewCaseRepair } from '@argus/db';
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
  type TriedBug,
} from './repair-hook';
import { retryWithRenames } from './second-pass';

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
    element: { id: 'new-todo', name: 'title' },
  },
  { step_index: 2, description: CASE.steps[1], selector: null, url: 'http://app.test/' },
  // A stored element of another shape (an older or a damaged row) is read as none.
  {
    step_index: 3,
    description: CASE.steps[2],
    selector: 'text="Buy milk"',
    url: 'http://app.test/',
    element: { id: 42 },
  },
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
  /** The suite's rows as stored, oldest first, each with its id. */
  const rows: CaseRepairRow[] = [];
  const replaced: string[] = [];
  const control = { handingBack: false };
  const said: string[] = [];
  const notes: string[] = [];
  const warnings: unknown[] = [];
  const saved: string[] = [];
  const controller = new AbortController();
  if (options.aborted) controller.abort();
  const store: RepairStore = {
    add: async (_owner, input) => {
      added.push(input);
      const row = { ...input, id: `repair-${rows.length + 1}` } as CaseRepairRow;
      rows.push(row);
      return row;
    },
    forSuite: async () => [...rows].reverse(),
    replace: async (_owner, id, input) => {
      const at = rows.findIndex((row) => row.id === id);
      if (at < 0) return undefined;
      replaced.push(id);
      rows[at] = { ...rows[at], ...input };
      return rows[at];
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
    control: { handingBack: () => control.handingBack },
    runId: 'run-1',
    engine: { repairProposer: undefined },
    runTest: async () => FAILED,
    progress: (line: string) => said.push(line),
  } as unknown as CaseContext;
  return { ctx, added, rows, replaced, said, notes, warnings, saved, controller, control };
}

const end = (outcome: TestOutcome = FAILED, testCase: TestCase = CASE): CaseEnd => ({
  testCase,
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
      {
        index: 0,
        selector: 'textbox:name="What needs to be done?"',
        url: 'http://app.test/',
        element: { id: 'new-todo', name: 'title' },
      },
      { index: 1, selector: null, url: 'http://app.test/', element: null },
      { index: 2, selector: 'text="Buy milk"', url: 'http://app.test/', element: null },
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
      renames: [],
    });
    expect(asked[0].lastPassing?.steps[0]).toEqual({
      index: 0,
      selector: 'textbox:name="What needs to be done?"',
      url: 'http://app.test/',
      element: { id: 'new-todo', name: 'title' },
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

// The run's second pass (docs/REPAIRS.md#renames-learnt-across-the-suite): a case labelled a bug is
// tried once more when another case's repair taught a rename since its try.

/** A case repaired by a rename ("Mark all as complete" is now "Finish everything"). */
const COMPLETE_ALL: TestCase = {
  ...CASE,
  test_name: 'Complete all',
  steps: ['Click "Mark all as complete"', 'Verify text "0 items left" is visible'],
};
/** A case that only checks the old name: a bug, until the rename is known. */
const CHECK_ALL: TestCase = {
  ...CASE,
  test_name: 'See complete all',
  steps: ['Verify button "Mark all as complete" is visible'],
};
const renamed = (steps: string[]) =>
  steps.map((line) => line.replace('Mark all as complete', 'Finish everything'));

/**
 * A proposer that repairs "Complete all" by the rename, and answers the other case a bug unless it is
 * handed renames; keeping the requests it was asked.
 */
function learning() {
  const asked: RepairRequest[] = [];
  const propose: ProposeRepair = async (request) => {
    asked.push(request);
    const { testCase } = request;
    if (testCase.test_name !== COMPLETE_ALL.test_name && !request.renames?.length) {
      return {
        verdict: 'bug',
        stepIndex: 0,
        evidence: { ...EVIDENCE, summary: 'No "Mark all as complete"' },
        page_state: null,
      };
    }
    return {
      verdict: 'repair',
      after: renamed(testCase.steps),
      stepIndex: 0,
      weakenings: [],
      evidence: { ...EVIDENCE, summary: 'Button "Finish everything" completes all' },
      page_state: 'p1',
      screenshot: SHOT,
    };
  };
  return { propose, asked };
}

describe("the run's second pass", () => {
  it('answers a case labelled a bug with what it was tried with', async () => {
    const { propose } = learning();
    const run = context();
    const tried = await repairFailedCase(run.ctx, 1, end(FAILED, CHECK_ALL), propose);
    expect(tried).toMatchObject({ index: 1, renames: [], repairId: 'repair-1' });
    expect(tried?.end.testCase).toBe(CHECK_ALL);
    // A repair is not tried again.
    expect(await repairFailedCase(run.ctx, 0, end(FAILED, COMPLETE_ALL), propose)).toBeUndefined();
  });

  it('replaces the bug row once a later case of the run taught a rename, and says it', async () => {
    const { propose, asked } = learning();
    const run = context();
    const tried = (await repairFailedCase(run.ctx, 1, end(FAILED, CHECK_ALL), propose)) as TriedBug;
    await repairFailedCase(run.ctx, 0, end(FAILED, COMPLETE_ALL), propose);
    await retryWithRenames(run.ctx, [tried], propose);
    expect(asked).toHaveLength(3);
    expect(asked[2].renames).toEqual([
      { from: 'Mark all as complete', to: 'Finish everything', seenIn: 'Complete all' },
    ]);
    expect(run.replaced).toEqual(['repair-1']);
    expect(run.rows.find((row) => row.id === 'repair-1')).toMatchObject({
      case_name: CHECK_ALL.test_name,
      case_index: 1,
      verdict: 'repair',
      status: 'proposed',
      steps_after: ['Verify button "Finish everything" is visible'],
      after_screenshot_id: 'shot-proof',
    });
    expect(run.rows).toHaveLength(2);
    expect(run.said.at(-1)).toBe(
      'Repair proposed for "See complete all": Button "Finish everything" completes all',
    );
    // Tried once: nothing new learnt since, nothing asked again.
    await retryWithRenames(run.ctx, [{ ...tried, renames: asked[2].renames ?? [] }], propose);
    expect(asked).toHaveLength(3);
  });

  it('tries nothing when no rename was learnt since, and leaves a bug again as it was', async () => {
    const { propose, asked } = learning();
    const run = context();
    const tried = (await repairFailedCase(run.ctx, 1, end(FAILED, CHECK_ALL), propose)) as TriedBug;
    await retryWithRenames(run.ctx, [tried], propose);
    expect(asked).toHaveLength(1);
    // Learnt, but a bug again: the row stays.
    await repairFailedCase(run.ctx, 0, end(FAILED, COMPLETE_ALL), propose);
    const again = proposer({
      verdict: 'bug',
      stepIndex: 0,
      evidence: { ...EVIDENCE, summary: 'Still no such button' },
      page_state: null,
    });
    await retryWithRenames(run.ctx, [tried], again.propose);
    expect(again.asked).toHaveLength(1);
    expect(again.asked[0].renames).toHaveLength(1);
    expect(run.replaced).toEqual([]);
    expect(run.rows[0]).toMatchObject({ verdict: 'bug', status: 'none' });
  });

  it('passes again when a pass repaired a case whose rename an earlier case needed', async () => {
    // "Open": repaired at once ("Add" → "Create"). "Tick": repaired once "Add" is known ("Done" →
    // "Finished"). "Filter", earlier in the run: repaired only once "Done" is known.
    const cases = ['Filter', 'Tick', 'Open'].map((name, i) => ({
      ...CASE,
      test_name: name,
      steps: [[`Verify text "Done" is visible`], [`Click "Add"`, `Click "Done"`], [`Click "Add"`]][i],
    }));
    const needs: Record<string, string | null> = { Open: null, Tick: 'Add', Filter: 'Done' };
    const asked: string[] = [];
    const propose: ProposeRepair = async (request) => {
      const name = request.testCase.test_name;
      asked.push(name);
      const need = needs[name];
      if (need && !request.renames?.some((r) => r.from === need))
        return { verdict: 'bug', stepIndex: 0, evidence: EVIDENCE, page_state: null };
      return {
        verdict: 'repair',
        after: request.testCase.steps.map((l) =>
          l.replace('"Add"', '"Create"').replace('"Done"', '"Finished"'),
        ),
        stepIndex: 0,
        weakenings: [],
        evidence: EVIDENCE,
        page_state: 'p',
        screenshot: SHOT,
      };
    };
    const run = context();
    const bugs: TriedBug[] = [];
    for (const [index, testCase] of cases.entries()) {
      const bug = await repairFailedCase(run.ctx, index, end(FAILED, testCase), propose);
      if (bug) bugs.push(bug);
    }
    expect(bugs.map((b) => b.end.testCase.test_name)).toEqual(['Filter', 'Tick']);
    await retryWithRenames(run.ctx, bugs, propose);
    // Pass one: Filter (still a bug: "Done" not known yet), Tick (repaired); pass two: Filter.
    expect(asked.slice(3)).toEqual(['Filter', 'Tick', 'Filter']);
    expect(run.rows.map((row) => [row.case_name, row.verdict])).toEqual([
      ['Filter', 'repair'],
      ['Tick', 'repair'],
      ['Open', 'repair'],
    ]);
  });

  it('tries nothing once the run is stopped or handed back', async () => {
    for (const stop of ['aborted', 'handed back'] as const) {
      const { propose, asked } = learning();
      const run = context();
      const tried = (await repairFailedCase(run.ctx, 1, end(FAILED, CHECK_ALL), propose)) as TriedBug;
      await repairFailedCase(run.ctx, 0, end(FAILED, COMPLETE_ALL), propose);
      if (stop === 'aborted') run.controller.abort();
      else run.control.handingBack = true;
      await retryWithRenames(run.ctx, [tried], propose);
      expect(asked).toHaveLength(2);
      expect(run.replaced).toEqual([]);
    }
  });
});
