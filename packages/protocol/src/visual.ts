import { z } from 'zod';

// A visual check's outcome in a test case (issue 40): `Verify the page looks as approved` and
// `Verify "<region>" looks as approved` (docs/STEP-LANGUAGE.md), as the engine's runner reports it
// on its case outcome (`TestOutcome.visualChecks`) for a server to store and put up for review.

/** `same`: as approved; `changed`: differs from its approved baseline; `new`: no baseline yet (recorded, pending review). */
export const VisualCheckStatusSchema = z.enum(['same', 'changed', 'new']);
export type VisualCheckStatus = z.infer<typeof VisualCheckStatusSchema>;

/** A box on the page in CSS pixels (a region's, or an issue's within the check's capture). */
export const VisualBoxSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
});
export type VisualBox = z.infer<typeof VisualBoxSchema>;

/**
 * One located difference: its `kind` (`colour`, `position`, `size`, `missing`, `extra`, `text`…, as
 * the design comparison names them), a sentence ("colour changed from #1e88e5 to #9e9e9e") and where,
 * in the coordinates of the check's capture (the page, or the region's box for a region check).
 */
export const VisualIssueSchema = z.object({
  kind: z.string().max(40),
  message: z.string().max(1_000),
  box: VisualBoxSchema,
});
export type VisualIssue = z.infer<typeof VisualIssueSchema>;

/** A visual check as the case ran it. */
export const VisualCheckOutcomeSchema = z.object({
  /**
   * The check within its case: `page`, or the region's name; a repeat of the same name in one case is
   * `page #2`, `page #3`. With the viewport, what its baseline is kept under.
   */
  name: z.string().max(600),
  /** The region the step names, or null for the whole page. */
  region: z.string().max(500).nullable(),
  status: VisualCheckStatusSchema,
  /** Largest first; empty unless `changed`. */
  issues: z.array(VisualIssueSchema).max(50),
  /** In a sentence, for the log and the review: 'New visual check: review it'. */
  message: z.string().max(1_000),
  /** The step's index in the case's steps as run (`StepUpdate.step_index`). */
  step_index: z.number().int().nonnegative(),
});
export type VisualCheckOutcome = z.infer<typeof VisualCheckOutcomeSchema>;

// ---------------------------------------------------------------------------------------------------
// Baselines and review (the server's; docs/VISUAL-CHECKS.md)

/**
 * A branch a run names (`--branch` in the CLI, `branch` in the run API): its own baselines are compared
 * with first, then the default branch's. Empty: the default branch.
 */
export const BranchNameSchema = z
  .string()
  .trim()
  .max(200)
  .regex(/^[A-Za-z0-9._/-]*$/, 'A branch name holds letters, digits and . _ / - only');

/**
 * A check's review: `none` (it looked as approved: nothing to review), `pending` (changed, or new with
 * no baseline yet), `approved` (its capture is now the baseline) or `rejected` (a bug: the baseline stays).
 */
export const VisualReviewSchema = z.enum(['none', 'pending', 'approved', 'rejected']);
export type VisualReview = z.infer<typeof VisualReviewSchema>;

/** The viewport a check's baseline is kept for (CSS pixels; any size a run used). */
const CheckViewportSchema = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});

/**
 * A mask named by what it covers, found on the page at each check (it follows the element as the page
 * moves): the visible elements holding this text (the innermost ones), or of this ARIA role (explicit
 * or implied by the tag: `img`, `banner`, `button`…), or both.
 */
export const VisualElementMaskSchema = z
  .object({
    text: z.string().trim().min(1).max(200).optional(),
    role: z
      .string()
      .trim()
      .regex(/^[a-z]{2,40}$/, 'An ARIA role: lower-case letters')
      .optional(),
  })
  .refine((mask) => mask.text !== undefined || mask.role !== undefined, 'Name a text, a role, or both');
export type VisualElementMask = z.infer<typeof VisualElementMaskSchema>;

