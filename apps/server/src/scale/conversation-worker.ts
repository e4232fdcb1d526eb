import type { ServerMessageInput } from '@argus/protocol';
import { type Job, Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { ConversationService } from '../conversation/conversation-service';
import type { UserChannel } from '../realtime/user-channel';
import { ConversationControlSchema, ConversationJobSchema } from './conversation-jobs';
import { CONVERSATION_CONTROL, CONVERSATION_QUEUE, RELEASE_USER_KEY, userConversation } from './redis-keys';

export interface ConversationWorkerDeps {
  conversations: ConversationService;
  /** The user's sockets, through Redis (RedisUserChannel, its presence from scale/presence.ts). */
  channel: UserChannel;
  redis: Redis;
  /** Control messages from web processes (a connection in subscriber mode). */
  subscriber: Redis;
  /** BullMQ's own connection. */
  connection: Redis;
  /** Live browsers at once: MAX_LIVE_BROWSERS. */
  concurrency: number;
  /** As the automation worker's (WORKER_LOCK_MS). @default 30000 */
  lockMs?: number;
  log: FastifyBaseLogger;
}

/**
 * A worker process's side of conversational mode (docs/DEPLOYMENT.md#conversations-on-workers): each
 * job is a live browser, opened through the same ConversationService one process uses and held until
 * it closes (a stop, the idle or grace clock, its lifetime). Chat, takeover input, resumes and stops
 * from any web process reach the worker holding the session. A live browser whose worker died is
 * opened again once on another worker, at its start page (its page state is lost with the browser).
 */
export class ConversationWorker {
  private worker: Worker | null = null;
  /** Live browsers this worker has opened (for tests and diagnostics). */
  taken = 0;

  constructor(private readonly deps: ConversationWorkerDeps) {}

  async start(): Promise<void> {
    const { subscriber, log } = this.deps;
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== CONVERSATION_CONTROL) return;
      this.control(text).catch((error: unknown) => log.error({ err: error }, 'a control message failed'));
    });
    await subscriber.subscribe(CONVERSATION_CONTROL);
    this.worker = new Worker(CONVERSATION_QUEUE, (job) => this.process(job), {
      connection: this.deps.connection,
      concurrency: this.deps.concurrency,
      lockDuration: this.deps.lockMs ?? 30_000,
      stalledInterval: this.deps.lockMs ?? 30_000,
      maxStalledCount: 1,
    });
    this.worker.on('error', (error) => log.error({ err: error }, 'conversation worker'));
  }

  /** Takes no new live browser, closes the ones open (each user is told why), then stops. */
  async stop(): Promise<void> {
    const closing = this.worker?.close();
    await this.deps.conversations.shutdown();
    await closing;
    await this.deps.subscriber.unsubscribe(CONVERSATION_CONTROL).catch(() => {});
  }

  private toUser(userId: string) {
    return (message: ServerMessageInput) => this.deps.channel.sendToUser(userId, message);
  }

  private async process(job: Job): Promise<void> {
    this.taken++;
    const { conversations, redis, log } = this.deps;
    const parsed = ConversationJobSchema.safeParse(job.data);
    if (!parsed.success) {
      log.error({ jobId: job.id, issues: parsed.error.issues.slice(0, 5) }, 'a conversation job was refused');
      return;
    }
    const { user_id: userId, data } = parsed.data;
    const sessionId = data.session_id;
    try {
      await conversations.start(userId, data, this.toUser(userId));
      await conversations.closed(userId, sessionId);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.toUser(userId)({
        type: 'browser_status',
        session_id: sessionId,
        data: { status: 'error' },
      });
      this.toUser(userId)({
        type: 'conversation_stopped',
        session_id: sessionId,
        data: { message, timestamp: new Date().toISOString() },
      });
    } finally {
      await redis.eval(RELEASE_USER_KEY, 1, userConversation(userId, sessionId), String(job.id));
    }
  }

  private async control(text: string): Promise<void> {
    const { conversations } = this.deps;
    const parsed = ConversationControlSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return;
    const message = parsed.data;
    const userId = message.user_id;
    const mine = conversations.liveSessions(userId);
    // Only the worker holding the user's live browser (of that session) acts.
    if (message.type === 'cleanup' || (message.type === 'stop' && !message.session_id)) {
      if (mine.length === 0) return;
      if (message.type === 'cleanup') await conversations.cleanupOrphans(userId, this.toUser(userId));
      else await conversations.stop(userId, null, this.toUser(userId));
      return;
    }
    const sessionId = message.type === 'stop' ? message.session_id : message.data.session_id;
    if (!sessionId || !mine.includes(sessionId)) return;
    if (message.type === 'resume') await conversations.start(userId, message.data, this.toUser(userId));
    else if (message.type === 'message')
      await conversations.message(userId, message.data, this.toUser(userId)).done;
    else if (message.type === 'input') await conversations.input(userId, message.data);
    else await conversations.stop(userId, sessionId, this.toUser(userId));
  }
}
