import { randomUUID } from 'node:crypto';
import { ErrorCodeSchema, type ServerMessageInput, ServerMessageSchema } from '@argus/protocol';
import type { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Actor } from '../automation/automation-deps';
import type { AutomationFront } from '../automation/automation-front';
import type { AutomationService } from '../automation/automation-service';
import { AppError } from '../errors';
import { echoing, isUserBroadcast, type Send, type UserChannel } from '../realtime/user-channel';
import type { RedisLine } from '../run-lines/redis-line';
import {
  type AutomationJob,
  type JobNotify,
  type JobReply,
  JobReplySchema,
  type UserAutomation,
  type WorkerControl,
} from './automation-jobs';
import { endUserWork, type UserWork, userWork } from './automation-line';
import { jobReplies, LINE_MOVED, LINE_RUNS, userAutomation, userVideo, WORKER_CONTROL } from './redis-keys';

/** How long a question to the workers (where a user's work stands) waits for the one holding it. */
const SNAPSHOT_WAIT_MS = 1_000;

/** What a web process needs to queue automation work (scale/redis-connections.ts makes them). */
export interface QueuedAutomationDeps {
  queue: Queue;
  /** Commands: the per-user hash, the line, control messages. */
  redis: Redis;
  /** Subscribes to the replies of the jobs this process queued, and to the line moving. */
  subscriber: Redis;
  /** The line work waits in (scale/automation-line.ts). */
  line: RedisLine;
  /** Every socket of a user, on every web process (RedisUserChannel). */
  users: UserChannel;
  /** Makes the run row of a saved suite's run, so its id is answered before a worker takes the job. */
  createRun: (
    actor: Actor,
    ids: {
      project_id: string;
      suite_id: string;
      environment_id?: string | null;
      trigger?: 'screen' | 'api' | 'schedule';
    },
  ) => Promise<{ test_run_id: string; environment_id: string; environment_name: string }>;
  /** Records a run that left the line before its turn (cancelled, stopped): it never started; `ownerId`: its organization. */
  leftLine: (ownerId: string, runId: string) => Promise<void>;
  log: FastifyBaseLogger;
}

type Pending = { onReply: (reply: JobReply) => void };
/** Work this process queued that still waits: told its place as the line moves. */
type Watched = { say: (ahead: number) => void; told: number | null };

/**
 * Automation as a web process offers it when REDIS_URL is set (docs/DEPLOYMENT.md#how-work-flows):
 * each generation or run enters its organization's line in Redis (run-lines/redis-line.ts) and a turn
 * is added to BullMQ; the worker that takes a turn takes the line's next work, organizations taking
 * turns, ORG_MAX_CONCURRENT_RUNS each. Nothing is refused for being busy: work waits, told its place
 * (`automation_queued`) each time the line moves. Its messages reach the user's sockets on every web
 * process (RedisRelay), or the caller that queued it, through its entry's reply channel.
 */
export class QueuedAutomation implements AutomationFront {
  private readonly pending = new Map<string, Pending>();
  private readonly watched = new Map<string, Watched>();

  constructor(private readonly deps: QueuedAutomationDeps) {}

