import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { lockDirectory } from './dir-lock';
import { PgliteThreadClient } from './pglite-thread/client';
import { RetryingPool, type RetryOptions } from './retrying-pool';
import * as schema from './schema';

export type Drizzle = NodePgDatabase<typeof schema>;
export type DatabaseKind = 'pglite' | 'postgresql';

export interface DatabaseOptions {
  /** PostgreSQL connection string; when unset the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Where PGlite keeps its files (`DATA_DIR/db`). */
  pgliteDir?: string;
  /**
   * A PGlite data directory dump (`Database.dump`) to start from when `pgliteDir` holds no database yet:
   * tests start each database from a migrated template instead of running initdb and every migration.
   */
  pgliteDump?: Blob;
  /**
   * PostgreSQL only: how statements wait out a server unreachable for a while (retrying-pool.ts).
   * Opening still fails at once when the server cannot be reached then.
   */
  retry?: RetryOptions;
  /**
   * Tests of a migration: apply the migrations up to this file name only (`0014_history_rollups.sql`),
   * so data can be seeded as it was before the next; `migrate` applies the rest. @default every one
   */
  migrateUntil?: string;
}

/** One SQL dialect (PostgreSQL) over two engines: embedded PGlite or a PostgreSQL server. */
export interface Database {
  kind: DatabaseKind;
  orm: Drizzle;
  /** Runs one or more statements without parameters (migrations, maintenance). */
  exec(sql: string): Promise<void>;
  /**
   * PGlite only: resolves when the database can be reached, without waiting behind a statement that
   * is running (the health check; on PostgreSQL `exec('SELECT 1')` takes a connection of its own).
   */
  ping?(): Promise<void>;
  /** PGlite only: the whole data directory as a tar, which `pgliteDump` opens again. */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');
/** Serialises migrations when several API nodes start against one PostgreSQL at once. */
const MIGRATION_LOCK_ID = 727_172_001;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.retry)
    : await openPglite(options.pgliteDir, options.pgliteDump);
  try {
    await migrate(db, options.migrateUntil);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

async function openPglite(dir?: string, dump?: Blob): Promise<Database> {
  if (dir) await mkdir(dir, { recursive: true, mode: 0o700 });
  // One process at a time on the files (a second one is refused with DatabaseInUseError). The lock is
  // this process's, whichever of its threads runs PGlite.
  const unlock = dir ? await lockDirectory(dir) : async () => {};
  let client: PgliteThreadClient;
  try {
    // PGlite runs in a worker thread, off the server's event loop (pglite-thread/client.ts).
    client = await PgliteThreadClient.open({ dir, dump });
  } catch (error) {
    await unlock();
    throw error;
  }
  // Both drizzle drivers produce the same query builder; one type keeps repositories engine-agnostic.
  // The thread's client has the part of PGlite's API drizzle-orm/pglite calls.
  const orm = drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Drizzle;
  return {
    kind: 'pglite',
    orm,
    exec: async (sql) => {
      await client.exec(sql);
    },
    ping: () => client.ping(),
    dump: () => client.dump(),
    close: async () => {
      await client.close();
      await unlock();
    },
  };
}

/**
 * The longest any statement may run on PostgreSQL, background work included (a request's own limit,
 * DATABASE_STATEMENT_TIMEOUT_MS, is far shorter: retrying-pool.ts): generous, so that no migration,
 * sweep batch or rebuild is stopped by it, but a statement left behind by a process that died ends
 * within it instead of running on for nobody (docs/HISTORY.md#limits).
 */
export const STATEMENT_BACKSTOP_MS = 10 * 60_000;

async function openPostgres(url: string, retry?: RetryOptions): Promise<Database> {
  // A connection attempt gives up after 10 s (a server that does not answer at all), to be retried.
  const pool = new RetryingPool(
    {
      connectionString: url,
      max: 10,
      connectionTimeoutMillis: 10_000,
      // keepAlive: a connection whose server went away without a word is found dead, not waited on.
      keepAlive: true,
      // Each session's default (what a request's limit is RESET to afterwards).
      statement_timeout: STATEMENT_BACKSTOP_MS,
    },
    retry,
  );
  // Fail fast with a readable message rather than at the first request: the callback form is not retried.
  await new Promise<void>((resolve, reject) =>
    pool.connect((error: Error | undefined, client: pg.PoolClient | undefined, release: () => void) => {
      if (error || !client) {
        pool
          .end()
          .catch(() => undefined)
          .finally(() =>
            reject(new Error(`Cannot connect to PostgreSQL (${redactUrl(url)}): ${error?.message}`)),
          );
        return;
      }
      release();
      resolve();
    }),
  );
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  const orm = drizzlePg({ client: pool, schema });
  const transaction = orm.transaction.bind(orm);
  orm.transaction = ((run, config) =>
    pool.beginAgain(() => transaction(run, config))) as typeof orm.transaction;
  let closed = false;
  return {
    kind: 'postgresql',
    orm,
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<invalid url>';
  }
}

/**
 * Applies every `migrations/NNNN_*.sql` not yet applied, each in its own transaction, in name order
 * (`until`: only those named up to it, for a migration's own test).
 */
export async function migrate(db: Database, until?: string): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR))
    .filter((f) => f.endsWith('.sql') && (until === undefined || f <= until))
    .sort();
  const applied: string[] = [];
  if (db.kind === 'postgresql') await db.exec(`SELECT pg_advisory_lock(${MIGRATION_LOCK_ID})`);
  try {
    await db.exec(
      'CREATE TABLE IF NOT EXISTS argus_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = (await db.orm.execute('SELECT name FROM argus_migrations')) as unknown as {
      rows: { name: string }[];
    };
    const done = new Set(rows.map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(join(MIGRATIONS_DIR, file), 'utf8');
      const name = file.replaceAll("'", "''");
      await db.exec(`BEGIN;\n${sql}\nINSERT INTO argus_migrations (name) VALUES ('${name}');\nCOMMIT;`);
      applied.push(file);
    }
  } catch (error) {
    await db.exec('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    if (db.kind === 'postgresql') await db.exec(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
  }
  return applied;
}
