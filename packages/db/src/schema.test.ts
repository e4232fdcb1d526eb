import { is, sql } from 'drizzle-orm';
import { integer, PgTable, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database';
import * as schema from './schema';
import { type Catalog, catalogDiff, readCatalog, tablesDdl } from './schema-drift';
import { testEngines } from './testing';

// schema.ts mirrors the migrations by hand (the migrations are the truth, schema.ts types the queries):
// here every migration runs on an empty database and what it made is compared with schema.ts's tables,
// made again beside it, column by column, index by index, constraint by constraint.

/** Tables the migrations make that schema.ts leaves out on purpose. */
const NOT_MIRRORED = [
  // migrate()'s own record of what it applied (database.ts).
  'argus_migrations',
  // analytics.ts reads and writes the day summaries in raw SQL only (0012_analytics_days.sql): their
  // columns are listed once there (CASE_DAY_COLUMNS), and their COLLATE "C" has no Drizzle spelling.
  'analytics_days',
  'analytics_case_days',
  'analytics_step_days',
];

const tables = Object.values(schema as Record<string, unknown>).filter((value): value is PgTable =>
  is(value, PgTable),
);

describe.each(testEngines({ fresh: true }))('schema.ts against the migrations on $name', ({ open }) => {
  let db: Database;
  let drop: () => Promise<void>;
  let migrated: Catalog;
  let mirrors = 0;

  /** schema.ts's tables (or a changed copy of them) made in a schema of their own, read back. */
  const declared = async (of: PgTable[]): Promise<Catalog> => {
    const name = `schema_ts_${mirrors++}`;
    await db.exec(tablesDdl(of, name));
    return readCatalog(db, name);
  };

  beforeAll(async () => {
    ({ db, drop } = await open());
    migrated = await readCatalog(db, 'public', NOT_MIRRORED);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('declares every table, column, type, nullability, default, index and constraint the migrations make', async () => {
    expect(Object.keys(migrated).length).toBeGreaterThan(20);
    expect(catalogDiff(migrated, await declared(tables))).toEqual([]);
  });

  it('names the table and the column or index where schema.ts drifts', async () => {
    const diff = catalogDiff(
      migrated,
      await declared(tables.map((table) => (table === schema.users ? driftedUsers : table))),
    );
    expect(diff).toEqual(
      expect.arrayContaining([
        'users.email: text NOT NULL in the migrations, integer in schema.ts',
        'users.password_changed_at: timestamp with time zone NOT NULL DEFAULT now() in the migrations, timestamp with time zone NOT NULL in schema.ts',
        'users.nickname: absent in the migrations, text in schema.ts',
        'users index users_email_lower_key: CREATE UNIQUE INDEX users_email_lower_key ON users USING btree (lower(email)) in the migrations, absent in schema.ts',
      ]),
    );
    expect(diff.filter((line) => !line.startsWith('users'))).toEqual([]);
  });
});

const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** schema.users with planted drift: a type, a nullability, a default, a column and an index. */
const driftedUsers = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    username: text('username').notNull(),
    email: integer('email'),
    full_name: text('full_name'),
    password_hash: text('password_hash').notNull(),
    password_changed_at: time('password_changed_at').notNull(),
    created_at: time('created_at').notNull().defaultNow(),
    updated_at: time('updated_at').notNull().defaultNow(),
    nickname: text('nickname'),
  },
  (t) => [uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`)],
);
