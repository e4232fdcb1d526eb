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