  async start(): Promise<void> {
    this.deps.subscriber.on('message', (channel: string, text: string) => {
      if (channel === LINE_MOVED) {
        this.tellPlaces().catch((error: unknown) => this.deps.log.warn({ err: error }, 'queue places'));
        return;
      }
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
    await this.deps.subscriber.subscribe(LINE_MOVED);
  }

  async shutdown(): Promise<void> {
    // The work is the workers'; what this process waits for just stops being waited for.
    for (const channel of [...this.pending.keys(), LINE_MOVED])
      await this.deps.subscriber.unsubscribe(channel).catch(() => {});
    this.pending.clear();
    this.watched.clear();
    await this.deps.queue.close();
  }

  generate: AutomationService['generate'] = async (actor, data, send) => {
    const { done } = await this.enqueue(
      { kind: 'generate', ...this.who(actor, send), data },
      { kind: 'generating', session_id: data.session_id ?? null },
      send,
    );
    return { done };
  };

  run: AutomationService['run'] = async (actor, data, send) => {
    const { suite, ...rest } = data;
    if (suite) throw new AppError('INTERNAL', 'A saved suite is run with runSavedSuite');
    return this.enqueue(
      { kind: 'run', ...this.who(actor, send), data: rest },
      { kind: 'running', session_id: data.session_id ?? null },
      send,
    );
  };

  runSavedSuite: AutomationService['runSavedSuite'] = async (actor, ids, send) => {
    const made = await this.deps.createRun(actor, ids);
    const { done } = await this.enqueue(
      {
        kind: 'saved',
        ...this.who(actor, send),
        data: {
          project_id: ids.project_id,
          suite_id: ids.suite_id,
          environment_id: made.environment_id,
          trigger: ids.trigger,
          branch: ids.branch,
          test_run_id: made.test_run_id,
        },
      },
      { kind: 'running', session_id: null, run_id: made.test_run_id },
      send,
    );
    return { ...made, done };
  };

  private who(actor: { userId: string; orgId: string }, send: Send) {
    return {
      user_id: actor.userId,
      org_id: actor.orgId,
      notify: notifyOf(send),
      request_id: requestIdOf(send),
    };
  }

  /**
   * Stops the user's work of the session the request named (waiting or going), else their first:
   * work that waits leaves the line and never starts; work going is stopped by the worker holding it.
   */
  async stop(userId: string, send: Send, requestedSession: string | null = null): Promise<void> {
    const work = await this.work(userId);
    const named = work.filter((w) => requestedSession !== null && w.entry.session_id === requestedSession);
    const chosen = named.length > 0 ? named : work.slice(0, 1);
    if (chosen.length === 0) {
      this.say(send, {
        type: 'execution_stopped',
        session_id: requestedSession,
        data: { execution_time: 0 },
      });
      return;
    }
    let going = false;
    for (const { entry, waiting } of chosen) {
      if (waiting && (await this.leave(userId, entry))) {
        this.say(send, {
          type: 'execution_stopped',
          session_id: entry.session_id,
          data: { execution_time: 0 },
        });
      } else going = true;
    }
    // Going on a worker: the one holding it stops it and says so to the user's sockets.
    if (going) await this.control({ type: 'stop', user_id: userId, session_id: requestedSession });
  }

  async cancel(userId: string, runId: string): Promise<'left' | 'stopping' | null> {
    const work = (await this.work(userId)).find((w) => w.entry.run_id === runId);
    if (!work) return null;
    if (work.waiting && (await this.leave(userId, work.entry))) return 'left';
    await this.control({ type: 'stop', user_id: userId, session_id: work.entry.session_id, run_id: runId });
    return 'stopping';
  }

  /** Takes the entry out of the line if it still waits: its caller is told it ended, its run that it never started. */
  private async leave(userId: string, entry: UserAutomation): Promise<boolean> {
    if (!(await this.deps.line.leave(entry.org_id, entry.job_id))) return false;
    this.watched.delete(entry.job_id);
    await endUserWork(this.deps.redis, entry, userId);
    if (entry.run_id) await this.deps.leftLine(entry.org_id, entry.run_id);
    await this.deps.redis.publish(
      jobReplies(entry.job_id),
      JSON.stringify({ type: 'ended', error: null } satisfies JobReply),
    );
    return true;
  }

  async isBusy(userId: string): Promise<boolean> {
    return (await this.work(userId)).length > 0;
  }

  async activeSession(userId: string): Promise<string | null | undefined> {
    return (await this.work(userId))[0]?.entry.session_id;
  }

  async activeRun(userId: string): Promise<string | undefined> {
    return (await this.work(userId)).find((w) => !w.waiting && w.entry.run_id)?.entry.run_id ?? undefined;
  }

  async queuePlace(runId: string): Promise<number | null> {
    const entryId = await this.deps.redis.hget(LINE_RUNS, runId);
    if (!entryId) return null;
    const place = (await this.deps.line.order()).indexOf(entryId);
    return place < 0 ? null : place;
  }

  /** The runs waiting in the line: the orphan sweep leaves them alone (their jobs are turns, not yet bound). */
  async waitingRuns(): Promise<string[]> {
    return this.deps.redis.hkeys(LINE_RUNS);
  }

  async inProgress(userId: string): Promise<ServerMessageInput | null> {
    const work = await this.work(userId);
    if (work.length === 0) return null;
    if (work.every((w) => w.waiting)) {
      const { entry } = work[0];
      const ahead = (await this.deps.line.order()).indexOf(entry.job_id);
      if (ahead < 0) return null;
      return {
        type: 'automation_queued',
        session_id: entry.session_id,
        data: { kind: entry.kind, ahead, test_run_id: entry.run_id },
      };
    }
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

  private work(userId: string): Promise<UserWork[]> {
    return userWork(this.deps, userId);
  }

  /** Tells each piece of waiting work this process queued its place, when it changed. */
  private async tellPlaces(): Promise<void> {
    if (this.watched.size === 0) return;
    const order = await this.deps.line.order();
    for (const [id, watched] of this.watched) {
      const ahead = order.indexOf(id);
      if (ahead < 0 || ahead === watched.told) continue;
      watched.told = ahead;
      watched.say(ahead);
    }
  }

  /**
   * Puts the work in its organization's line and a turn in BullMQ. Answers once it is queued: the
   * caller follows it through `done` (and a run's id through `runId`).
   */
  private async enqueue(
    job: AutomationJob & { org_id: string },
    what: { kind: UserAutomation['kind']; session_id: string | null; run_id?: string },
    send: Send,
  ): Promise<{ done: Promise<void>; runId: Promise<string | null> }> {
    const { queue, redis, subscriber, line } = this.deps;
    const userId = job.user_id;
    const entryId = randomUUID();
    const entry: UserAutomation = {
      job_id: entryId,
      kind: what.kind,
      session_id: what.session_id,
      run_id: what.run_id ?? null,
      org_id: job.org_id,
      queued_at: Date.now(),
      bound: null,
    };
    const channel = jobReplies(entryId);
    const finish = () => {
      this.pending.delete(channel);
      this.watched.delete(entryId);
      subscriber.unsubscribe(channel).catch(() => {});
    };
    const { done, runId, onReply } = trackReplies(send, what.run_id, finish, () =>
      this.watched.delete(entryId),
    );
    this.pending.set(channel, { onReply });
    this.watched.set(entryId, {
      told: null,
      say: (ahead) =>
        this.say(send, {
          type: 'automation_queued',
          session_id: what.session_id,
          data: { kind: what.kind, ahead, test_run_id: entry.run_id },
        }),
    });
    try {
      // Subscribed before the work can start: its first reply cannot be missed.
      await subscriber.subscribe(channel);
      await redis.hset(userAutomation(userId), entryId, JSON.stringify(entry));
      if (entry.run_id) await redis.hset(LINE_RUNS, entry.run_id, entryId);
      await line.enter(job.org_id, entryId, JSON.stringify({ ...job, entry_id: entryId }));
      await queue.add('turn', { kind: 'turn' }, { removeOnComplete: true, removeOnFail: 1000 });
    } catch (error) {
      finish();
      await line.leave(job.org_id, entryId).catch(() => false);
      await endUserWork(redis, entry, userId).catch(() => {});
      this.deps.log.error({ err: error }, 'queueing automation work failed');
      throw new AppError('INTERNAL', 'The work could not be queued: the queue is unreachable');
    }
    await redis.publish(LINE_MOVED, '1');
    return { done, runId };
  }
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
 * What a queued job's replies settle: its end (rejected when it was refused or failed) and its run's id
 * (`known` when the run was recorded before it was queued); its messages go to `send`. `started` once
 * it took its turn; `finish` once it has ended.
 */
function trackReplies(send: Send, known: string | undefined, finish: () => void, started: () => void) {
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
      recorded(null);
      ended(error);
      finish();
    }
  };
  return { done, runId, onReply };
}
