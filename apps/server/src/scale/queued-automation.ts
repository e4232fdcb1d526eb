import { randomUUID } from 'node:crypto';
import { ErrorCodeSchema, type ServerMessageInput, ServerMessageSchema } from '@argus/protocol';
import type { Job, Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { AutomationFront } from '../automation/automation-front';
import type { AutomationService } from '../automation/automation-service';
import { AppError } from '../errors';
import { echoing, isUserBroadcast, type Send, type UserChannel } from '../realtime/user-channel';
import {
  type AutomationJob,
  type JobNotify,
  type JobReply,
  JobReplySchema,
  type UserAutomation,
  UserAutomationSchema,
  type WorkerControl,
} from './automation-jobs';
import { CLAIM_TTL_MS, jobOfKey } from './job-keys';
import {
  jobReplies,
  PERSIST_USER_KEY,
  RELEASE_USER_KEY,
  userAutomation,
  userVideo,
  WORKER_CONTROL,
} from './redis-keys';

/** How long a question to the workers (where a user's work stands) waits for the one holding it. */
const SNAPSHOT_WAIT_MS = 1_000;

/** What a web process needs to queue automation work (scale/redis-connections.ts makes them). */
export interface QueuedAutomationDeps {
  queue: Queue;
  /** Commands: the per-user key, control messages. */
  redis: Redis;
  /** Subscribes to the replies of the jobs this process queued. */
  subscriber: Redis;
  /** Every socket of a user, on every web process (RedisUserChannel). */
  users: UserChannel;
  /** Makes the run row of a saved suite's run, so its id is answered before a worker takes the job. */
  createRun: (
    userId: string,
    ids: { project_id: string; suite_id: string; environment_id?: string | null },
  ) => Promise<{ test_run_id: string; environment_id: string; environment_name: string }>;
  log: FastifyBaseLogger;
}

type Pending = { onReply: (reply: JobReply) => void };

/**
 * Automation as a web process offers it when REDIS_URL is set (docs/DEPLOYMENT.md#how-work-flows):
 * each generation or run becomes a BullMQ job that a worker process takes; the web process holds no
 * browser. One job per user at a time, as in one process: the user's key in Redis names it from the
 * moment it is queued until it ends. Its messages reach the user's sockets on every web process
 * (RedisRelay), or the caller that queued it, through the job's reply channel.
 */
export class QueuedAutomation implements AutomationFront {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly deps: QueuedAutomationDeps) {}

  async start(): Promise<void> {
    this.deps.subscriber.on('message', (channel: string, text: string) => {
      const pending = this.pending.get(channel);
      if (!pending) return;
      let reply: JobReply;
      try {
        reply = JobReplySchema.parse(JSON.parse(text));
      } catch (error) {
        this.deps.log.error({ err: error, channel }, 'a job reply could not be read');
        return;
      }
      pending.onReply(reply);
    });
  }

  async shutdown(): Promise<void> {
    // The work is the workers'; what this process waits for just stops being waited for.
    for (const channel of this.pending.keys())
      await this.deps.subscriber.unsubscribe(channel).catch(() => {});
    this.pending.clear();
    await this.deps.queue.close();
  }

  generate: AutomationService['generate'] = async (userId, data, send) => {
    const { done } = await this.enqueue(
      { kind: 'generate', user_id: userId, notify: notifyOf(send), request_id: requestIdOf(send), data },
      { kind: 'generating', session_id: data.session_id ?? null },
      send,
    );
    return { done };
  };

  run: AutomationService['run'] = async (userId, data, send) => {
    const { suite, ...rest } = data;
    if (suite) throw new AppError('INTERNAL', 'A saved suite is run with runSavedSuite');
    return this.enqueue(
      { kind: 'run', user_id: userId, notify: notifyOf(send), request_id: requestIdOf(send), data: rest },
      { kind: 'running', session_id: data.session_id ?? null },
      send,
    );
  };

  runSavedSuite: AutomationService['runSavedSuite'] = async (userId, ids, send) => {
    // Refused at once when the user's automation is busy, before a run row is made for nothing.
    await this.refuseIfBusy(userId);
    const made = await this.deps.createRun(userId, ids);
    const { done } = await this.enqueue(
      {
        kind: 'saved',
        user_id: userId,
        notify: notifyOf(send),
        request_id: requestIdOf(send),
        data: {
          project_id: ids.project_id,
          suite_id: ids.suite_id,
          environment_id: made.environment_id,
          trigger: ids.trigger,
          test_run_id: made.test_run_id,
        },
      },
      { kind: 'running', session_id: null, run_id: made.test_run_id },
      send,
      // The run is answered as soon as it is queued: CI follows it through the run API.
      { waitForStart: false },
    );
    return { ...made, done };
  };

  async stop(userId: string, send: Send, requestedSession: string | null = null): Promise<void> {
    const current = await this.current(userId);
    if (!current) {
      this.say(send, {
        type: 'execution_stopped',
        session_id: requestedSession,
        data: { execution_time: 0 },
      });
      return;
    }
    const { entry, job } = current;
    if (job && (await job.getState()) !== 'active') {
      // Still queued: taken out of the queue, and nothing ever ran.
      const removed = await job.remove().then(
        () => true,
        () => false,
      );
      if (removed) {
        await this.release(userId, entry.job_id);
        await this.deps.redis.publish(
          jobReplies(entry.job_id),
          JSON.stringify({ type: 'ended', error: null } satisfies JobReply),
        );
        this.say(send, {
          type: 'execution_stopped',
          session_id: entry.session_id,
          data: { execution_time: 0 },
        });
        return;
      }
    }
    // Running on a worker: the one holding it stops it and says so to the user's sockets.
    await this.control({ type: 'stop', user_id: userId, session_id: requestedSession });
  }

  async isBusy(userId: string): Promise<boolean> {
    return (await this.current(userId)) !== null;
  }

  async activeSession(userId: string): Promise<string | null | undefined> {
    return (await this.current(userId))?.entry.session_id;
  }

  async activeRun(userId: string): Promise<string | undefined> {
    return (await this.current(userId))?.entry.run_id ?? undefined;
  }

  async inProgress(userId: string): Promise<ServerMessageInput | null> {
    if (!(await this.current(userId))) return null;
    // Asked of every worker; the one holding the user's work answers on a channel of this question.
    const reply = `argus:snapshot:${randomUUID()}`;
    let answer: (message: ServerMessageInput | null) => void = () => {};
    const answered = new Promise<ServerMessageInput | null>((resolve) => {
      answer = resolve;
    });
    this.pending.set(reply, {
      onReply: (r) => {
        if (r.type !== 'message') return;
        const parsed = ServerMessageSchema.safeParse(r.message);
        answer(parsed.success ? (parsed.data as ServerMessageInput) : null);
      },
    });
    const timer = setTimeout(() => answer(null), SNAPSHOT_WAIT_MS);
    try {
      await this.deps.subscriber.subscribe(reply);
      await this.control({ type: 'snapshot', user_id: userId, reply });
      return await answered;
    } finally {
      clearTimeout(timer);
      this.pending.delete(reply);
      await this.deps.subscriber.unsubscribe(reply).catch(() => {});
    }
  }

  async watchSession(userId: string, sessionId: string | null): Promise<void> {
    // Kept for a worker that takes the user's job later; told now to the one that may hold it.
    if (sessionId) await this.deps.redis.set(userVideo(userId), sessionId, 'EX', 24 * 3600);
    else await this.deps.redis.del(userVideo(userId));
    await this.control({ type: 'video', user_id: userId, session_id: sessionId });
  }

  /**
   * What this process says about queued work: to every socket of the user when `send` is a socket
   * handler's broadcast (their tabs may be on another web process), else to `send`.
   */
  private say(send: Send, message: ServerMessageInput): void {
    if (isUserBroadcast(send))
      echoing((m) => this.deps.users.sendToUser(send.broadcastTo, m), send.requestId)(message);
    else send(message);
  }

  private async control(message: WorkerControl): Promise<void> {
    await this.deps.redis.publish(WORKER_CONTROL, JSON.stringify(message));
  }

  /**
   * The user's queued or running job, or null. A key naming a job that is gone or over (its worker
   * and web process both died before clearing it) is stale: it is cleared, so the user is not locked out.
   */
  private async current(userId: string): Promise<{ entry: UserAutomation; job: Job | undefined } | null> {
    const text = await this.deps.redis.get(userAutomation(userId));
    if (!text) return null;
    const parsed = UserAutomationSchema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      await this.deps.redis.del(userAutomation(userId));
      return null;
    }
    const found = await jobOfKey(this.deps, userAutomation(userId), parsed.data.job_id);
    return found ? { entry: parsed.data, job: found.job } : null;
  }

  private async refuseIfBusy(userId: string): Promise<void> {
    const current = await this.current(userId);
    if (current) throw busy(current.entry.kind);
  }

  /** The user's key, if it still names `jobId` (another job's key is left alone). */
  private async release(userId: string, jobId: string): Promise<void> {
    await this.deps.redis.eval(RELEASE_USER_KEY, 1, userAutomation(userId), jobId);
  }

  private async enqueue(
    job: AutomationJob,
    what: { kind: UserAutomation['kind']; session_id: string | null; run_id?: string },
    send: Send,
    { waitForStart = true }: { waitForStart?: boolean } = {},
  ): Promise<{ done: Promise<void>; runId: Promise<string | null> }> {
    const { queue, redis, subscriber } = this.deps;
    const userId = job.user_id;
    const jobId = randomUUID();
    const entry: UserAutomation = {
      job_id: jobId,
      kind: what.kind,
      session_id: what.session_id,
      run_id: what.run_id ?? null,
    };
    const key = userAutomation(userId);
    await this.claim(userId, key, entry);

    const channel = jobReplies(jobId);
    const finish = () => {
      this.pending.delete(channel);
      subscriber.unsubscribe(channel).catch(() => {});
    };
    const { start, done, runId, onReply } = trackReplies(send, what.run_id, finish);
    this.pending.set(channel, { onReply });
    try {
      // Subscribed before the job exists: its first reply cannot be missed.
      await subscriber.subscribe(channel);
      await queue.add(job.kind, job, { jobId, removeOnComplete: true, removeOnFail: 1000 });
    } catch (error) {
      finish();
      await this.release(userId, jobId);
      this.deps.log.error({ err: error }, 'queueing automation work failed');
      throw new AppError('INTERNAL', 'The work could not be queued: the queue is unreachable');
    }
    // Once queued, the job names the key; it no longer expires (the job's end clears it).
    await redis.eval(PERSIST_USER_KEY, 1, key, jobId);
    const ahead = await this.ahead(jobId);
    if (ahead > 0) {
      this.say(send, {
        type: 'progress_update',
        session_id: what.session_id,
        data: { message: `Queued: ${ahead} ${ahead === 1 ? 'run' : 'runs'} ahead` },
      });
    }
    if (waitForStart) await start;
    return { done, runId };
  }

  /** Names the job in the user's key, or refuses: the user's work is already queued or under way. */
  private async claim(userId: string, key: string, entry: UserAutomation): Promise<void> {
    const { redis } = this.deps;
    let claimed = await redis.set(key, JSON.stringify(entry), 'PX', CLAIM_TTL_MS, 'NX');
    if (!claimed && !(await this.current(userId))) {
      claimed = await redis.set(key, JSON.stringify(entry), 'PX', CLAIM_TTL_MS, 'NX');
    }
    if (!claimed) {
      const current = await this.current(userId);
      throw busy(current?.entry.kind ?? entry.kind);
    }
  }

  /** Jobs waiting before `jobId` (0 when it is next or already taken). */
  private async ahead(jobId: string): Promise<number> {
    const waiting = await this.deps.queue.getWaiting(0, 999);
    // In the order they were queued, which is the order workers take them.
    const ordered = [...waiting].sort((a, b) => a.timestamp - b.timestamp);
    return Math.max(
      0,
      ordered.findIndex((job) => job.id === jobId),
    );
  }
}

