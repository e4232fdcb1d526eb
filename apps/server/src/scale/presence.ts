import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { PRESENCE } from './redis-keys';

/** How often a web process says which users have sockets on it. */
export const PRESENCE_INTERVAL_MS = 2_000;
/** A web process not heard from for this long holds no socket any more (it died). */
const PRESENCE_TTL_MS = 3 * PRESENCE_INTERVAL_MS;

const PresenceSchema = z.object({
  web: z.string().max(100),
  users: z.record(z.string().max(100), z.number().int().min(0).max(100_000)),
});
type Presence = z.infer<typeof PresenceSchema>;

/**
 * A web process's side of presence (docs/DEPLOYMENT.md#conversations-on-workers): every
 * PRESENCE_INTERVAL_MS it publishes how many sockets each user has on it, so a worker holding a
 * live browser knows whether anyone watches (its frames, its grace and idle clocks).
 */
export class PresenceBeacon {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: {
      redis: Redis;
      web: string;
      counts: () => Record<string, number>;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Says it now (a socket just opened or closed), and keeps saying it. */
  publish(): void {
    const message: Presence = { web: this.deps.web, users: this.deps.counts() };
    this.deps.redis.publish(PRESENCE, JSON.stringify(message)).catch((error: unknown) => {
      this.deps.log.debug({ err: error }, 'publishing presence failed');
    });
  }

  start(): void {
    this.publish();
    this.timer = setInterval(() => this.publish(), PRESENCE_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // Gone: no socket of this process is counted any more.
    const message: Presence = { web: this.deps.web, users: {} };
    this.deps.redis.publish(PRESENCE, JSON.stringify(message)).catch(() => undefined);
  }
}

/**
 * A worker's side of presence: the latest word of every web process, summed per user. A web process
 * silent for PRESENCE_TTL_MS is forgotten, so a killed one stops counting within seconds.
 */
export class PresenceMap {
  private readonly webs = new Map<string, { users: Record<string, number>; at: number }>();

  constructor(
    private readonly subscriber: Redis,
    private readonly now: () => number = Date.now,
  ) {}

  async start(): Promise<void> {
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== PRESENCE) return;
      try {
        const { web, users } = PresenceSchema.parse(JSON.parse(text));
        this.webs.set(web, { users, at: this.now() });
      } catch {
        // A malformed word is ignored; the next one comes within seconds.
      }
    });
    await this.subscriber.subscribe(PRESENCE);
  }

  async stop(): Promise<void> {
    await this.subscriber.unsubscribe(PRESENCE).catch(() => undefined);
  }

  /** Sockets of the user (of every user) on every web process heard from lately. */
  connectionCount(userId?: string): number {
    const fresh = this.now() - PRESENCE_TTL_MS;
    let total = 0;
    for (const [web, { users, at }] of this.webs) {
      if (at < fresh) {
        this.webs.delete(web);
        continue;
      }
      if (userId) total += users[userId] ?? 0;
      else for (const count of Object.values(users)) total += count;
    }
    return total;
  }
}