/** A baseline: an approved capture of a check, under its key. `image`: a signed link to the PNG. */
export const VisualBaselineSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  environment_id: z.string(),
  /** '' for the default branch. */
  branch: z.string(),
  case_name: z.string(),
  check_name: z.string(),
  viewport: CheckViewportSchema,
  browser: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** What moved by itself when it was taken (masked), and the masks users added. */
  moving_masks: z.array(VisualBoxSchema),
  user_masks: z.array(VisualBoxSchema),
  /** Masks users named by an element's text or role. */
  element_masks: z.array(VisualElementMaskSchema).default([]),
  threshold: z.number(),
  approved_by: z.string(),
  /** The run whose capture was approved (null once that run is deleted, or for a restored one). */
  source_run_id: z.string().nullable(),
  /** The earlier baseline this one restores or promotes. */
  copied_from: z.string().nullable(),
  created_at: z.string(),
  image: z.string(),
});
export type VisualBaseline = z.infer<typeof VisualBaselineSchema>;

/** One visual check of a run, for the Review list. Image links are signed and expire. */
export const VisualRunCheckSchema = z.object({
  id: z.string(),
  run_id: z.string(),
  project_id: z.string(),
  environment_id: z.string(),
  branch: z.string(),
  case_name: z.string(),
  /** The case's place in the run's cases (the list is in case, then step, order). */
  case_index: z.number().int().nonnegative(),
  check_name: z.string(),
  region: z.string().nullable(),
  step_index: z.number().int().nonnegative(),
  viewport: CheckViewportSchema,
  browser: z.string(),
  status: VisualCheckStatusSchema,
  issues: z.array(VisualIssueSchema),
  message: z.string(),
  review: VisualReviewSchema,
  width: z.number().int(),
  height: z.number().int(),
  /** What moved by itself between this run's two captures: masked for this check. */
  moving_masks: z.array(VisualBoxSchema),
  url: z.string(),
  /** The baseline compared with (null for a new check). */
  baseline: VisualBaselineSchema.omit({ image: true }).nullable(),
  images: z.object({
    current: z.string(),
    baseline: z.string().nullable(),
    diff: z.string().nullable(),
  }),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  /** Why it was rejected, in the reviewer's words (null when none was given, or not rejected). */
  decision_reason: z.string().nullable(),
  /** The baseline its approval made (its history opens from it); null unless approved. */
  made_baseline_id: z.string().nullable(),
  created_at: z.string(),
});
export type VisualRunCheck = z.infer<typeof VisualRunCheckSchema>;

/** `GET /api/runs/{id}/visual-checks`. */
export const VisualRunChecksSchema = z.object({
  checks: z.array(VisualRunCheckSchema),
  /** Checks waiting for review: the run is 'changes to review' while any are. */
  to_review: z.number().int().min(0),
});
export type VisualRunChecks = z.infer<typeof VisualRunChecksSchema>;

/** `POST /api/runs/{id}/visual-checks/{check}/decision`. */
export const VisualDecisionSchema = z.object({
  decision: z.enum(['approve', 'reject']),
  /** Why it is rejected, in the reviewer's words (kept with the decision; ignored for an approval). */
  reason: z.string().trim().max(500).optional(),
});
export type VisualDecision = z.infer<typeof VisualDecisionSchema>;

/** `GET /api/projects/{id}/visual-baselines`: the current baselines of an environment and branch. */
export const VisualBaselinesQuerySchema = z.object({
  environment_id: z.string().max(100).optional(),
  branch: BranchNameSchema.default(''),
});

export const VisualBaselineListSchema = z.object({ baselines: z.array(VisualBaselineSchema) });
export type VisualBaselineList = z.infer<typeof VisualBaselineListSchema>;

/** `PUT /api/visual-baselines/{id}/settings`: a check's own masks (rectangles) and threshold. */
export const VisualCheckSettingsSchema = z.object({
  user_masks: z.array(VisualBoxSchema).max(50).optional(),
  element_masks: z.array(VisualElementMaskSchema).max(20).optional(),
  threshold: z.number().min(0).max(0.5).optional(),
});
export type VisualCheckSettings = z.infer<typeof VisualCheckSettingsSchema>;

