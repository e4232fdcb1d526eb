import type { RetryOptions } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';

/**
 * How this process's database waits out an unreachable PostgreSQL (docs/DEPLOYMENT.md#postgresql):
 * DATABASE_RETRY_MS, and one log line when it is lost and one when it is back. The logger is asked for
 * when a line is written: the database opens before the app that owns the logger is built.
 */
export function databaseRetry(
  config: Pick<Config, 'databaseRetryMs'>,
  logger: () => FastifyBaseLogger | undefined,
): RetryOptions {
  return {
    retryMs: config.databaseRetryMs,
    onUnreachable: (error) => {
      const log = logger();
      const message = `PostgreSQL unreachable: statements wait up to ${config.databaseRetryMs} ms for it`;
      if (log) log.warn({ err: error }, message);
      else process.stderr.write(`${message} (${error.message})\n`);
    },
    onReachable: () => {
      const log = logger();
      if (log) log.info('PostgreSQL reachable again');
      else process.stderr.write('PostgreSQL reachable again\n');
    },
  };
}
