import type { ServerMessageInput } from '@argus/protocol';
import type { Job } from 'bullmq';
import type { ConversationService } from '../conversation/conversation-service';
import { AppError } from '../errors';
import { ConversationControlSchema, ConversationJobSchema } from './conversation-jobs';
import type { JobsDeps, QueueJobs } from './queue-worker';
import { CONVERSATION_CONTROL, CONVERSATION_QUEUE, RELEASE_USER_KEY, userConversation } from './redis-keys';

export interface ConversationWorkerDeps extends JobsDeps {
  conversations: ConversationService;
}

/**
 * A worker process's side of conversational mode (docs/DEPLOYMENT.md#conversations-on-workers): each
 * job is a live browser, opened through the same ConversationService one process uses and held until
 * it closes (a stop, the idle or grace clock, its lifetime). Chat, takeover input, resumes and stops
 * from any web process reach the worker holding the session. A live browser whose worker died is
 * opened again once on another worker, at its start page (its page state is lost with the browser).
 * A QueueWorker takes its jobs.
 */
export class ConversationWorker implements QueueJobs {
  readonly queue = CONVERSATION_QUEUE;
  readonly controlChannel = CONVERSATION_CONTROL;

  constructor(private readonly deps: ConversationWorkerDeps) {}

  /** On a stop: the live browsers open close (each user is told why). */
  onStop(): Promise<void> {
    return this.deps.conversations.shutdown();
  }

  private toUser(userId: string) {
    return (message: ServerMessageInput) => this.deps.channel.sendToUser(userId, message);
  }

  async process(job: Job): Promise<void> {
    const { conversations, redis, log } = this.deps;
    const parsed = ConversationJobSchema.safeParse(job.data);
    if (!parsed.success) {
      log.error({ jobId: job.id, issues: parsed.error.issues.slice(0, 5) }, 'a conversation job was refused');
      return;
    }
    const { user_id: userId, data } = parsed.data;
    const sessionId = data.session_id;
    // Taken up again after the worker holding it died (BullMQ's stalled-job check): the browser opens
    // anew at the start page, and the user reads why the page they were on is gone.
    const reopened = job.attemptsStarted > 1 || job.stalledCounter > 0;
    try {
      await conversations.start(userId, data, this.toUser(userId));
      if (reopened) {
        log.warn({ jobId: job.id }, 'reopening a live browser whose worker stopped');
        this.toUser(userId)({
          type: 'conversation_response',
          session_id: sessionId,
          data: { message: reopenedMessage(data.url), timestamp: new Date().toISOString() },
        });
      }
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

  async onControl(text: string): Promise<void> {
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
    else if (message.type === 'input') {
      // Refused here (too many inputs waiting): the tabs are told, as one process tells the sender.
      await conversations.input(userId, message.data).catch((error: unknown) => {
        if (!(error instanceof AppError)) throw error;
        this.toUser(userId)({
          type: 'error',
          session_id: sessionId,
          data: { message: error.message, code: error.code, feature: 'conversational' },
        });
      });
    } else await conversations.stop(userId, sessionId, this.toUser(userId));
  }
}

/** What the user reads when their live browser was opened again on another worker. */
export function reopenedMessage(url: string | null | undefined): string {
  return `The worker holding your live browser stopped, so it was opened again on another one${url ? `, at ${url}` : ', at its start page'}. Anything done on the page since is lost.`;
}
