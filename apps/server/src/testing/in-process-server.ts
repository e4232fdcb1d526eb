import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, seedPgliteDir } from '@argus/db';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { freePort, type RunningServer, testServerEnv } from './spawn-server';

export interface InProcessServer extends RunningServer {
  /** The app itself: `app.inject()` reaches the routes without a socket (testing/api-targets.ts `client`). */
  app: FastifyInstance;
}

/**
 * The whole server (`buildApp`, as server.ts builds it) inside the test's own process, listening on a
 * free 127.0.0.1 port for real HTTP and WebSocket clients, on a copy of the migrated template
 * database. What a spawned process adds (signals, exit codes, the process's log destination, file
 * modes under its umask, a crash) is tested with `spawnServer`; everything else runs here, in a
 * fraction of a process start (docs/TESTING.md).
 */
export async function startInProcess(env: Record<string, string | undefined> = {}): Promise<InProcessServer> {
  const port = await freePort();
  const ownDataDir = !env.DATA_DIR;
  const dataDir = env.DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'argus-test-')));
  const config = loadConfig(testServerEnv(port, dataDir, env));
  const pgliteDir = join(dataDir, 'db');
  if (!config.databaseUrl && !existsSync(pgliteDir)) await seedPgliteDir(pgliteDir);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir });
  let output = '';
  let app: FastifyInstance;
  try {
    app = await buildApp({ config, db, logStream: { write: (line: string) => (output += line) } });
    await app.listen({ port, host: '127.0.0.1' });
  } catch (error) {
    await db.close();
    throw error;
  }
  let stopped: Promise<number> | undefined;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    pid: process.pid,
    output: () => output,
    stop: () => {
      stopped ??= (async () => {
        let code = 0;
        try {
          // The tests are over: connections a client keeps alive would otherwise hold the close for
          // Fastify's keepAliveTimeout (72 s). Fastify closes only idle ones, and one of `fetch`'s
          // pooled connections was not always idle yet (screenshots.api.test.ts waited 70 s after
          // app.test.ts ran first in the same worker). Sockets are no longer in this list.
          const closing = app.close();
          app.server.closeAllConnections();
          await closing;
          await db.close();
        } catch (error) {
          output += `shutdown failed: ${error instanceof Error ? error.stack : error}\n`;
          code = 1;
        }
        if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
        return code;
      })();
      return stopped;
    },
    crash: async () => {
      throw new Error('An in-process server cannot crash like a process: use spawnServer for that test.');
    },
  };
}
