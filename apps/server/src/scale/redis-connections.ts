import { redactUrl } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * The Redis connections one process holds when REDIS_URL is set (docs/DEPLOYMENT.md#redis): commands
 * and publishing, one subscriber (a subscribed connection can do nothing else), one for video frames
 * (so a frame never queues behind a long message), and BullMQ's. Each retries for ever with a growing
 * wait, as BullMQ requires (`maxRetriesPerRequest: null`): a Redis restart pauses work, it does not fail it.
 */
export interface RedisConnections {
  commands: Redis;
  subscriber: Redis;
  frames: Redis;
  queue: Redis;
  close(): Promise<void>;
}

/**
 * Refuses to start without Redis, as without PostgreSQL: one connection attempt, no retry, and a
 * readable error naming the address (its password hidden). Once started, a lost Redis is waited for.
 */
export async function checkRedis(url: string, timeoutMs = 5_000): Promise<void> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    enableOfflineQueue: false,
  });
  // The connection's own error says why (ECONNREFUSED…); connect() only rejects 'Connection is closed.'
  let cause: Error | undefined;
  probe.on('error', (error: Error) => {
    cause ??= error;
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    throw new Error(`Cannot connect to Redis (${redactUrl(url)}): ${(cause ?? (error as Error)).message}`);
  } finally {
    probe.disconnect();
  }
}

export function openRedis(url: string, role: string, log?: FastifyBaseLogger): RedisConnections {
  const open = (purpose: string) => {
    const connection = new Redis(url, {
      maxRetriesPerRequest: null,
      connectionName: `argus-${role}-${purpose}`,
      retryStrategy: (times) => Math.min(times * 200, 5_000),
    });
    // One line when a connection is lost, one when it is back: not one per retry.
    let lost = false;
    connection.on('error', (error: Error) => {
      if (lost) return;
      lost = true;
      log?.warn({ err: error, purpose }, 'Redis unreachable: work waits until it is back');
    });
    connection.on('ready', () => {
      if (!lost) return;
      lost = false;
      log?.info({ purpose }, 'Redis reachable again');
    });
    return connection;
  };
  const connections = {
    commands: open('commands'),
    subscriber: open('subscriber'),
    frames: open('frames'),
    queue: open('queue'),
  };
  return {
    ...connections,
    async close() {
      await Promise.all(
        Object.values(connections).map((connection) =>
          connection.quit().catch(() => connection.disconnect()),
        ),
      );
    },
  };
}
