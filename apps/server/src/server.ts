import { join } from 'node:path';
import { openDatabase, redactUrl } from '@argus/db';
import { RUNNING_AS_ROOT } from '@argus/engine';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app';
import { loadConfig, loadDotEnv } from './config';
import { securePrivateDir } from './data-dir';
import { databaseRetry } from './database-retry';
import { createLogDestination } from './logging/log-destination';
import { startShutdownWatchdog } from './shutdown/watchdog';

// The process entry point: read configuration, open the database, listen, and shut down cleanly.
// Everything this process creates (database files, blobs, secrets) is readable by its user only.
process.umask(0o077);
loadDotEnv();
const config = loadConfig();
await securePrivateDir(config.dataDir);
let appLog: FastifyBaseLogger | undefined;
const db = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: join(config.dataDir, 'db'),
  retry: databaseRetry(config, () => appLog),
});
// Logs never block the process, not even at exit with nobody reading standard output (issue 12).
const logs = createLogDestination(process.stdout);
const app = await buildApp({ config, db, logStream: logs });
appLog = app.log;

/** How long the log flush at the end of a stop may wait for a slow reader; later lines are dropped. */
const LOG_FLUSH_MS = 2_000;

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  // The deadline lives in a worker thread: a main thread stuck in a synchronous call cannot hold it back.
  const watchdog = startShutdownWatchdog(config.shutdownTimeoutMs);
  app.log.info({ signal }, 'shutting down');
  let code = 0;
  try {
    watchdog.stage('closing the server (sockets, then browsers and queues)');
    await app.close(); // sockets, then every onClose hook (browsers, queues)
    watchdog.stage('closing the database');
    await db.close(); // PGlite flushes on close
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    code = 1;
  }
  watchdog.stage('flushing the logs');
  if (logs.dropped > 0)
    app.log.warn({ dropped: logs.dropped }, 'log lines dropped: standard output was not being read');
  await logs.flush(Math.min(LOG_FLUSH_MS, config.shutdownTimeoutMs));
  watchdog.stage('exiting');
  process.exit(code);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl
    ? `PostgreSQL ${redactUrl(config.databaseUrl)}`
    : `PGlite in ${config.dataDir}`;
  app.log.info(`Argus ${config.version} on http://${config.host}:${config.port} (database: ${where})`);
  if (RUNNING_AS_ROOT && !config.browserWsEndpoint) {
    app.log.warn(
      'Running as root: Chromium cannot use its sandbox, so a page that exploits the browser would run as root. ' +
        'Run Argus as an unprivileged user (see the README, "Deployment notes").',
    );
  }
  if (config.logLevel === 'warn' || config.logLevel === 'error') {
    // Tests and quiet installs still want to know where to point a browser.
    process.stdout.write(`Argus listening on http://${config.host}:${config.port}\n`);
  }
} catch (error) {
  app.log.error({ err: error }, 'could not start');
  await db.close();
  process.exit(1);
}
