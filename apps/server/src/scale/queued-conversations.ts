import { randomUUID } from 'node:crypto';
import { queuedMessage } from '@argus/engine';
import type { ClientMessageOf } from '@argus/protocol';
import type { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { ConversationFront } from '../conversation/conversation-front';
import type { ConversationService } from '../conversation/conversation-service';
import { checkLiveBrowsers } from '../conversation/limits';
import { AppError } from '../errors';
import { addressed, type Send, type UserChannel } from '../realtime/user-channel';
import type { ConversationControl, ConversationJob } from './conversation-jobs';
import { CLAIM_TTL_MS, jobOfKey } from './job-keys';
import { CONVERSATION_CONTROL, PERSIST_USER_KEY, RELEASE_USER_KEY, userConversation } from './redis-keys';

export interface QueuedConversationsDeps {
  config: Pick<Config, 'maxLiveBrowsersPerUser' | 'maxLiveBrowsers'>;
  queue: Queue;
  /** Commands: the per-session keys, control messages. */
  redis: Redis;
  /** Every socket of a user, on every web process (RedisUserChannel). */
  users: UserChannel;
  /** This process's own service, holding no live browser: it answers what concerns none (its words). */
  local: ConversationService;
  /** Refuses a `session_id` that is not the user's (SESSION_NOT_FOUND). */
  checkSession: (userId: string, sessionId: string) => Promise<void>;
  log: FastifyBaseLogger;
}

/**
 * Conversational mode as a web process offers it when REDIS_URL is set
 * (docs/DEPLOYMENT.md#conversations-on-workers): a live browser is a BullMQ job that a worker takes and
 * holds for as long as the browser lives; its frames and messages reach the user's sockets through
 * Redis. Chat messages, takeover input and stops go to the worker holding the session over
 * `argus:control:conversation`. A session's key names its job, so a reconnected tab resumes the live
 * browser wherever it is rather than opening a second one.
 */
export class QueuedConversations implements ConversationFront {
  constructor(private readonly deps: QueuedConversationsDeps) {}

  /** What the start says reaches every tab of the user from the worker (or the queue), not `_send`. */
  async start(
    userId: string,
    data: ClientMessageOf<'start_conversation'>['data'],
    _send: Send,
  ): Promise<void> {
    const sessionId = data.session_id;
    if (!sessionId) throw new AppError('BAD_REQUEST', 'A conversation needs a session_id.');
    await this.deps.checkSession(userId, sessionId);
    const { redis, queue } = this.deps;
    const key = userConversation(userId, sessionId);
    if (await this.live(userId, sessionId)) {
      await this.control({ type: 'resume', user_id: userId, data });
      return;
    }
    checkLiveBrowsers(this.deps.config, { mine: await this.count(userId), all: 0 });
    const jobId = randomUUID();
    const claimed = await redis.set(key, jobId, 'PX', CLAIM_TTL_MS, 'NX');
    if (!claimed) {
      // Another tab of the user started it a moment ago: this one follows it.
      await this.control({ type: 'resume', user_id: userId, data });
      return;
    }
    try {
      const job: ConversationJob = { user_id: userId, data };
      await queue.add('live', job, { jobId, removeOnComplete: true, removeOnFail: 1000 });
    } catch (error) {
      await redis.eval(RELEASE_USER_KEY, 1, key, jobId);
      this.deps.log.error({ err: error }, 'queueing a live browser failed');
      throw new AppError('INTERNAL', 'The live browser could not be queued: the queue is unreachable');
    }
    await redis.eval(PERSIST_USER_KEY, 1, key, jobId);
    const waiting = await queue.getWaiting(0, 999);
    const ahead = [...waiting].sort((a, b) => a.timestamp - b.timestamp).findIndex((j) => j.id === jobId);
    if (ahead > 0) {
      // Every worker's live browsers are taken: the user reads their place in line while it loads.
      this.deps.users.sendToUser(userId, {
        type: 'browser_status',
        session_id: sessionId,
        data: { status: 'loading', message: queuedMessage(ahead) },
      });
    }
  }

  message(
    userId: string,
    data: ClientMessageOf<'conversation_message'>['data'],
    send: Send,
  ): { done: Promise<void> } {
    const done = (async () => {
      if (await this.live(userId, data.session_id))
        await this.control({ type: 'message', user_id: userId, data });
      // No live browser anywhere: this process's service says so, in its own words.
      else await this.deps.local.message(userId, data, send).done;
    })();
    return { done };
  }

  async input(userId: string, data: ClientMessageOf<'browser_input'>['data']): Promise<void> {
    if (await this.live(userId, data.session_id))
      await this.control({ type: 'input', user_id: userId, data });
    else await this.deps.local.input(userId, data);
  }

  async stop(userId: string, sessionId: string | null, send: Send): Promise<void> {
    const sessions = sessionId ? [sessionId] : await this.sessions(userId);
    let running = false;
    let said = false;
    for (const session of sessions) {
      const jobId = await this.deps.redis.get(userConversation(userId, session));
      if (!jobId) continue;
      const job = await this.deps.queue.getJob(jobId);
      const state = job ? await job.getState() : 'unknown';
      if (job && state !== 'active') {
        // Still waiting for a worker: taken out of the queue, and nothing ever opened.
        await job.remove().catch(() => undefined);
        await this.deps.redis.eval(RELEASE_USER_KEY, 1, userConversation(userId, session), jobId);
        addressed(
          (m) => this.deps.users.sendToUser(userId, m),
          session,
        )({
          type: 'conversation_stopped',
          data: { message: 'Session stopped', timestamp: new Date().toISOString() },
        });
        said = true;
      } else if (state === 'active') running = true;
    }
    // The worker holding it closes it and says so; with nothing live anywhere, this process says so.
    if (running) await this.control({ type: 'stop', user_id: userId, session_id: sessionId });
    else if (!said) await this.deps.local.stop(userId, sessionId, send);
  }

  async cleanupOrphans(userId: string, send: Send): Promise<number> {
    await this.control({ type: 'cleanup', user_id: userId });
    return this.deps.local.cleanupOrphans(userId, send);
  }

  async shutdown(): Promise<void> {
    await this.deps.queue.close();
  }

  /** Whether the session has a live browser queued or open (a stale key, whose job is over, is cleared). */
  private async live(userId: string, sessionId: string): Promise<boolean> {
    const key = userConversation(userId, sessionId);
    const jobId = await this.deps.redis.get(key);
    if (!jobId) return false;
    return (await jobOfKey(this.deps, key, jobId)) !== null;
  }

  /** The user's sessions with a key (live browsers queued or open). */
  private async sessions(userId: string): Promise<string[]> {
    const prefix = userConversation(userId, '');
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await this.deps.redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 100);
      cursor = next;
      for (const key of keys) found.push(key.slice(prefix.length));
    } while (cursor !== '0');
    return found;
  }

  private async count(userId: string): Promise<number> {
    let n = 0;
    for (const session of await this.sessions(userId)) if (await this.live(userId, session)) n++;
    return n;
  }

  private async control(message: ConversationControl): Promise<void> {
    await this.deps.redis.publish(CONVERSATION_CONTROL, JSON.stringify(message));
  }
}
