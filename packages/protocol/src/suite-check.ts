import { z } from 'zod';

/**
 * How the generated cases were checked before they were handed out: the whole suite run `runs` times,
 * `parallelism` cases at once on fresh sign-ins, as runs run it; the cases that failed were dropped.
 */
const CheckedCaseSchema = z.object({ test: z.string().max(500), reason: z.string().max(500) });

export const SuiteCheckSchema = z.object({
  runs: z.number().int().positive(),
  parallelism: z.number().int().positive(),
  /** The cases dropped because they failed on the app as it is, each with why (the first 50). */
  dropped: z.array(CheckedCaseSchema).max(50),
  /**
   * Cases kept though they failed every check run at a check of the page's health (a console error,
   * a broken link, an image without alt text…): they report a defect the app has (the first 50).
   */
  defects: z.array(CheckedCaseSchema).max(50).default([]),
  /** Cases with free-form steps, handed out unchecked (checking them would spend model calls). */
  unchecked: z.number().int().nonnegative().default(0),
});
export type SuiteCheck = z.infer<typeof SuiteCheckSchema>;
