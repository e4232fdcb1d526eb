import type { ServerMessageInput } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { UserChannel } from '../realtime/user-channel';
import { USER_FRAMES_PATTERN, USER_MESSAGES_PATTERN, userFrames, userMessages } from './redis-keys';

/**
 * A user's sockets as a worker reaches them (docs/DEPLOYMENT.md#how-work-flows): each message is
 * published on the user's Redis channel, and every web process hands it to the user's sockets it
 * holds (`RedisRelay`). One connection publishes in order, so the messages of one piece of work arrive
 * in the order they were sent. Frames go on a channel of their own, over a connection of their own,
 * so a frame never waits behind a large message; the hub of each web process keeps only the latest
 * frame per socket, as in one process.
 */
export class RedisUserChannel implements UserChannel {
  constructor(
    private readonly deps: {
      messages: Redis;
      frames: Redis;
      log: FastifyBaseLogger;
      /**
       * Sockets open for a user, as this process knows them. A worker holds none and answers 0: what
       * asks (a live conversation's idle timer) stays in the web process until it moves to workers.
       */
      connectionCount?: (userId?: string) => number;
    },
  ) {}

  sendToUser(userId: string, message: ServerMessageInput): void {
    this.deps.messages.publish(userMessages(userId), JSON.stringify(message)).catch((error: unknown) => {
      this.deps.log.error({ err: error, type: message.type }, 'publishing a message to a user failed');
    });
  }

  sendFrame(userId: string, sessionId: string, data: { frame: string; timestamp: string | number }): void {
    // A frame lost to a Redis hiccup is replaced by the next one: not worth a log line per frame.
    this.deps.frames
      .publish(userFrames(userId), JSON.stringify({ session_id: sessionId, ...data }))
      .catch(() => undefined);
  }

  connectionCount(userId?: string): number {
    return this.deps.connectionCount?.(userId) ?? 0;
  }
}

const FrameSchema = z.object({
  session_id: z.string().max(100),
  frame: z.string(),
  timestamp: z.union([z.string().max(100), z.number()]),
});

/** The user id in `argus:user:{id}:messages` or `argus:user:{id}:frames`. */
function userOf(channel: string): string | null {
  const match = /^argus:user:([^:]{1,100}):(?:messages|frames)$/.exec(channel);
  return match ? match[1] : null;
}

/**
 * In each web process: what workers publish for users, handed to the sockets this process holds.
 * The hub checks every message against the protocol before it leaves, as for local work.
 */
export class RedisRelay {
  constructor(
    private readonly subscriber: Redis,
    private readonly hub: UserChannel,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.subscriber.on('pmessage', (_pattern: string, channel: string, text: string) => {
      const userId = userOf(channel);
      if (!userId || this.hub.connectionCount(userId) === 0) return;
      try {
        if (channel.endsWith(':frames')) {
          const frame = FrameSchema.parse(JSON.parse(text));
          this.hub.sendFrame(userId, frame.session_id, frame);
        } else {
          this.hub.sendToUser(userId, JSON.parse(text) as ServerMessageInput);
        }
      } catch (error) {
        this.log.error({ err: error, channel }, 'a message from Redis could not be read');
      }
    });
    await this.subscriber.psubscribe(USER_MESSAGES_PATTERN, USER_FRAMES_PATTERN);
  }

  async stop(): Promise<void> {
    // Named: ioredis answers a bare PUNSUBSCRIBE only once the connection has no subscription left,
    // and job reply channels may still be subscribed (a web process's stop waited for a run to end).
    await this.subscriber.punsubscribe(USER_MESSAGES_PATTERN, USER_FRAMES_PATTERN).catch(() => undefined);
  }
}
