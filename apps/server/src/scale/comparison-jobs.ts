import { FigmaWebsiteComparisonDataSchema, SessionIdSchema } from '@argus/protocol';
import { z } from 'zod';

// What travels through Redis for design comparisons (docs/DEPLOYMENT.md#how-work-flows), parsed by
// the worker before anything runs, as every job is.

const id = z.string().max(100);

/**
 * A comparison the web process checked. It carries the request as the socket sent it, not the checked
 * request: the worker checks it again with its own services, so no Figma token ever sits in Redis.
 */
export const ComparisonJobSchema = z.object({
  user_id: id,
  /** The socket message's `request_id`, echoed on what the comparison says. */
  request_id: z.string().max(100).optional(),
  data: FigmaWebsiteComparisonDataSchema,
});
export type ComparisonJob = z.infer<typeof ComparisonJobSchema>;

/** Requests from a web process to every worker; only the worker comparing for the user acts. */
export const ComparisonControlSchema = z.object({
  type: z.literal('stop'),
  user_id: id,
  session_id: SessionIdSchema.nullable(),
});
export type ComparisonControl = z.infer<typeof ComparisonControlSchema>;

/** The value of `userComparison(userId)`: the user's queued or running comparison. */
export const UserComparisonSchema = z.object({
  job_id: id,
  session_id: SessionIdSchema.nullable(),
});
export type UserComparison = z.infer<typeof UserComparisonSchema>;
