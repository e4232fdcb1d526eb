import { join } from 'node:path';
import { openDatabase, redactUrl } from '@argus/db';
import { RUNNING_AS_ROOT } from '@argus/engine';
import { buildApp } from './app';
import { loadConfig, loadDotEnv } from './config';
import { securePrivateDir } from './data-dir';

// The process entry point: read configuration, open the database, listen, and shut down cleanly.
// Everything this process creates (database files, blobs, secrets) is readable by its user only.
process.umask(0o077);
loadDotEnv();
const config = loadConfig();
await securePrivateDir(config.dataDir);
const db = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: join(config.dataDir, 'db') });
const app = await buildApp({ config, db });

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    app.log.error('shutdown took over 15 s; exiting');
    process.exit(1);
  }, 15_000);
  force.unref();
  try {
    await app.close(); // sockets, then every onClose hook (browsers, queues)
    await db.close(); // PGlite flushes on close
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
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
