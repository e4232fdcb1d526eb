import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, testEngines } from './index';
import { twoUserDatabase } from './repository-fixture';
import { projects, savedSuites, suiteComparisons } from './schema';
import { type SuiteComparisonsRepository, suiteComparisonsRepository } from './suite-comparisons';

// Regenerate-and-compare results (0020_suite_comparisons.sql): scoped to the organization, the project
// and the suite, and gone with their suite.

describe.each(testEngines())('suite comparisons on $name', ({ open }) => {
  const fixture = twoUserDatabase(open);
  let db: Database;
  let repo: SuiteComparisonsRepository;
  let alice = '';
  let bob = '';
  const project = randomUUID();
  const other = randomUUID();
  const suite = randomUUID();
  const input = () => ({
    project_id: project,
    suite_id: suite,
    suite_version: 2,
    environment_id: randomUUID(),
    engine: 'builtin',
    changes: [{ key: 'g0', kind: 'added' }],
    created_by: 'alice',
  });

  beforeAll(async () => {
    ({ db, alice, bob } = await fixture.open());
    repo = suiteComparisonsRepository(db.orm);
    await db.orm.insert(projects).values([
      { id: project, user_id: alice, name: 'Notes', kind: 'web' },
      { id: other, user_id: alice, name: 'Blog', kind: 'web' },
    ]);
    await db.orm
      .insert(savedSuites)
      .values({ id: suite, project_id: project, user_id: alice, name: 'Nightly' });
  });
  afterAll(() => fixture.close());

  it('reads a comparison back only in its organization, project and suite', async () => {
    const row = await repo.add(alice, input());
    expect(row).toMatchObject({ user_id: alice, suite_version: 2, accepted_version: null });
    expect(await repo.get(alice, project, suite, row.id)).toEqual(row);
    expect(await repo.get(bob, project, suite, row.id)).toBeUndefined();
    expect(await repo.get(alice, other, suite, row.id)).toBeUndefined();
    expect(await repo.get(alice, project, randomUUID(), row.id)).toBeUndefined();
    expect(await repo.get(alice, project, suite, 'not-a-uuid')).toBeUndefined();
    await repo.accepted(bob, row.id, 3);
    expect((await repo.get(alice, project, suite, row.id))?.accepted_version).toBeNull();
    await repo.accepted(alice, row.id, 3);
    expect((await repo.get(alice, project, suite, row.id))?.accepted_version).toBe(3);
  });

  it('goes with its suite', async () => {
    const row = await repo.add(alice, input());
    await db.orm.delete(savedSuites).where(eq(savedSuites.id, suite));
    expect(await db.orm.select().from(suiteComparisons).where(eq(suiteComparisons.id, row.id))).toEqual([]);
  });
});
