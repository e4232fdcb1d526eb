import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { type AddressInfo, connect, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { type Database, MIGRATIONS_DIR, openDatabase } from './database';

// Test databases start from a migrated template rather than an empty database plus every migration
// (docs/TESTING.md): PGlite's initdb alone takes seconds on a small machine, and the suite opens
// hundreds of databases. A template is keyed by the migrations' contents and the engine's version,
// so a new migration makes a new template and no test ever sees a stale schema.

/** Where the PGlite templates live between runs (the OS temp dir: safe to delete at any time). */
const TEMPLATE_ROOT = join(tmpdir(), 'argus-db-templates');

let keyPromise: Promise<string> | undefined;
/** The migrations' names and contents and PGlite's version, hashed: what a template depends on. */
export function templateKey(): Promise<string> {
  keyPromise ??= (async () => {
    const hash = createHash('sha256');
    hash.update(await pgliteVersion());
    for (const file of (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort()) {
      hash.update(`\0${file}\0`);
      hash.update(await readFile(join(MIGRATIONS_DIR, file)));
    }
    return hash.digest('hex').slice(0, 16);
  })();
  return keyPromise;
}

/** The installed PGlite's version (its package.json is not exported, so found above its entry). */
async function pgliteVersion(): Promise<string> {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')).version ?? 'unknown';
}

let dumpPromise: Promise<Blob> | undefined;
/**
 * A migrated, empty PGlite database as a tar dump, made once per template key and kept on disk, so
 * parallel test processes and later runs reuse it. Written under a unique name and renamed into
 * place, so a reader never sees half a file.
 */
export function migratedPgliteDump(): Promise<Blob> {
  dumpPromise ??= (async () => {
    const file = join(TEMPLATE_ROOT, `pglite-${await templateKey()}.tar`);
    if (!existsSync(file)) {
      const db = await openDatabase({});
      let tar: Blob;
      try {
        if (!db.dump) throw new Error('PGlite database without dump()');
        tar = await db.dump();
      } finally {
        await db.close();
      }
      await mkdir(TEMPLATE_ROOT, { recursive: true });
      const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
      await writeFile(partial, Buffer.from(await tar.arrayBuffer()));
      await rename(partial, file);
    }
    return new Blob([await readFile(file)]);
  })();
  return dumpPromise;
}

/** An in-memory PGlite database, migrated: opened from the template dump. */
export async function openMigratedPglite(): Promise<Database> {
  return openDatabase({ pgliteDump: await migratedPgliteDump() });
}

let dirPromise: Promise<string> | undefined;
/** A migrated PGlite data directory (the template dump opened once on disk), for copying. */
function migratedPgliteDir(): Promise<string> {
  dirPromise ??= (async () => {
    const dir = join(TEMPLATE_ROOT, `pglite-${await templateKey()}`);
    if (!existsSync(join(dir, 'PG_VERSION'))) {
      const partial = `${dir}.${process.pid}-${randomBytes(4).toString('hex')}`;
      const db = await openDatabase({ pgliteDir: partial, pgliteDump: await migratedPgliteDump() });
      await db.close();
      // Another process may have put its copy in place first: theirs is as good as ours.
      await rename(partial, dir).catch(() => rm(partial, { recursive: true, force: true }));
    }
    return dir;
  })();
  return dirPromise;
}

/**
 * Puts a migrated PGlite database at `dir` (a server's `DATA_DIR/db`), copied from the template, so a
 * server started on it opens an up-to-date database at once. `dir` must not exist yet.
 */
export async function seedPgliteDir(dir: string): Promise<void> {
  await cp(await migratedPgliteDir(), dir, { recursive: true, errorOnExist: true, force: false });
}

/** Serialises template creation across processes that share one PostgreSQL server. */
const TEMPLATE_LOCK_ID = 727_172_002;

const templatePromises = new Map<string, Promise<string>>();
/**
 * A migrated template database on the server `adminUrl` names, made once per template key under an
 * advisory lock (parallel test processes wait for the first), migrated under a temporary name and
 * renamed when done, so nobody copies a half-migrated template. Older templates are dropped.
 */
function postgresTemplate(adminUrl: string): Promise<string> {
  let made = templatePromises.get(adminUrl);
  if (!made) {
    made = (async () => {
      const name = `argus_template_${await templateKey()}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        await admin.query(`SELECT pg_advisory_lock(${TEMPLATE_LOCK_ID})`);
        const { rows } = await admin.query<{ datname: string }>(
          "SELECT datname FROM pg_database WHERE datname LIKE 'argus\\_template\\_%'",
        );
        if (!rows.some((r) => r.datname === name)) {
          const partial = `${name}_partial`;
          await admin.query(`DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`);
          await admin.query(`CREATE DATABASE ${partial}`);
          const url = new URL(adminUrl);
          url.pathname = `/${partial}`;
          const db = await openDatabase({ databaseUrl: url.toString() });
          await db.close();
          await admin.query(`ALTER DATABASE ${partial} RENAME TO ${name}`);
        }
        for (const { datname } of rows)
          if (datname !== name && !datname.endsWith('_partial'))
            await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
      } finally {
        await admin.query(`SELECT pg_advisory_unlock(${TEMPLATE_LOCK_ID})`).catch(() => undefined);
        await admin.end();
      }
      return name;
    })();
    templatePromises.set(adminUrl, made);
    made.catch(() => templatePromises.delete(adminUrl));
  }
  return made;
}

/**
 * Makes a throw-away database on the PostgreSQL server `adminUrl` points at, so each test file gets a
 * clean schema and parallel files never meet. With `migrated` (the default) it is a copy of the
 * migrated template; without, an empty database. Returns its URL and a function that drops it.
 */
export async function createScratchDatabase(
  adminUrl: string,
  { migrated = true }: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = migrated ? await postgresTemplate(adminUrl) : undefined;
  const name = `argus_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** One database engine a test runs against: open gives a fresh database and a way to drop it. */
export interface TestEngine {
  name: 'pglite' | 'postgresql';
  open: () => Promise<{ db: Database; drop: () => Promise<void> }>;
}

/**
 * The engines a repository test should pass on: the embedded PGlite always, and PostgreSQL (a scratch
 * database per open) when TEST_DATABASE_URL is set, as CI sets it. Each open starts from the migrated
 * template; `fresh` runs every migration on an empty database instead (the migrations' own tests).
 */
export function testEngines({ fresh = false }: { fresh?: boolean } = {}): TestEngine[] {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const engines: TestEngine[] = [
    {
      name: 'pglite',
      open: async () => ({
        db: fresh ? await openDatabase({}) : await openMigratedPglite(),
        drop: async () => {},
      }),
    },
  ];
  if (pgUrl) {
    engines.push({
      name: 'postgresql',
      open: async () => {
        const scratch = await createScratchDatabase(pgUrl, { migrated: !fresh });
        return { db: await openDatabase({ databaseUrl: scratch.url }), drop: scratch.drop };
      },
    });
  }
  return engines;
}

/**
 * A TCP relay on 127.0.0.1 in front of the PostgreSQL at `url`, whose `cut` makes the server
 * unreachable as an outage does (every open connection reset, new ones refused) until `restore`
 * listens again on the same port. `url` through it is `proxied`.
 *
 * `cut({ betweenStatements: true })` waits for a moment when no statement is on its way or running
 * and no transaction is open on any connection (each has had its last answer, ending in
 * ReadyForQuery with status idle), then cuts: a test that means "the server went away between two
 * statements" is then not at the mercy of timing, as a write cut in flight fails by design
 * (retrying-pool.ts).
 */
export async function startPostgresCut(url: string): Promise<{
  proxied: string;
  cut: (options?: { betweenStatements?: boolean }) => Promise<void>;
  restore: () => Promise<void>;
  close: () => Promise<void>;
}> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  /** Per client connection: whether its last answer was ReadyForQuery, idle, with nothing sent since. */
  const idle = new Map<Socket, boolean>();
  // ReadyForQuery: 'Z', length 5, status 'I' (idle, no transaction open).
  const readyIdle = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
  const server = createNetServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    idle.set(client, false);
    client.on('data', () => idle.set(client, false));
    upstream.on('data', (chunk: Buffer) => {
      if (chunk.length >= readyIdle.length && chunk.subarray(-readyIdle.length).equals(readyIdle))
        idle.set(client, true);
    });
    client.on('close', () => idle.delete(client));
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  const cut = async (options: { betweenStatements?: boolean } = {}) => {
    if (options.betweenStatements) {
      const deadline = Date.now() + 10_000;
      while ([...idle.values()].some((quiet) => !quiet)) {
        if (Date.now() > deadline) throw new Error('no moment between statements within 10 s');
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    // From the check on, nothing yields until every socket is reset.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.resetAndDestroy();
    await closed;
  };
  return {
    proxied: proxied.toString(),
    cut,
    restore: () => listen(port),
    close: async () => {
      if (server.listening) await cut();
    },
  };
}
