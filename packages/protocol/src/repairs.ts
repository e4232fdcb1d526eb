import { z } from 'zod';
import { TestCaseSchema } from './automation';

/**
 * When the app changes (docs/REPAIRS.md): a failed case of a saved suite gets a verdict. Either a
 * **repair** (its steps, before and after, proved by running the repaired case on the current app), a
 * repair that **weakens** an assertion (never offered as a plain fix), or a **bug** (the app broke, or
 * nothing on the page does what the step's target did: no repair). Proposals are reviewed: approving
 * saves a new suite version; rejecting keeps the same repair from being proposed again for the same
 * page state. Declared once here; the engine, the server, the CLI and the screens read these.
 */

export const REPAIR_VERDICTS = ['repair', 'weakens', 'bug'] as const;
export const RepairVerdictSchema = z.enum(REPAIR_VERDICTS);
export type RepairVerdict = z.infer<typeof RepairVerdictSchema>;

/**
 * Where a proposal stands: `proposed` (waiting for review), `approved` (saved in a suite version),
 * `rejected`, or `superseded` (the suite was saved since, from another version of the case). A `bug`
 * verdict is `none`: there is nothing to review.
 */
export const REPAIR_STATUSES = ['proposed', 'approved', 'rejected', 'superseded', 'none'] as const;
export const RepairStatusSchema = z.enum(REPAIR_STATUSES);
export type RepairStatus = z.infer<typeof RepairStatusSchema>;

/**
 * How a repair makes a check weaker than the case's own (each flags it `weakens`):
 * - `check_removed`: a `Verify …` step is gone (or is no longer a check);
 * - `text_widened`: a checked text, URL or title is now a part of what it was, or drops a number or a
 *   value the case typed;
 * - `count_lowered`: an exact count is now another count or an at-least, or an at-least is lower;
 * - `item_to_any`: a check limited to an item (`in "<region>"`) or a named element is now of any;
 * - `check_softened`: a check of a state turned into a check of presence (`is checked` → `is visible`),
 *   a `not visible` turned into anything else, or a value check into a presence check.
 */
export const WEAKENING_KINDS = [
  'check_removed',
  'text_widened',
  'count_lowered',
  'item_to_any',
  'check_softened',
] as const;
export const WeakeningKindSchema = z.enum(WEAKENING_KINDS);
export type WeakeningKind = z.infer<typeof WeakeningKindSchema>;

export const WeakeningSchema = z.object({
  kind: WeakeningKindSchema,
  /** In a sentence: 'Step 5 checked "3 items left"; the repair checks "items left"'. */
  detail: z.string().max(1_000),
  /** The check as it was (null for none). */
  before: z.string().max(4_000).nullable(),
  /** The check as the repair has it (null when removed). */
  after: z.string().max(4_000).nullable(),
});
export type Weakening = z.infer<typeof WeakeningSchema>;

/** One line of a case's step diff: kept, removed (before only) or added (after only). */
export const StepDiffLineSchema = z.object({
  op: z.enum(['same', 'removed', 'added']),
  line: z.string().max(4_000),
  /** Its 0-based index in the steps before (null when added). */
  before: z.number().int().min(0).nullable(),
  /** Its 0-based index in the steps after (null when removed). */
  after: z.number().int().min(0).nullable(),
});
export type StepDiffLine = z.infer<typeof StepDiffLineSchema>;

/** What a verdict rests on. */
export const RepairEvidenceSchema = z.object({
  /** In a sentence: 'Button "Add" is gone; button "Create task" in the same form adds the item as "Add" did'. */
  summary: z.string().max(2_000),
  /** The signals the match rests on: 'same role (button)', 'same region (form "New task")', … */
  signals: z.array(z.string().max(300)).max(20).default([]),
  /** Which engine proposed it: `built-in (rule-based)` or the model's name. */
  engine: z.string().max(200),
  /** The repaired case's run in a fresh browser on the current app (null for a `bug`). */
  proof: z
    .object({
      status: z.enum(['passed', 'failed']),
      /** Seconds. */
      execution_time: z.number().min(0),
    })
    .nullable(),
});
export type RepairEvidence = z.infer<typeof RepairEvidenceSchema>;

/** A failed case's verdict, as the run view and the suite page list it. */
export const CaseRepairSchema = z.object({
  id: z.string(),
  run_id: z.string(),
  project_id: z.string(),
  suite_id: z.string(),
  /** The suite version the run ran (the one repaired). */
  suite_version: z.number().int(),
  /** The case's name, and its 0-based place in that version. */
  case_name: z.string(),
  case_index: z.number().int().min(0),
  /** The result row of the failed case. */
  result_id: z.string().nullable(),
  verdict: RepairVerdictSchema,
  status: RepairStatusSchema,
  /** The failed step (0-based, as in `before`). */
  step_index: z.number().int().min(0).nullable(),
  /** The case's steps as saved, and as repaired (empty for a `bug`). */
  before: z.array(z.string()),
  after: z.array(z.string()),
  diff: z.array(StepDiffLineSchema),
  /** Empty unless the verdict is `weakens`. */
  weakenings: z.array(WeakeningSchema),
  evidence: RepairEvidenceSchema,
  /**
   * Screenshots of the repaired step (`/api/screenshots/{id}`): the last passing run's, and the proof's
   * (now). Null when there is none.
   */
  before_screenshot_id: z.string().nullable(),
  after_screenshot_id: z.string().nullable(),
  created_at: z.string(),
  /** Who approved or rejected it, when, and the suite version an approval saved. */
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  /** Why it was rejected, in the reviewer's words (null when none was given, or not rejected). */
  decision_reason: z.string().nullable().default(null),
  saved_version: z.number().int().nullable(),
});
export type CaseRepair = z.infer<typeof CaseRepairSchema>;

