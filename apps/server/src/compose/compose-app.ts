import type { Database } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { RealtimeHub } from '../ws/realtime-hub';
import type { Serving } from './serving';
import { composeSingle } from './single';
import { composeWeb } from './web';

/**
 * The one place a process serving the app is told apart: with REDIS_URL a web process whose work is
 * queued for workers (web.ts), else one process doing all the work (single.ts). Workers: worker.ts.
 */
export function composeApp(
  config: Config,
  db: Database,
  log: FastifyBaseLogger,
  hub: RealtimeHub,
): Promise<Serving> {
  return config.redisUrl
    ? composeWeb(config, db, log, hub, config.redisUrl)
    : composeSingle(config, db, log, hub);
}
