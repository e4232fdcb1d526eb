import { z } from 'zod';
import { JsonObjectSchema } from './common';

// A run's step screenshots as the API describes and takes them (docs/PRODUCT.md#screenshots).

/** A stored screenshot as the server describes it; `url` is a short-lived link signed for this one image. */
export const ScreenshotRefSchema = z.object({
  id: z.string(),
  url: z.string(),
  test_run_id: z.string().nullable(),
  test_case_name: z.string(),
  step_name: z.string().nullable(),
  step_index: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  created_at: z.string(),
});
export type ScreenshotRef = z.infer<typeof ScreenshotRefSchema>;
/** `GET /api/screenshots/test-run/{id}` and `…/test-case/{id}/{name}`: a run's screenshots, links freshly signed. */
export const ScreenshotListSchema = z.array(ScreenshotRefSchema);
/** `GET /api/screenshots/test-case/{id}/{name}`: the run and the test case's name. */
export const TestCaseScreenshotsParamsSchema = z.object({
  id: z.string().max(100),
  name: z.string().max(500),
});

/** A screenshot record (docs/PRODUCT.md#screenshots). */
export const ScreenshotRecordSchema = z.object({
  test_run_id: z.string().max(100),
  test_case_name: z.string().max(500),
  step_name: z.string().max(1000).optional(),
  step_index: z.number().int().nonnegative().default(0),
  image_data: z.string(),
  width: z.number().int().nonnegative().optional(),
  height: z.number().int().nonnegative().optional(),
  metadata: JsonObjectSchema.optional(),
});
export type ScreenshotRecord = z.infer<typeof ScreenshotRecordSchema>;