/** `GET /api/runs/{id}/repairs` and `GET /api/projects/{id}/suites/{suite}/repairs`. */
export const CaseRepairListSchema = z.object({
  repairs: z.array(CaseRepairSchema),
  /** Proposals waiting for review among them. */
  proposed: z.number().int().min(0),
});
export type CaseRepairList = z.infer<typeof CaseRepairListSchema>;

/**
 * `POST /api/projects/{id}/suites/{suite}/repairs/approve`: the proposals saved together as one new
 * suite version ('Repaired from run 3f2a91c0: 3 cases'). A `weakens` proposal is saved only when named
 * in `accept_weakening` too.
 */
export const ApproveRepairsSchema = z.object({
  ids: z.array(z.string().max(100)).min(1, 'Choose at least one repair').max(500),
  accept_weakening: z.array(z.string().max(100)).max(500).default([]),
});
export type ApproveRepairs = z.input<typeof ApproveRepairsSchema>;

export const ApproveRepairsResultSchema = z.object({
  /** The version saved. */
  version: z.number().int(),
  change: z.string(),
  repairs: z.array(CaseRepairSchema),
});
export type ApproveRepairsResult = z.infer<typeof ApproveRepairsResultSchema>;

/** `POST /api/projects/{id}/suites/{suite}/repairs/{repair}/reject`. */
export const RejectRepairSchema = z.object({
  /** Why, in the reviewer's words (kept with the decision). */
  reason: z.string().trim().max(500).optional(),
});
export type RejectRepair = z.input<typeof RejectRepairSchema>;

/** What a run's end, the CLI and a webhook say of its repairs. */
export const RunRepairSummarySchema = z.object({
  /** Repairs waiting for review (`repair` and `weakens`). */
  proposed: z.number().int().min(0),
  /** Failures labelled a bug (no repair). */
  bugs: z.number().int().min(0),
  /** The page to review them on, relative to the server: the run page's repairs (`/history/runs/{id}?tab=repairs`, runPagePath of apps/web/src/lib/run-links.ts). */
  review_path: z.string(),
});
export type RunRepairSummary = z.infer<typeof RunRepairSummarySchema>;

// ---------------------------------------------------------------------------------------------------
// Regenerate and compare

/**
 * `POST /api/projects/{id}/suites/{suite}/regenerate`: a generation on the environment, its cases
 * matched to the saved ones by the behaviour they test (the same action and effect, not the same
 * words). Nothing is saved until cases are accepted.
 */
export const RegenerateRequestSchema = z.object({
  /** Absent: the project's default environment. */
  environment_id: z.string().max(100).optional(),
});
export type RegenerateRequest = z.input<typeof RegenerateRequestSchema>;

export const SUITE_CHANGE_KINDS = ['added', 'removed', 'changed', 'unchanged'] as const;
export const SuiteChangeKindSchema = z.enum(SUITE_CHANGE_KINDS);
export type SuiteChangeKind = z.infer<typeof SuiteChangeKindSchema>;

/** One behaviour's place in the comparison. */
export const SuiteCaseChangeSchema = z.object({
  /** Stable within the comparison: what an accept names. */
  key: z.string(),
  kind: SuiteChangeKindSchema,
  /** The behaviour in words ('Adds a task', 'Filters active tasks'). */
  behaviour: z.string(),
  /** The saved case (null when added) and its place in the suite. */
  saved: TestCaseSchema.nullable(),
  saved_index: z.number().int().min(0).nullable(),
  /** The generated case (null when removed). */
  generated: TestCaseSchema.nullable(),
  /** The saved case's steps against the generated one's (empty when added or removed). */
  diff: z.array(StepDiffLineSchema),
  /** The saved case was edited by hand since it was generated: never replaced without a choice. */
  curated: z.boolean(),
});
export type SuiteCaseChange = z.infer<typeof SuiteCaseChangeSchema>;

export const SuiteComparisonSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  suite_id: z.string(),
  /** The saved version compared with. */
  suite_version: z.number().int(),
  environment_id: z.string(),
  engine: z.string(),
  changes: z.array(SuiteCaseChangeSchema),
  counts: z.object({
    added: z.number().int().min(0),
    removed: z.number().int().min(0),
    changed: z.number().int().min(0),
    unchanged: z.number().int().min(0),
  }),
  created_at: z.string(),
});
export type SuiteComparison = z.infer<typeof SuiteComparisonSchema>;

/**
 * `POST /api/projects/{id}/suites/{suite}/comparisons/{comparison}/accept`: the chosen changes saved as
 * one new version (an added case added, a removed one removed, a changed one replaced by the generated
 * case); the rest stay as saved.
 */
export const AcceptComparisonSchema = z.object({
  keys: z.array(z.string().max(100)).min(1, 'Choose at least one change').max(1_000),
});
export type AcceptComparison = z.input<typeof AcceptComparisonSchema>;
