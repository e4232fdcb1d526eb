import { type TestCase, TestCaseSchema } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../browser-pool';
import type { BrowserSession } from '../browser-session';
import { TargetPolicy } from '../target-policy';
import { BUILTIN_ENGINE, runTestCase } from '../test-runner';
import { proposeRepair } from './propose-repair';
import { type RepairPages, serveRepairPages } from './repair-pages';
import type { RepairCaseRunner, RepairProposer, RepairRequest } from './repair-types';

/**
 * proposeRepair against small pages in two versions (repair-pages.ts): the case is written for the
 * original, run on the changed version to get its real failure (the runner's own label), then
 * repaired; every proposal is proved by a real run in Chromium.
 */

let pages: RepairPages;
const pool = new BrowserPool({ policy: new TargetPolicy({ allowedTargets: ['127.0.0.1'] }), maxContexts: 2 });
let runs = 0;
const run: RepairCaseRunner = (testCase, options) => {
  runs++;
  return runTestCase(pool, testCase, { baseUrl: pages.url, stepTimeoutMs: 1_500, ...options });
};

beforeAll(async () => {
  pages = await serveRepairPages();
});
afterAll(async () => {
  await pool.close();
  await pages.close();
});

const caseOf = (steps: string[]): TestCase => TestCaseSchema.parse({ test_name: 'case', steps });

/**
 * A case's failure on the changed version, by its steps: several tests repair the same case (the
 * seedlings' one five times), and its two runs (passing on the original, failing on the change) answer
 * the same each time, so they run once per case, in the first test that asks.
 */
const failures = new Map<string, Promise<Pick<RepairRequest, 'failure' | 'error'>>>();

async function failureOf(testCase: TestCase): Promise<Pick<RepairRequest, 'failure' | 'error'>> {
  pages.set('original');
  const before = await run(testCase, { screenshots: false });
  expect(before.error).toBeNull();
  pages.set('changed');
  const outcome = await run(testCase, { screenshots: false });
  expect(outcome.status).toBe('failed');
  if (!outcome.failure) throw new Error('no failure label');
  return { failure: outcome.failure, error: outcome.error ?? '' };
}

/** Runs the case on the changed version (once per case) and makes the request the server would. */
async function failedOnChange(
  testCase: TestCase,
  rejected: RepairRequest['rejected'] = [],
): Promise<RepairRequest> {
  const key = JSON.stringify(testCase.steps);
  let known = failures.get(key);
  if (!known) {
    known = failureOf(testCase);
    failures.set(key, known);
    // A run that failed to give a failure is not kept: the next test asking runs it again.
    known.catch(() => failures.delete(key));
  }
  const { failure, error } = await known;
  // The proposal runs on the changed version, whichever version the last test left.
  pages.set('changed');
  return { testCase, failure: structuredClone(failure), error, lastPassing: null, rejected };
}

/** The case's passing run on the original, as the server keeps it: each step's URL and its element's stable attributes. */
async function lastPassingRun(testCase: TestCase): Promise<NonNullable<RepairRequest['lastPassing']>> {
  pages.set('original');
  const passed = await run(testCase, { screenshots: false });
  expect(passed.error).toBeNull();
  return {
    steps: passed.steps.map((s, index) => ({
      index,
      selector: s.selector ?? null,
      url: s.url ?? null,
      element: s.element ?? null,
    })),
  };
}

const seedlingCase = () =>
  caseOf([
    'Navigate to /seedlings',
    'Fill "Plant name" with "Fern"',
    'Click "Add"',
    'Verify text "Fern" is visible',
  ]);

