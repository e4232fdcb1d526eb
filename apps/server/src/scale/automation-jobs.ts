import {
  BranchNameSchema,
  CommandGenerateTestCasesDataSchema,
  HttpUrlSchema,
  SessionIdSchema,
  TestCaseListSchema,
  TestModeSchema,
} from '@argus/protocol';
import { z } from 'zod';

// What travels through Redis between web processes and workers (docs/DEPLOYMENT.md#how-work-flows).
// Redis is a boundary like a socket: a worker parses every job and control message with these
// schemas, and a web process every reply, so a malformed one is refused with a reason, never run.

/**
 * Where a job's messages go: `user`, every socket of its user on any web process (the Automation
 * screen); `caller`, only the web process that queued it, which hands them to its caller (an HTTP
 * stream); `none`, nowhere (a run the API started, followed through the database).
 */
export const JobNotifySchema = z.enum(['user', 'caller', 'none']);
export type JobNotify = z.infer<typeof JobNotifySchema>;

const id = z.string().max(100);

/** `AutomationService.run`'s request, as the web process checked it. */
export const RunJobDataSchema = z.object({
  url: HttpUrlSchema,
  test_cases: TestCaseListSchema,
  test_mode: TestModeSchema,
  command: z.string().max(4000).nullable().optional(),
  session_id: SessionIdSchema.nullable().optional(),
  test_run_id: id.nullable().optional(),
  project_id: id.nullable().optional(),
  environment_id: id.nullable().optional(),
  trigger: z.enum(['screen', 'api', 'schedule']).optional(),
  retries: z.number().int().min(0).max(10).optional(),
  branch: BranchNameSchema.optional(),
});

/** `AutomationService.runSavedSuite`'s request: the worker reads the suite and environment itself. */
export const SavedRunJobDataSchema = z.object({
  project_id: id,
  suite_id: id,
  environment_id: id.nullable().optional(),
  trigger: z.enum(['screen', 'api', 'schedule']).optional(),
  branch: BranchNameSchema.optional(),
  /** The run row the web process made, so it could answer with its id before the job started. */
  test_run_id: id,
});

/** `AutomationService.generate`'s request (a command makes it command mode). */
export const GenerateJobDataSchema = CommandGenerateTestCasesDataSchema.extend({
  command: z.string().trim().min(1).max(4000).optional(),
});

/** The socket message's `request_id` that queued it (notify `user`): echoed on what the job says. */
const requestId = z.string().max(100).optional();

/**
 * What every job carries besides its request: its user, the organization whose line it waited in
 * (for now the user's personal organization, whose id is theirs, when a web process names none), its
 * entry in the line (whose id its replies use), and the attempt it was bound at, so a job delayed
 * while waiting its turn is not mistaken for one taken up again after its worker died.
 */
const jobOf = <K extends string, D extends z.ZodType>(kind: K, data: D) =>
  z.object({
    kind: z.literal(kind),
    user_id: id,
    org_id: id.optional(),
    entry_id: id.optional(),
    bound_at: z.object({ attempts: z.number().int(), stalled: z.number().int() }).optional(),
    notify: JobNotifySchema,
    request_id: requestId,
    data,
  });

export const AutomationJobSchema = z.discriminatedUnion('kind', [
  jobOf('run', RunJobDataSchema),
  jobOf('saved', SavedRunJobDataSchema),
  jobOf('generate', GenerateJobDataSchema),
]);
export type AutomationJob = z.infer<typeof AutomationJobSchema>;

/**
 * A BullMQ job that is a turn, not yet bound to work: the worker that takes it takes the line's next
 * entry (run-lines/redis-line.ts) and binds the job to it (`updateData`), or ends it when nothing waits.
 */
export const TurnJobSchema = z.object({ kind: z.literal('turn') });

/** What a job tells the web process that queued it, on `jobReplies(entryId)`. */
export const JobReplySchema = z.discriminatedUnion('type', [
  /** The worker began it: checks passed, browsers held. */
  z.object({ type: z.literal('started') }),
  /** The run's row, once recorded. */
  z.object({ type: z.literal('run_id'), run_id: id.nullable() }),
  /** A server message for the caller (notify `caller`). */
  z.object({ type: z.literal('message'), message: z.record(z.string(), z.unknown()) }),
  /** It is over; `error` when it was refused or failed (an AppError's code and message). */
  z.object({
    type: z.literal('ended'),
    error: z.object({ code: z.string().max(100), message: z.string().max(4000) }).nullable(),
  }),
]);
export type JobReply = z.infer<typeof JobReplySchema>;

/** Requests from a web process to every worker; only the worker holding the user's work acts. */
export const WorkerControlSchema = z.discriminatedUnion('type', [
  /** Stop the user's work of that session (else their first), or, with `run_id`, that run only. */
  z.object({
    type: z.literal('stop'),
    user_id: id,
    session_id: SessionIdSchema.nullable(),
    run_id: id.optional(),
  }),
  z.object({ type: z.literal('video'), user_id: id, session_id: SessionIdSchema.nullable() }),
  /** Where the user's work stands (`automation_in_progress`), answered on `reply`. */
  z.object({ type: z.literal('snapshot'), user_id: id, reply: z.string().max(200) }),
]);
export type WorkerControl = z.infer<typeof WorkerControlSchema>;

/** A field's value of `userAutomation(userId)`: one piece of the user's automation work, waiting or going. */
export const UserAutomationSchema = z.object({
  /** Its entry in the line, which its replies' channel is named by. */
  job_id: z.string().max(100),
  kind: z.enum(['generating', 'running']),
  session_id: SessionIdSchema.nullable(),
  run_id: id.nullable(),
  org_id: id,
  /** When it was queued (ms): a fresh entry not in the line nor bound to a job is being queued or taken. */
  queued_at: z.number(),
  /** The BullMQ job that took its turn, once one did. */
  bound: z.string().max(100).nullable().optional(),
});
export type UserAutomation = z.infer<typeof UserAutomationSchema>;
