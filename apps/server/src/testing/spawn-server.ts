import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { seedPgliteDir } from '@argus/db';

/** Repository root, from this file's place in apps/server/src/testing. */
export const REPO_ROOT = resolve(import.meta.dirname, '../../../..');
/** The built server (`npm run build:server`; the test projects' global set-up builds it when stale). */
export const SERVER_BUNDLE = join(REPO_ROOT, 'apps/server/dist/server.js');

export interface SpawnOptions {
  /**
   * Let the server create its PGlite database itself (initdb and every migration), as a first start
   * does, instead of starting from a copy of the migrated template. @default false
   */
  freshDatabase?: boolean;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:43123 */
  url: string;
  port: number;
  dataDir: string;
  /** The server process (for CPU readings in benchmarks). */
  pid: number;
  /** Everything the process printed, for failure messages. */
  output: () => string;
  /** SIGTERM, wait for a clean exit (kills after 10 s), remove the data dir. Resolves to the exit code. */
  stop: () => Promise<number | null>;
  /** Kills the process with SIGKILL, as a crash would; keeps the data dir. */
  crash: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/**
 * The environment a test's server runs with, spawned or in-process: quiet logs, 127.0.0.1 on `port`,
 * its own `dataDir`, the embedded database unless `env` names another; `env` overrides the rest.
 */
export function testServerEnv(
  port: number,
  dataDir: string,
  env: Record<string, string | undefined>,
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    // A generation's cases are handed out unchecked unless the test asks for the check (it runs the
    // suite twice more): automation.api.test.ts and e2e/automation.e2e.test.ts do, with the default 2.
    GENERATION_CHECK_RUNS: '0',
    ...env,
  };
}

/**
 * Starts the real, built server (apps/server/dist/server.js, what `npm start` runs) as a child process
 * on a free port with its own data directory, and waits until /api/health answers. Its embedded
 * database starts as a copy of the migrated template unless the data directory already holds one.
 */
export async function spawnServer(
  env: Record<string, string | undefined> = {},
  { freshDatabase = false }: SpawnOptions = {},
): Promise<RunningServer> {
  if (!existsSync(SERVER_BUNDLE))
    throw new Error(`${SERVER_BUNDLE} is missing: run \`npm run build:server\` (the test set-up does).`);
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'argus-test-')));
  if (!freshDatabase && !env.DATABASE_URL && !existsSync(join(dataDir, 'db'))) {
    await seedPgliteDir(join(dataDir, 'db'));
  }
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
    cwd: REPO_ROOT,
    env: testServerEnv(port, dataDir, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;

  // Generous: a loaded two-core machine can take a while to open a fresh database.
  const deadline = Date.now() + 120_000;
  let ready = false;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) {
        ready = true;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`server did not become healthy:\n${output}`);
  }

  return {
    url,
    port,
    dataDir,
    pid: child.pid ?? 0,
    output: () => output,
    crash: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (!env.DATA_DIR) await rm(dataDir, { recursive: true, force: true });
      return child.exitCode;
    },
  };
}

/** What `npm run worker` runs (the test set-up builds it with the server). */
export const WORKER_BUNDLE = join(REPO_ROOT, 'apps/server/dist/worker.js');

export interface RunningWorkerProcess {
  /** The worker process (for CPU readings in benchmarks). */
  pid: number;
  /** Everything the process printed, for failure messages. */
  output: () => string;
  /** SIGTERM (the worker drains), then the exit code; SIGKILL after 30 s. */
  stop: () => Promise<number | null>;
  /** SIGKILL, as a crash of the machine would. */
  kill: () => Promise<void>;
}

/**
 * Starts the built worker (docs/DEPLOYMENT.md) as a child process beside a server on `port` with
 * `dataDir` (they share it), and waits until it says it takes jobs. `env` needs REDIS_URL and DATABASE_URL.
 */
export async function spawnWorker(
  port: number,
  dataDir: string,
  env: Record<string, string | undefined>,
): Promise<RunningWorkerProcess> {
  if (!existsSync(WORKER_BUNDLE))
    throw new Error(`${WORKER_BUNDLE} is missing: run \`npm run build:server\` (the test set-up does).`);
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', WORKER_BUNDLE], {
    cwd: REPO_ROOT,
    env: testServerEnv(port, dataDir, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const deadline = Date.now() + 60_000;
  while (!output.includes('Argus worker ready')) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`the worker did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    pid: child.pid ?? 0,
    output: () => output,
    stop: async () => {
      if (running()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await exited;
        clearTimeout(timer);
      }
      return child.exitCode;
    },
    kill: async () => {
      if (running()) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