/** `POST /api/projects/{id}/visual-baselines/promote`: a branch's baselines become the default branch's. */
export const PromoteBaselinesSchema = z.object({
  branch: BranchNameSchema.refine((b) => b !== '', 'Name the branch to promote'),
  environment_id: z.string().max(100).optional(),
});
export const PromoteBaselinesResultSchema = z.object({ promoted: z.number().int().min(0) });

/** What a run's report, the CLI and a webhook say of its visual checks (null for a run on no project). */
export const RunVisualSummarySchema = z.object({
  /** Checks waiting for review (changed, or new): while any are, the run is 'changes to review'. */
  to_review: z.number().int().min(0),
  /** The run page's Review list, relative to the server (`/history/runs/{id}?tab=review`). */
  review_path: z.string(),
  /** The checks waiting for review (at most 200), as JUnit lists them: each a failure to look at. */
  pending: z
    .array(
      z.object({
        case_name: z.string(),
        check_name: z.string(),
        status: VisualCheckStatusSchema,
        message: z.string(),
        /** Each located issue in a sentence, largest first. */
        issues: z.array(z.string()),
      }),
    )
    .max(200)
    .default([]),
});
export type RunVisualSummary = z.infer<typeof RunVisualSummarySchema>;

// ---------------------------------------------------------------------------------------------------
// Baselines in Git (`argus baselines pull/push`; docs/VISUAL-CHECKS.md#baselines-in-git)

/** Most baselines one archive holds (as many as one listing of an environment's branch answers). */
export const MAX_ARCHIVE_BASELINES = 500;
/** Most bytes one archived picture may have, decoded (a screenshot upload's limit). */
export const MAX_ARCHIVE_PNG_BYTES = 10 * 1024 * 1024;

/** One baseline of an archive: its key within the environment and branch, settings, and picture. */
export const ArchivedBaselineSchema = z.object({
  case_name: z.string().min(1).max(1_000),
  check_name: z.string().min(1).max(600),
  viewport: CheckViewportSchema.extend({
    width: z.number().int().positive().max(16_384),
    height: z.number().int().positive().max(16_384),
  }),
  browser: z.string().min(1).max(100),
  moving_masks: z.array(VisualBoxSchema).max(1_000),
  user_masks: z.array(VisualBoxSchema).max(50),
  element_masks: z.array(VisualElementMaskSchema).max(20).default([]),
  threshold: z.number().min(0).max(0.5),
  /** The PNG, base64 (at most MAX_ARCHIVE_PNG_BYTES once decoded). */
  png: z
    .string()
    .min(1)
    .max(Math.ceil(MAX_ARCHIVE_PNG_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Not base64'),
  /** The SHA-256 of the PNG's bytes, lower-case hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'A SHA-256 in lower-case hex'),
});
export type ArchivedBaseline = z.infer<typeof ArchivedBaselineSchema>;

/**
 * `GET /api/projects/{id}/visual-baselines/export` answers it and `…/import` takes it: the current
 * baselines of one environment and branch, pictures included. Its project, environment and branch say
 * where it came from; an import goes where its query names.
 */
export const BaselineArchiveSchema = z.object({
  format: z.literal('argus-baselines'),
  version: z.literal(1),
  /** The project's name (informative). */
  project: z.string().max(200),
  /** The environment's name (informative). */
  environment: z.string().max(200),
  branch: BranchNameSchema,
  baselines: z.array(ArchivedBaselineSchema).max(MAX_ARCHIVE_BASELINES),
});
export type BaselineArchive = z.infer<typeof BaselineArchiveSchema>;

/** `POST /api/projects/{id}/visual-baselines/import`: how many became their key's newest, and how many were so already. */
export const ImportBaselinesResultSchema = z.object({
  added: z.number().int().min(0),
  unchanged: z.number().int().min(0),
});
export type ImportBaselinesResult = z.infer<typeof ImportBaselinesResultSchema>;
