/**
 * Everything Argus keeps in Redis when REDIS_URL is set (docs/DEPLOYMENT.md#redis), named in one place:
 * the BullMQ queue of automation work, the line its work waits in (organizations taking turns), the
 * pub/sub channels between web processes and workers, and the per-user hash of the automation work a
 * user has waiting or going.
 */

/** The BullMQ queue of generations and runs (its keys are `bull:argus-automation:*`). */
export const AUTOMATION_QUEUE = 'argus-automation';

/** Server messages for every socket of a user, on whichever web process it is open. */
export const userMessages = (userId: string) => `argus:user:${userId}:messages`;
/** Video frames for a user's sockets: published apart so a frame never waits behind a long message. */
export const userFrames = (userId: string) => `argus:user:${userId}:frames`;
export const USER_MESSAGES_PATTERN = 'argus:user:*:messages';
export const USER_FRAMES_PATTERN = 'argus:user:*:frames';

/** What one job says to the web process that queued it (its start, run id, messages for its caller, end). */
export const jobReplies = (jobId: string) => `argus:job:${jobId}`;

/** Requests from web processes to every worker: stop a user's work, watch its video, where it stands. */
export const WORKER_CONTROL = 'argus:control';

/**
 * The automation work a user has waiting or going (a hash: the work's line entry id → UserAutomation),
 * for their tabs (stop, where it stands) and the run API. Any number at once: work waits its turn.
 */
export const userAutomation = (userId: string) => `argus:automation:${userId}`;

/**
 * The line automation work waits in (run-lines/redis-line.ts: `turns`, `org:<org>`, `entry:<id>`,
 * `going:<org>` under this prefix): organizations take turns, ORG_MAX_CONCURRENT_RUNS each.
 */
export const AUTOMATION_LINE_PREFIX = 'argus:line:';
/** Where BullMQ keeps an automation job's hash: a job gone or finished no longer counts as going. */
export const AUTOMATION_JOB_PREFIX = `bull:${AUTOMATION_QUEUE}:`;
/** Runs waiting in the line, run id → its entry: the run API's `queue_position`, and the orphan sweep's keep list. */
export const LINE_RUNS = 'argus:line:runs';
/** Published whenever the line moves (work entered, took its turn, left, ended), so places are told again. */
export const LINE_MOVED = 'argus:line:moved';
/** The session whose run video a user's screen watches, so a worker starting the job later streams it. */
export const userVideo = (userId: string) => `argus:video:${userId}`;

/** Deletes KEYS[1] (a user's automation or comparison key) if it still names the job ARGV[1]; another job's stays. */
export const RELEASE_USER_KEY = `
local value = redis.call('GET', KEYS[1])
if value and string.find(value, ARGV[1], 1, true) then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Makes KEYS[1] (a per-user key) last until released, if it still names the job ARGV[1]. */
export const PERSIST_USER_KEY = `
local value = redis.call('GET', KEYS[1])
if value and string.find(value, ARGV[1], 1, true) then return redis.call('PERSIST', KEYS[1]) end
return 0`;

/** The BullMQ queue of design comparisons (its keys are `bull:argus-comparison:*`). */
export const COMPARISON_QUEUE = 'argus-comparison';
/** The comparison a user has queued or running (one at a time, as in one process). */
export const userComparison = (userId: string) => `argus:comparison:${userId}`;
/** Requests from web processes to every worker about comparisons: stop a user's. */
export const COMPARISON_CONTROL = 'argus:control:comparison';

/** Web processes' open sockets per user, published every few seconds for workers (scale/presence.ts). */
export const PRESENCE = 'argus:presence';

/** The BullMQ queue of live browsers of conversational mode (`bull:argus-conversation:*`). */
export const CONVERSATION_QUEUE = 'argus-conversation';
/** The live browser a user has queued or open for a session: its job. */
export const userConversation = (userId: string, sessionId: string) =>
  `argus:conversation:${userId}:${sessionId}`;
/** Requests from web processes to every worker about live browsers: chat, input, stop, resume. */
export const CONVERSATION_CONTROL = 'argus:control:conversation';
