import { z } from 'zod';
import { httpUrlProblem, MAX_URL_LENGTH } from './common';
import { SavedSuiteSchema } from './projects';

/**
 * `POST /api/projects/{id}/generations` (docs/CI.md#generating-a-suite-from-ci): generate a suite on one
 * of the project's environments and save it under a name, in one request (the answer comes when the
 * generation is over, up to several minutes). The `argus generate` command line sends it.
 */
export const GenerationRequestSchema = z.object({
  /** Absent: the project's default environment. */
  environment_id: z.string().max(100).optional(),
  /**
   * Where to start: a path on the environment (`/tickets`) or an absolute http(s) URL on its address.
   * Absent: the environment's base URL.
   */
  url: z
    .string()
    .trim()
    .max(MAX_URL_LENGTH, `URL must be at most ${MAX_URL_LENGTH} characters`)
    .superRefine((value, ctx) => {
      if (value.startsWith('/') && !value.startsWith('//')) return;
      const problem = httpUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `${problem}, or a path such as /tickets` });
    })
    .optional(),
  /** What to test, in words (a command-mode generation); absent: the whole site (full mode). */
  command: z.string().trim().min(1, 'The command is empty').max(4000).optional(),
  /** The suite to save into: created when the project has none of that name, else its next version. */
  suite_name: z.string().trim().min(1, 'Name the suite').max(200),
});
export type GenerationRequest = z.input<typeof GenerationRequestSchema>;

/** The answer (201): the suite as saved, and what the generation made. */
export const GenerationResultSchema = z.object({
  suite: SavedSuiteSchema,
  /** Test cases generated and saved. */
  cases: z.number().int(),
  /** True when the suite was created, false when this is a new version of one of that name. */
  created: z.boolean(),
  /** The engine that wrote the cases (`builtin`, or the model). */
  engine: z.string(),
  test_mode: z.enum(['full', 'command']),
  url: z.string(),
  environment_id: z.string(),
  environment_name: z.string(),
});
export type GenerationResult = z.infer<typeof GenerationResultSchema>;
