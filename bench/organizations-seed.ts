import { createHash } from 'node:crypto';
import { type Database, repositories, withStatementScope } from '@argus/db';
import { sql } from 'drizzle-orm';

// The seed of bench/organizations.bench.ts: organizations and their members, written in bulk SQL.

const ROLES = ['owner', 'admin', 'editor', 'runner', 'viewer'] as const;

/** The uuid the seed gives `name` (PostgreSQL's `md5(name)::uuid`), so the bench knows the ids. */
export const uuidOf = (name: string) =>
  createHash('md5')
    .update(name)
    .digest('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
/** The `i`th member (from 1), a user of their own. */
export const userName = (i: number) => `bench-member-${i}`;
/** The `o`th team organization (from 1): members (o - 1) × perOrg + 1 to o × perOrg. */
export const orgName = (o: number) => `bench-org-${o}`;

/**
 * `orgs` team organizations × `perOrg` members, the roles in turn (owner, admin, editor, runner, viewer,
 * owner…); every member a user of their own with their personal organization (whose id is theirs, of
 * which they are the owner), as registration makes them; then ANALYZE, as the server's maintenance
 * (PGlite) or autovacuum (PostgreSQL) would. The users have no password: the bench signs their tokens.
 */
export async function seedOrganizations(db: Database, orgs: number, perOrg: number): Promise<void> {
  const users = orgs * perOrg;
  await db.exec(`
    INSERT INTO users (id, username, email, password_hash, password_changed_at, created_at, updated_at)
    SELECT md5('bench-member-' || i)::uuid, 'bench-member-' || i, 'bench-member-' || i || '@example.test',
           'not a password hash: these users sign in with tokens the bench makes', now() - interval '1 day',
           now() - interval '1 day', now() - interval '1 day'
    FROM generate_series(1, ${users}) AS i;
    INSERT INTO organizations (id, name, personal)
    SELECT md5('bench-member-' || i)::uuid, 'bench-member-' || i, true FROM generate_series(1, ${users}) AS i;
    INSERT INTO memberships (org_id, user_id, role)
    SELECT md5('bench-member-' || i)::uuid, md5('bench-member-' || i)::uuid, 'owner'
    FROM generate_series(1, ${users}) AS i;
    INSERT INTO organizations (id, name)
    SELECT md5('bench-org-' || o)::uuid, 'bench-org-' || o FROM generate_series(1, ${orgs}) AS o;
    INSERT INTO memberships (org_id, user_id, role)
    SELECT md5('bench-org-' || o)::uuid, md5('bench-member-' || ((o - 1) * ${perOrg} + m))::uuid,
           (ARRAY['${ROLES.join("','")}'])[1 + (m - 1) % 5]
    FROM generate_series(1, ${orgs}) AS o, generate_series(1, ${perOrg}) AS m;
    ANALYZE;`);
}

/**
 * EXPLAIN ANALYZE of the lookup `OrgAccess.forLogin` makes (packages/db/src/organizations.ts
 * `membership`, as drizzle writes it), the third time it is asked: the first two fill the session's
 * catalog caches, which would otherwise count in the planning time.
 */
export async function explainLookup(db: Database, orgId: string, userId: string): Promise<string> {
  const query = sql.raw(`EXPLAIN (ANALYZE, COSTS OFF)
    SELECT "organizations"."id", "organizations"."name", "organizations"."personal", "organizations"."sso_domain",
      "organizations"."sso_role", "organizations"."sso_required", "organizations"."created_at",
      "organizations"."updated_at", "memberships"."role"
    FROM "memberships" INNER JOIN "organizations" ON "organizations"."id" = "memberships"."org_id"
    WHERE ("memberships"."org_id" = '${orgId}' AND "memberships"."user_id" = '${userId}')`);
  let rows: Record<string, string>[] = [];
  for (let i = 0; i < 3; i++) rows = ((await db.orm.execute(query)) as unknown as { rows: typeof rows }).rows;
  return rows.map((row) => Object.values(row)[0]).join('\n');
}

/**
 * What one statement costs this engine's caller, each made alone (one caller, `count` times one after
 * another) in a request's statement limits as the server makes them: `SELECT 1`, the lookup
 * (`membership`), and the user's lookup every signed-in request also makes (`users.findById`). Mean
 * milliseconds of wall time each.
 */
export async function timeStatements(db: Database, pairs: [orgId: string, userId: string][], count = 1_000) {
  const repos = repositories(db);
  const scope = () => ({
    signal: new AbortController().signal,
    deadline: Date.now() + 30_000,
    timeoutMs: 30_000,
  });
  const ways = {
    'SELECT 1': async () => {
      await db.orm.execute(sql`SELECT 1`);
    },
    membership: (orgId: string, userId: string) => repos.organizations.membership(orgId, userId),
    'users.findById': (_orgId: string, userId: string) => repos.users.findById(userId),
  };
  const means: Record<string, number> = {};
  for (const [name, way] of Object.entries(ways)) {
    for (let i = 0; i < count / 10; i++)
      await withStatementScope(scope(), () => way(...pairs[i % pairs.length]));
    const started = performance.now();
    for (let i = 0; i < count; i++) await withStatementScope(scope(), () => way(...pairs[i % pairs.length]));
    means[name] = (performance.now() - started) / count;
  }
  return means;
}
