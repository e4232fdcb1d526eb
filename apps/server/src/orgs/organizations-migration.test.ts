/**
 * 0015_organizations on a database holding what Argus held before it: users, projects with an
 * environment, a variable and a secret, a saved suite, a run with its result, an API token. After the
 * migration every row is reachable by its owner through their personal organization (whose id is
 * theirs), nothing moved or was lost, the secret still decrypts, and the token still works in it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createScratchDatabase, type Database, migrate, openDatabase, repositories } from '@argus/db';
import { describe, expect, it } from 'vitest';
import { secretContext } from '../projects/variables';
import { Secrets } from '../security/secrets';

const BEFORE = '0014_history_rollups.sql';

async function openBefore(engine: 'pglite' | 'postgresql') {
  if (engine === 'pglite') return { db: await openDatabase({ migrateUntil: BEFORE }), drop: async () => {} };
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL as string, { migrated: false });
  return { db: await openDatabase({ databaseUrl: scratch.url, migrateUntil: BEFORE }), drop: scratch.drop };
}

/** What one user owned before organizations, written as the code of then wrote it. */
async function seedOld(db: Database, secrets: Secrets, name: string) {
  const user = randomUUID();
  const project = randomUUID();
  const env = randomUUID();
  const suite = randomUUID();
  const run = randomUUID();
  // The rows as SQL of the schema before 0015 (the repositories of today write its columns too).
  const run_sql = (text: string) => db.exec(text);
  const sql = (parts: TemplateStringsArray, ...values: string[]) =>
    parts.reduce(
      (text, part, i) => `${text}${part}${i < values.length ? `'${values[i].replaceAll("'", "''")}'` : ''}`,
      '',
    );
  await run_sql(
    sql`INSERT INTO users (id, username, email, password_hash) VALUES (${user}, ${name}, ${`${name}@example.com`}, 'x')`,
  );
  await run_sql(
    sql`INSERT INTO projects (id, user_id, name) VALUES (${project}, ${user}, ${`${name}'s shop`})`,
  );
  await run_sql(sql`INSERT INTO environments (id, project_id, user_id, name, base_url, is_default)
    VALUES (${env}, ${project}, ${user}, 'staging', 'https://staging.example.com', true)`);
  const enc = secrets.encrypt(`${name}-password`, secretContext(project, env, 'PASSWORD'));
  await run_sql(sql`INSERT INTO project_variables (id, project_id, user_id, environment_id, name, secret, value, value_enc)
    VALUES (${randomUUID()}, ${project}, ${user}, ${env}, 'PASSWORD', true, NULL, ${enc})`);
  await run_sql(sql`INSERT INTO saved_suites (id, project_id, user_id, name, version, test_cases)
    VALUES (${suite}, ${project}, ${user}, 'Smoke', 1, '[]'::jsonb)`);
  await run_sql(sql`INSERT INTO test_runs (id, user_id, url, status, project_id, suite_id, total_tests, passed_tests)
    VALUES (${run}, ${user}, 'https://staging.example.com', 'completed', ${project}, ${suite}, 1, 1)`);
  await run_sql(sql`INSERT INTO test_results (id, test_run_id, user_id, test_case_name, status)
    VALUES (${randomUUID()}, ${run}, ${user}, 'Home page loads', 'passed')`);
  await run_sql(sql`INSERT INTO api_tokens (id, user_id, name, scope, token_hash, hint)
    VALUES (${randomUUID()}, ${user}, 'CI', 'run', ${`hash-${name}`}, 'argus_ab')`);
  return { user, project, env, suite, run };
}

const engines = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgresql' as const] : [])] as const;

describe.each(engines)('0015_organizations on %s', (engine) => {
  it('moves what each user owned into their personal organization: every row reachable, the secret decrypts', async () => {
    const { db, drop } = await openBefore(engine);
    const secrets = new Secrets(randomBytes(32));
    try {
      const ann = await seedOld(db, secrets, 'ann');
      const ben = await seedOld(db, secrets, 'ben');
      expect(await migrate(db)).toContain('0015_organizations.sql');
      const repos = repositories(db);
      for (const [name, old] of [
        ['ann', ann],
        ['ben', ben],
      ] as const) {
        const orgs = await repos.organizations.forUser(old.user);
        expect(orgs.map((o) => [o.org.id, o.org.name, o.org.personal, o.role])).toEqual([
          [old.user, name, true, 'owner'],
        ]);
        const projects = await repos.projects.list(old.user);
        expect(projects.map((p) => p.id)).toEqual([old.project]);
        const [variable] = await repos.projects.variables(old.user, old.project);
        expect(
          secrets.decrypt(variable.value_enc ?? '', secretContext(old.project, old.env, 'PASSWORD')),
        ).toBe(`${name}-password`);
        expect((await repos.projects.suites(old.user, old.project)).map((s) => s.suite.id)).toEqual([
          old.suite,
        ]);
        const run = await repos.testRuns.get(old.user, old.run);
        expect([run?.status, run?.started_by]).toEqual(['completed', null]);
        expect((await repos.testRuns.results(old.user, old.run)).map((r) => r.test_case_name)).toEqual([
          'Home page loads',
        ]);
        const [token] = await repos.apiTokens.list(old.user, old.user);
        expect([token.name, token.org_id]).toEqual(['CI', old.user]);
        expect((await repos.apiTokens.findByHash(`hash-${name}`))?.user.id).toBe(old.user);
      }
      // Each owner's data stays theirs alone.
      expect(await repos.projects.list(ann.user)).not.toContainEqual(
        expect.objectContaining({ id: ben.project }),
      );
      expect(await repos.testRuns.get(ann.user, ben.run)).toBeUndefined();
      // A user made after it gets a personal organization too.
      const cat = await repos.users.create({ username: 'cat', email: 'cat@example.com', password_hash: 'x' });
      expect((await repos.organizations.forUser(cat.id)).map((o) => [o.org.id, o.role])).toEqual([
        [cat.id, 'owner'],
      ]);
    } finally {
      await db.close();
      await drop();
    }
  }, 120_000);
});
