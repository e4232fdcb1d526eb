import { join } from 'node:path';
import { openDatabase, redactUrl } from '@argus/db';
import { pino } from 'pino';
import { startWorker } from './compose/worker';
import { loadConfig, loadDotEnv } from './config';
import { securePrivateDir } from './data-dir';
import { databaseRetry } from './database-retry';
import { createLogDestination } from './logging/log-destination';
import { startShutdownWatchdog } from './shutdown/watchdog';

// `npm run worker`: a process that takes automation jobs from the queue and holds the browsers that run
// them (docs/DEPLOYMENT.md#how-work-flows). It needs REDIS_URL and DATABASE_URL: the queue and the
// database it shares with the web processes. It serves no HTTP and holds no socket; what it says to
// users goes through Redis to whichever web process holds their sockets.
process.umask(0o077);
loadDotEnv();
const config = loadConfig();
if (!config.redisUrl || !config.databaseUrl) {
  process.stderr.write(
    'A worker needs REDIS_URL and DATABASE_URL (PostgreSQL), shared with the web processes.\n',
  );
  process.exit(2);
}
await securePrivateDir(config.dataDir);
const logs = createLogDestination(process.stdout);
const log = pino({ level: config.logLevel, base: { role: 'worker' } }, logs);
const db = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: join(config.dataDir, 'db'),
  retry: databaseRetry(config, () => log),
});
const running = await startWorker(config, db, log);
log.info(
  `Argus worker ${config.version}: taking automation jobs (database: PostgreSQL ${redactUrl(config.databaseUrl)})`,
);
if (config.logLevel === 'warn' || config.logLevel === 'error') process.stdout.write('Argus worker ready\n');

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  const watchdog = startShutdownWatchdog(config.shutdownTimeoutMs);
  log.info({ signal }, 'worker shutting down: no new jobs, the ones under way finish');
  let code = 0;
  try {
    watchdog.stage('draining the queue worker, then closing the browsers');
    await running.stop();
    watchdog.stage('closing the database');
    await db.close();
  } catch (error) {
    log.error({ err: error }, 'worker shutdown failed');
    code = 1;
  }
  await logs.flush(2_000);
  process.exit(code);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
