import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { lockDirectory } from './dir-lock';
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
}

/** One SQL dialect (PostgreSQL) over two engines: embedded PGlite or a PostgreSQL server. */
export interface Database {
  kind: DatabaseKind;
  orm: Drizzle;
  /** Runs one or more statements without parameters (migrations, maintenance). */
  exec(sql: string): Promise<void>;
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
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** Emscripten's file system calls, as far as the permission hook below needs them. */
interface EmscriptenFs {
  doChmod(stream: unknown, node: unknown, mode: number, dontFollow: boolean): void;
}

/**
 * PGlite's Node file system, except that no file or directory it creates or chmods gets group or
 * other permission bits. Its WebAssembly PostgreSQL chmods new files to 0666 itself, which the
 * process umask cannot stop; this keeps the database files private (0600, directories 0700).
 */
class PrivateNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const ownerOnly = (mod: { FS: EmscriptenFs }) => {
      const doChmod = mod.FS.doChmod;
      mod.FS.doChmod = (stream, node, mode, dontFollow) =>
        doChmod.call(mod.FS, stream, node, mode & ~0o077, dontFollow);
    };
    const preRun = [ownerOnly, ...((emscriptenOpts.preRun ?? []) as unknown[])];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } as typeof emscriptenOpts };
  }
}

async function openPglite(dir?: string, dump?: Blob): Promise<Database> {
  if (dir) await mkdir(dir, { recursive: true, mode: 0o700 });
  // One process at a time on the files (a second one is refused with DatabaseInUseError).
  const unlock = dir ? await lockDirectory(dir) : async () => {};
  let client: PGlite;
  try {
    // A dump seeds only an empty directory: an existing database is never replaced.
    const loadDataDir = dump && !(dir && existsSync(join(dir, 'PG_VERSION'))) ? dump : undefined;
    client = await PGlite.create({
      ...(dir ? { fs: new PrivateNodeFS(dir) } : {}),
      ...(loadDataDir ? { loadDataDir } : {}),
    });
  } catch (error) {
    await unlock();
    throw error;
  }
  // Both drizzle drivers produce the same query builder; one type keeps repositories engine-agnostic.
  const orm = drizzlePglite({ client, schema }) as unknown as Drizzle;
  return {
    kind: 'pglite',
    orm,
    exec: async (sql) => {
      await client.exec(sql);
    },
    dump: () => client.dumpDataDir('none'),
    close: async () => {
      if (!client.closed) await client.close();
      await unlock();
    },
  };
}

async function openPostgres(url: string, retry?: RetryOptions): Promise<Database> {
  // A connection attempt gives up after 10 s (a server that does not answer at all), to be retried.
  const pool = new RetryingPool(
    // keepAlive: a connection whose server went away without a word is found dead, not waited on.
    { connectionString: url, max: 10, connectionTimeoutMillis: 10_000, keepAlive: true },
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

/** Applies every `migrations/NNNN_*.sql` not yet applied, each in its own transaction, in name order. */
export async function migrate(db: Database): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
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
