import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from './database';

/**
 * Makes a throw-away database on the PostgreSQL server `adminUrl` points at, so each test file gets a
 * clean schema and parallel files never meet. Returns its URL and a function that drops it.
 */
export async function createScratchDatabase(
  adminUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `argus_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
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
 * database per open) when TEST_DATABASE_URL is set, as CI sets it.
 */
export function testEngines(): TestEngine[] {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const engines: TestEngine[] = [
    { name: 'pglite', open: async () => ({ db: await openDatabase({}), drop: async () => {} }) },
  ];
  if (pgUrl) {
    engines.push({
      name: 'postgresql',
      open: async () => {
        const scratch = await createScratchDatabase(pgUrl);
        return { db: await openDatabase({ databaseUrl: scratch.url }), drop: scratch.drop };
      },
    });
  }
  return engines;
}