/** The refusal one process gives while a user's automation work goes on. */
function busy(kind: UserAutomation['kind']): AppError {
  return new AppError(
    'BAD_REQUEST',
    kind === 'running'
      ? 'A test run is already in progress. Stop it before starting another.'
      : 'Test cases are still being generated. Wait for them or stop first.',
  );
}

/** The socket message's `request_id` a handler's broadcast echoes, for the worker to echo too. */
function requestIdOf(send: Send): string | undefined {
  return isUserBroadcast(send) ? send.requestId : undefined;
}

/** A socket handler's broadcast reaches the user on every web process; anything else is this caller's. */
function notifyOf(send: Send): JobNotify {
  return isUserBroadcast(send) ? 'user' : 'caller';
}

/**
 * What a queued job's replies settle: its start (or refusal), its end, and its run's id (`known` when
 * the run was recorded before it was queued); its messages go to `send`. `finish` once it has ended.
 */
function trackReplies(send: Send, known: string | undefined, finish: () => void) {
  let started: () => void = () => {};
  let refused: (error: AppError) => void = () => {};
  const start = new Promise<void>((resolve, reject) => {
    started = resolve;
    refused = reject;
  });
  let ended: (error: AppError | null) => void = () => {};
  const done = new Promise<void>((resolve, reject) => {
    ended = (error) => (error ? reject(error) : resolve());
  });
  done.catch(() => undefined);
  let recorded: (id: string | null) => void = () => {};
  const runId = new Promise<string | null>((resolve) => {
    recorded = resolve;
  });
  if (known) recorded(known);
  const onReply = (reply: JobReply) => {
    if (reply.type === 'started') started();
    else if (reply.type === 'run_id') recorded(reply.run_id);
    else if (reply.type === 'message') {
      const parsed = ServerMessageSchema.safeParse(reply.message);
      if (parsed.success) send(parsed.data as ServerMessageInput);
    } else {
      const error = reply.error
        ? new AppError(ErrorCodeSchema.catch('INTERNAL').parse(reply.error.code), reply.error.message)
        : null;
      if (error) refused(error);
      else started();
      recorded(null);
      ended(error);
      finish();
    }
  };
  return { start, done, runId, onReply };
}
