import type { Database } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import { loadJwtSecret } from '../auth/auth-service';
import type { Config } from '../config';
import { createRateLimits } from '../limits/rate-limits';
import type { UserChannel } from '../realtime/user-channel';
import { buildCore } from './core';
import { buildLocalWork } from './local-work';
import { buildServing, type Serving } from './serving';

/** One process (no REDIS_URL): it serves the app and does all the work over its own browsers. */
export async function composeSingle(
  config: Config,
  db: Database,
  log: FastifyBaseLogger,
  /** The user's sockets (the socket layer's hub, built first so no service is wired after construction). */
  hub: UserChannel,
): Promise<Serving> {
  const secret = await loadJwtSecret(config.dataDir, config.jwtSecret);
  const core = await buildCore(config, db, log, secret);
  const limits = createRateLimits(config);
  const local = buildLocalWork(config, core, log, hub, { uploadLimit: limits.uploadsPerUser });
  const serving = buildServing(
    config,
    core,
    local,
    {
      automation: local.automation,
      conversationFront: local.conversations,
      comparisonFront: local.comparisons,
    },
    { secret, limits, log },
  );
  // A run the previous process left running cannot finish: say so (what it recorded stays). With
  // workers, runs belong to them: a web process marks only those whose job is lost (scale/orphan-runs.ts).
  const interrupted = await core.repos.testRuns.markInterrupted();
  if (interrupted) log.warn({ interrupted }, 'marked test runs of a previous process as interrupted');
  return serving;
}