describe('proposeRepair', () => {
  it('finds a renamed button with no word in common by structure: the submit button of the form just filled', async () => {
    const request = await failedOnChange(seedlingCase());
    expect(request.failure.kind).toBe('not_found');
    const outcome = await proposeRepair(request, { run });
    expect(outcome.verdict).toBe('repair');
    if (outcome.verdict === 'bug') return;
    expect(outcome.after).toEqual([
      'Navigate to /seedlings',
      'Fill "Plant name" with "Fern"',
      'Click button "Log seedling"',
      'Verify text "Fern" is visible',
    ]);
    expect(outcome.stepIndex).toBe(2);
    expect(outcome.weakenings).toEqual([]);
    expect(outcome.evidence.summary).toBe(
      '"Add" is gone; button "Log seedling" in the same form does what it did',
    );
    expect(outcome.evidence.signals).toContain('same region (form of step 2)');
    expect(outcome.evidence.engine).toBe(BUILTIN_ENGINE);
    expect(outcome.evidence.proof?.status).toBe('passed');
    expect(outcome.page_state).toMatch(/^[0-9a-f]{32}$/);
    expect(outcome.screenshot?.step_index).toBe(2);
    expect(outcome.screenshot?.data.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('finds nothing by structure alone for a step the case passes without: its checks would prove nothing', async () => {
    const testCase = caseOf([
      'Navigate to /seedlings',
      'Fill "Plant name" with "Fern"',
      'Click "Add"',
      'Verify heading "Seedlings" is visible',
    ]);
    const outcome = await proposeRepair(await failedOnChange(testCase), { run });
    expect(outcome.verdict).toBe('bug');
    expect(outcome.evidence.signals).toContain(
      'the case passes without step 3: only a control of a related name may replace it',
    );
  });

  it('does not propose a rejected repair again for the same page state', async () => {
    const first = await proposeRepair(await failedOnChange(seedlingCase()), { run });
    if (first.verdict === 'bug') throw new Error('expected a repair first');
    const request = await failedOnChange(seedlingCase(), [
      { page_state: first.page_state, after: first.after },
    ]);
    const again = await proposeRepair(request, { run });
    // The only other button in the form ("Clear") does not make the case pass: nothing is left.
    expect(again.verdict).toBe('bug');
    expect(again.evidence.signals.join(' ')).toMatch(/not proposed again: button "Log seedling"/);
    expect(again.page_state).toBe(first.page_state);
  });

  it('follows a relabelled field, by the words it kept and the form it shares with the next step', async () => {
    const testCase = caseOf([
      'Navigate to /loans',
      'Fill "Borrower" with "Ada"',
      'Click button "Lend"',
      'Verify text "Lent to Ada" is visible',
    ]);
    const outcome = await proposeRepair(await failedOnChange(testCase), { run });
    expect(outcome.verdict).toBe('repair');
    if (outcome.verdict === 'bug') return;
    expect(outcome.after[1]).toBe('Fill "Borrowed by" with "Ada"');
    expect(outcome.evidence.summary).toMatch(
      /^Field "Borrower" is gone; textbox "Borrowed by" in the same form/,
    );
  });

  it('follows a changed text the step names to the close, number-free text in its place', async () => {
    const testCase = caseOf(['Navigate to /loans', 'Verify text "Lend a book" is visible']);
    const request = await failedOnChange(testCase);
    expect(request.failure.kind).toBe('assertion');
    const outcome = await proposeRepair(request, { run });
    expect(outcome.verdict).toBe('repair');
    if (outcome.verdict === 'bug') return;
    expect(outcome.after).toEqual(['Navigate to /loans', 'Verify text "Lend books" is visible']);
    expect(outcome.evidence.summary).toBe(
      'The text "Lend a book" is gone; the page shows "Lend books" in its place',
    );
  });

  it('follows a title changed altogether only on the page the step checked when the case last passed', async () => {
    const testCase = caseOf(['Navigate to /loans', 'Verify title contains "Loans"']);
    const request = await failedOnChange(testCase);
    const unknown = await proposeRepair(request, { run });
    expect(unknown.verdict).toBe('bug');
    const elsewhere = { steps: [{ index: 1, selector: null, url: `${pages.url}/booking` }] };
    expect((await proposeRepair({ ...request, lastPassing: elsewhere }, { run })).verdict).toBe('bug');
    const here = { steps: [{ index: 1, selector: null, url: `${pages.url}/loans` }] };
    const outcome = await proposeRepair({ ...request, lastPassing: here }, { run });
    expect(outcome.verdict).toBe('repair');
    if (outcome.verdict === 'bug') return;
    expect(outcome.after).toEqual(['Navigate to /loans', 'Verify title contains "Lending desk"']);
  });

  it("flags a model's proposal that widens the checked text as weakening, never a plain repair", async () => {
    const proposer = new ScriptedProposer(['Verify text "Lend" is visible']);
    const testCase = caseOf(['Navigate to /loans', 'Verify text "Lend a book" is visible']);
    const outcome = await proposeRepair(await failedOnChange(testCase), { run, proposer });
    expect(outcome.verdict).toBe('weakens');
    if (outcome.verdict === 'bug') return;
    expect(outcome.evidence.engine).toBe('scripted model');
    expect(outcome.weakenings.map((w) => w.kind)).toEqual(['text_widened']);
  });

  it('finds a filter link moved into a menu: the click that opens the menu is inserted before the step', async () => {
    const testCase = caseOf([
      'Navigate to /chores',
      'Click "Open"',
      'Verify text "Repot the cactus" is visible',
      'Verify text "Water the ficus" is not visible',
    ]);
    const outcome = await proposeRepair(await failedOnChange(testCase), { run });
    expect(outcome.verdict).toBe('repair');
    if (outcome.verdict === 'bug') return;
    expect(outcome.after).toEqual([
      'Navigate to /chores',
      'Click button "View"',
      'Click menuitem "Open"',
      'Verify text "Repot the cactus" is visible',
      'Verify text "Water the ficus" is not visible',
    ]);
    expect(outcome.evidence.signals).toContain('revealed by one click on button "View"');
    expect(outcome.screenshot?.step_index).toBe(2);
  });

  it('finds the second part of a split form behind its "Next" button', async () => {
    const testCase = caseOf([
      'Navigate to /booking',
      'Fill "Room" with "Orchid"',
      'Fill "Purpose" with "Retro"',
      'Click button "Book"',
      'Verify text "Booking confirmed" is visible',
    ]);
    const outcome = await proposeRepair(await failedOnChange(testCase), { run });
    expect(outcome.verdict).toBe('repair');
    if (outcome.verdict === 'bug') return;
    expect(outcome.after).toEqual([
      'Navigate to /booking',
      'Fill "Room" with "Orchid"',
      'Click button "Next"',
      'Fill "Purpose" with "Retro"',
      'Click button "Book"',
      'Verify text "Booking confirmed" is visible',
    ]);
  });

  it('follows relabelled fields by the names they post, through a "Continue" that loads the form\'s second part, to its one submit button', async () => {
    const testCase = caseOf([
      'Navigate to /sightings',
      'Fill "Species" with "Robin"',
      'Fill "Count" with "3"',
      'Click button "Record sighting"',
      'Verify text "Robin × 3" is visible',
    ]);
    const lastPassing = await lastPassingRun(testCase);
    expect(lastPassing.steps[1].element).toEqual({ id: 'species', name: 'species' });
    const outcome = await proposeRepair({ ...(await failedOnChange(testCase)), lastPassing }, { run });
    expect(outcome.verdict).toBe('repair');
    if (outcome.verdict === 'bug') return;
    expect(outcome.after).toEqual([
      'Navigate to /sightings',
      'Fill "Bird" with "Robin"',
      'Fill "How many seen" with "3"',
      'Click button "Continue"',
      'Click button "Log it"',
      'Verify text "Robin × 3" is visible',
    ]);
    // The case passes on the second part without the click (it repeats what was typed): "Log it" is
    // taken for leading where "Record sighting" led, and being a button as it was.
    expect(outcome.evidence.signals).toContain(
      'the case passes without step 4: only a button leading where it led may replace it',
    );
    expect(outcome.evidence.signals).toContain('the same field name as when the case last passed ("count")');
  });

  it('follows a renamed nav link by where it leads and the landmark it sits in, then its renamed mark, then the same rename in a later check', async () => {
    const testCase = caseOf([
      'Navigate to /nursery',
      'Verify "Stock" is marked "active"',
      'Verify text "Stock" is visible',
    ]);
    const lastPassing = await lastPassingRun(testCase);
    expect(lastPassing.steps[1].element).toEqual({ href: '/nursery', landmark: 'navigation' });
    const outcome = await proposeRepair({ ...(await failedOnChange(testCase)), lastPassing }, { run });
    expect(outcome.verdict).toBe('repair');
    if (outcome.verdict === 'bug') return;
    expect(outcome.after).toEqual([
      'Navigate to /nursery',
      'Verify link "Plants" is marked "current"',
      'Verify text "Plants" is visible',
    ]);
    expect(outcome.evidence.signals).toContain(
      'the same link address as when the case last passed ("/nursery"), in the navigation as then',
    );
  });

  it('repairs a second change the proof meets after the first, and proves the two together', async () => {
    const testCase = caseOf([
      'Navigate to /recipes',
      'Fill "Dish" with "Lentil soup"',
      'Click "Save"',
      'Verify text "Lentil soup" is visible',
    ]);
    const outcome = await proposeRepair(await failedOnChange(testCase), { run });
    expect(outcome.verdict).toBe('repair');
    if (outcome.verdict === 'bug') return;
    expect(outcome.stepIndex).toBe(1);
    expect(outcome.after).toEqual([
      'Navigate to /recipes',
      'Fill "Recipe title" with "Lentil soup"',
      'Click button "Keep recipe"',
      'Verify text "Lentil soup" is visible',
    ]);
    expect(outcome.evidence.summary).toBe(
      'Field "Dish" is gone; textbox "Recipe title" does what it did. "Save" is gone; button "Keep recipe" in the same form does what it did',
    );
    expect(outcome.screenshot?.step_index).toBe(1);
  });

  it('follows a renamed state mark and a renamed control that appears with the action, as the checked one did', async () => {
    const testCase = caseOf([
      'Navigate to /tickets',
      'Click button "Resolve" in "Printer jam"',
      'Verify button "Reopen" is visible',
      'Verify "Printer jam" is marked "resolved"',
    ]);
    const outcome = await proposeRepair(await failedOnChange(testCase), { run });
    expect(outcome.verdict).toBe('repair');
    if (outcome.verdict === 'bug') return;
    expect(outcome.after.slice(2)).toEqual([
      'Verify button "Bring back" is visible',
      'Verify "Printer jam" is marked "closed"',
    ]);
    expect(outcome.evidence.summary).toBe(
      'Button "Reopen" is gone; button "Bring back" appeared in its place. The mark "resolved" is gone; "Printer jam" is marked "closed" now',
    );
  });

  it('calls the same checks failing on a planted bug a bug: nothing appeared, nothing is marked', async () => {
    const testCase = caseOf([
      'Navigate to /tickets',
      'Click button "Resolve" in "Printer jam"',
      'Verify button "Reopen" is visible',
      'Verify "Printer jam" is marked "resolved"',
    ]);
    pages.set('broken');
    const outcome = await run(testCase, { screenshots: false });
    if (!outcome.failure) throw new Error('the broken page should fail the case');
    const request = {
      testCase,
      failure: outcome.failure,
      error: outcome.error ?? '',
      lastPassing: null,
      rejected: [],
    };
    expect((await proposeRepair(request, { run })).verdict).toBe('bug');
    const markOnly = caseOf([
      'Navigate to /tickets',
      'Click button "Resolve" in "Printer jam"',
      'Verify "Printer jam" is marked "resolved"',
    ]);
    const marked = await run(markOnly, { screenshots: false });
    if (!marked.failure) throw new Error('the broken page should fail the case');
    const verdict = await proposeRepair(
      {
        testCase: markOnly,
        failure: marked.failure,
        error: marked.error ?? '',
        lastPassing: null,
        rejected: [],
      },
      { run },
    );
    expect(verdict.verdict).toBe('bug');
  });

  it('calls a removed control with nothing doing its job a bug, saying what it looked for and tried', async () => {
    const testCase = caseOf([
      'Navigate to /notes',
      'Fill "Note" with "Buy seeds"',
      'Click "Pin"',
      'Verify text "Pinned for later" is visible',
    ]);
    const outcome = await proposeRepair(await failedOnChange(testCase), { run });
    expect(outcome.verdict).toBe('bug');
    expect(outcome.stepIndex).toBe(2);
    expect(outcome.evidence.proof).toBeNull();
    expect(outcome.evidence.summary).toBe(
      'Looked for "Pin" on /notes; tried button "Discard" in its place and the case still failed: nothing on the page does what it did',
    );
  });

  it('refuses a model proposal naming an element not on the page, and the built-in rules take over', async () => {
    const proposer = new ScriptedProposer(['Click button "Plant it"']);
    const outcome = await proposeRepair(await failedOnChange(seedlingCase()), { run, proposer });
    expect(proposer.asked).toEqual([{ failedIndex: 2, url: `${pages.url}/seedlings` }]);
    expect(outcome.verdict).toBe('repair');
    if (outcome.verdict === 'bug') return;
    expect(outcome.evidence.engine).toBe(BUILTIN_ENGINE);
    expect(outcome.after[2]).toBe('Click button "Log seedling"');
    expect(outcome.evidence.signals).toContain(
      'model refused: The model named button "Plant it", which is not on the page',
    );
  });

  it("proves a model proposal naming what is there, and shows the model's engine", async () => {
    const proposer = new ScriptedProposer(['Click button "Log seedling"']);
    const outcome = await proposeRepair(await failedOnChange(seedlingCase()), { run, proposer });
    expect(outcome.verdict).toBe('repair');
    if (outcome.verdict === 'bug') return;
    expect(outcome.evidence.engine).toBe('scripted model');
    expect(outcome.after[2]).toBe('Click button "Log seedling"');
    expect(outcome.evidence.summary).toContain(
      'the model replaced step 3 with "Click button "Log seedling""',
    );
  });
});

describe('proposeRepair without a browser', () => {
  it('calls a failed check of a text holding a digit a bug, opening no browser', async () => {
    const before = runs;
    const outcome = await proposeRepair(
      {
        testCase: caseOf(['Navigate to /seedlings', 'Verify text "3 seedlings" is visible']),
        failure: { kind: 'assertion', evidence: 'Expected the text …', fingerprint: 'x', step_index: 1 },
        error: 'Expected the text "3 seedlings" to be visible',
        lastPassing: null,
        rejected: [],
      },
      { run },
    );
    expect(outcome.verdict).toBe('bug');
    expect(outcome.stepIndex).toBe(1);
    expect(outcome.evidence.summary).toMatch(/holds a number/);
    expect(runs).toBe(before);
  });

  it('calls an app error a bug at once, with its evidence, opening no browser', async () => {
    const before = runs;
    const outcome = await proposeRepair(
      {
        testCase: caseOf(['Fill "Plant name" with "Fern"', 'Click "Add"']),
        failure: {
          kind: 'app_error',
          evidence: 'POST /api/seedlings answered 500 during step 3',
          fingerprint: 'x',
          step_index: 2,
        },
        error: 'No visible element matching "Add"',
        lastPassing: null,
        rejected: [],
      },
      { run },
    );
    expect(outcome.verdict).toBe('bug');
    // The runner put a `Navigate to` first: its step 3 is the case's second step.
    expect(outcome.stepIndex).toBe(1);
    expect(outcome.page_state).toBeNull();
    expect(outcome.evidence.summary).toBe('The app broke: POST /api/seedlings answered 500 during step 3');
    expect(runs).toBe(before);
  });
});

/** A model stand-in answering fixed lines, recording what it was asked (a real RepairProposer). */
class ScriptedProposer implements RepairProposer {
  readonly engine = 'scripted model';
  readonly asked: { failedIndex: number; url: string }[] = [];

  constructor(private readonly lines: string[]) {}

  async propose(session: BrowserSession, input: { failedIndex: number }) {
    this.asked.push({ failedIndex: input.failedIndex, url: session.url });
    return { lines: this.lines, reason: 'the button in the form is the one that adds' };
  }
}
