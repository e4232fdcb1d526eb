import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, testEngines } from './index';
import { type TwoUsers, twoUserDatabase } from './repository-fixture';
import { projectVariables } from './schema';

const env = (name: string, base_url: string, is_default = false) => ({ name, base_url, is_default });

describe.each(testEngines())('projects repository on $name', ({ open }) => {
  let db: Database;
  let repos: TwoUsers['repos'];
  let alice: string;
  let bob: string;
  const fixture = twoUserDatabase(open);
  beforeAll(async () => {
    ({ db, repos, alice, bob } = await fixture.open());
  }, 60_000);
  afterAll(fixture.close);

  const shop = (userId: string, name = 'Shop') =>
    repos.projects.create(userId, {
      name,
      description: 'the shop',
      kind: 'web',
      environments: [
        env('Production', 'https://shop.example', true),
        env('Staging', 'https://staging.shop.example'),
      ],
    });

  it('creates a project with its environments in the order given, login none', async () => {
    const { project, environments } = await shop(alice);
    expect(project).toMatchObject({ user_id: alice, name: 'Shop', kind: 'web', login: { mode: 'none' } });
    expect(environments.map((e) => [e.name, e.is_default])).toEqual([
      ['Production', true],
      ['Staging', false],
    ]);
    const back = await repos.projects.get(alice, project.id);
    expect(back?.environments.map((e) => e.id)).toEqual(environments.map((e) => e.id));
  });

  it("answers nothing for another user's project, for ids that are not uuids, on every read", async () => {
    const { project, environments } = await shop(alice, 'Private');
    expect(await repos.projects.get(bob, project.id)).toBeUndefined();
    expect(await repos.projects.get(alice, 'not-a-uuid')).toBeUndefined();
    expect(await repos.projects.environment(bob, project.id, environments[0].id)).toBeUndefined();
    expect(await repos.projects.variables(bob, project.id)).toEqual([]);
    expect(await repos.projects.suites(bob, project.id)).toEqual([]);
    expect(await repos.projects.edit(bob, project.id, async () => 'ran')).toBeUndefined();
    expect(await repos.projects.delete(bob, project.id)).toBe(false);
    expect((await repos.projects.list(bob)).map((p) => p.id)).not.toContain(project.id);
    expect(await repos.projects.get(alice, project.id)).toBeDefined();
  });

  it('does not reach an environment of the same user under another project', async () => {
    const one = await shop(alice, 'One');
    const two = await shop(alice, 'Two');
    expect(await repos.projects.environment(alice, one.project.id, two.environments[0].id)).toBeUndefined();
    const result = await repos.projects.edit(alice, one.project.id, async (scope) => ({
      updated: await scope.updateEnvironment(two.environments[0].id, { name: 'Taken' }),
      deleted: await scope.deleteEnvironment(two.environments[1].id),
    }));
    expect(result).toEqual({ updated: undefined, deleted: false });
    expect((await repos.projects.get(alice, two.project.id))?.environments.map((e) => e.name)).toEqual([
      'Production',
      'Staging',
    ]);
  });

  it('lists projects last changed first; a change under the project touches it', async () => {
    const older = await shop(bob, 'Older');
    const newer = await shop(bob, 'Newer');
    expect((await repos.projects.list(bob)).map((p) => p.name)).toEqual(['Newer', 'Older']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await repos.projects.edit(bob, older.project.id, async (scope) => {
      await scope.touch();
      return null;
    });
    expect((await repos.projects.list(bob)).map((p) => p.name)).toEqual(['Older', 'Newer']);
    expect(newer.project.user_id).toBe(bob);
  });

  it('keeps one default per project: makeDefault moves it, a second default row is refused', async () => {
    const { project, environments } = await shop(alice, 'Defaults');
    await repos.projects.edit(alice, project.id, async (scope) => {
      await scope.makeDefault(environments[1].id);
      return null;
    });
    expect((await repos.projects.get(alice, project.id))?.environments.map((e) => e.is_default)).toEqual([
      false,
      true,
    ]);
    const second = repos.projects.edit(alice, project.id, (scope) =>
      scope.addEnvironment(env('QA', 'https://qa.shop.example', true)),
    );
    await expect(second).rejects.toThrow();
    // Same name in another case: one environment to whoever picks it.
    const sameName = repos.projects.edit(alice, project.id, (scope) =>
      scope.addEnvironment(env('staging', 'https://other.shop.example')),
    );
    await expect(sameName).rejects.toThrow();
    const added = await repos.projects.edit(alice, project.id, (scope) =>
      scope.addEnvironment(env('QA', 'https://qa.shop.example')),
    );
    const after = await repos.projects.get(alice, project.id);
    expect(after?.environments.map((e) => e.name)).toEqual(['Production', 'Staging', 'QA']);
    expect(after?.environments.at(-1)?.id).toBe(added?.id);
  });

  it('undoes every write of an edit whose work throws', async () => {
    const { project, environments } = await shop(alice, 'Undo');
    const failing = repos.projects.edit(alice, project.id, async (scope) => {
      await scope.deleteEnvironment(environments[1].id);
      await scope.update({ name: 'Renamed' });
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    const back = await repos.projects.get(alice, project.id);
    expect(back?.project.name).toBe('Undo');
    expect(back?.environments).toHaveLength(2);
  });

  it('upserts variables per scope and name; a secret keeps only its ciphertext', async () => {
    const { project, environments } = await shop(alice, 'Variables');
    const [production, staging] = environments;
    const saved = await repos.projects.edit(alice, project.id, async (scope) => {
      const base = await scope.saveVariable({
        environment_id: null,
        name: 'USER',
        secret: false,
        value: 'alice',
      });
      const own = await scope.saveVariable({
        environment_id: staging.id,
        name: 'USER',
        secret: false,
        value: 'qa-alice',
      });
      const secret = await scope.saveVariable({
        environment_id: production.id,
        name: 'PASSWORD',
        secret: true,
        value_enc: 'iv.tag.cipher',
      });
      const replaced = await scope.saveVariable({
        environment_id: null,
        name: 'USER',
        secret: true,
        value_enc: 'iv.tag.other',
      });
      return { base, own, secret, replaced };
    });
    expect(saved?.replaced.id).toBe(saved?.base.id);
    expect(saved?.replaced).toMatchObject({ secret: true, value: null, value_enc: 'iv.tag.other' });
    expect(saved?.own.id).not.toBe(saved?.base.id);
    const listed = await repos.projects.variables(alice, project.id);
    expect(listed.map((v) => [v.environment_id, v.name])).toEqual([
      [null, 'USER'],
      ...[
        [production.id, 'PASSWORD'],
        [staging.id, 'USER'],
      ].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    ]);
    // Deleting an environment deletes its values.
    await repos.projects.edit(alice, project.id, (scope) => scope.deleteEnvironment(staging.id));
    expect((await repos.projects.variables(alice, project.id)).map((v) => v.name).sort()).toEqual([
      'PASSWORD',
      'USER',
    ]);
    expect(await repos.projects.edit(bob, project.id, async () => true)).toBeUndefined();
  });

  it("refuses, in the database itself, a variable on another project's environment or a secret in clear", async () => {
    const mine = await shop(alice, 'Keys');
    const other = await shop(alice, 'Other keys');
    const foreign = repos.projects.edit(alice, mine.project.id, (scope) =>
      scope.saveVariable({
        environment_id: other.environments[0].id,
        name: 'TOKEN',
        secret: false,
        value: 'x',
      }),
    );
    await expect(foreign).rejects.toThrow();
    const clear = db.orm.insert(projectVariables).values({
      id: crypto.randomUUID(),
      project_id: mine.project.id,
      user_id: alice,
      name: 'PLAIN',
      secret: true,
      value: 'in clear',
    });
    await expect(clear).rejects.toThrow();
    // Nor can a row name Alice's project with Bob as its owner.
    const mixed = db.orm.insert(projectVariables).values({
      id: crypto.randomUUID(),
      project_id: mine.project.id,
      user_id: bob,
      name: 'MIXED',
      secret: false,
      value: 'x',
    });
    await expect(mixed).rejects.toThrow();
    expect(
      await db.orm.select().from(projectVariables).where(eq(projectVariables.project_id, mine.project.id)),
    ).toEqual([]);
  });

  it('keeps every save of a suite as a version, newest first, with its test count', async () => {
    const { project } = await shop(alice, 'Suites');
    const cases = (n: number) => Array.from({ length: n }, (_, i) => ({ test_name: `t${i}`, steps: [] }));
    const created = await repos.projects.edit(alice, project.id, (scope) =>
      scope.createSuite({ name: 'Smoke', test_cases: cases(2), saved_by: 'alice', change: 'Created' }),
    );
    expect(created?.version).toBe(1);
    const saved = await repos.projects.edit(alice, project.id, async (scope) => ({
      found: await scope.suiteNamed('SMOKE'),
      next: await scope.saveSuite(created?.id ?? '', {
        name: 'Smoke tests',
        test_cases: cases(3),
        saved_by: 'alice',
        change: 'Added 1',
      }),
    }));
    expect(saved?.found?.id).toBe(created?.id);
    expect(saved?.next).toMatchObject({ version: 2, name: 'Smoke tests' });
    const back = await repos.projects.suite(alice, project.id, created?.id ?? '');
    expect(back?.suite.test_cases).toHaveLength(3);
    expect(back?.versions.map((v) => [v.version, v.test_count, v.change, v.saved_by])).toEqual([
      [2, 3, 'Added 1', 'alice'],
      [1, 2, 'Created', 'alice'],
    ]);
    expect(back?.versions[0].saved_at).toBeInstanceOf(Date);
    expect((await repos.projects.suites(alice, project.id)).map((s) => s.versions.length)).toEqual([2]);
    expect(await repos.projects.suite(bob, project.id, created?.id ?? '')).toBeUndefined();
    const duplicate = repos.projects.edit(alice, project.id, (scope) =>
      scope.createSuite({ name: 'smoke TESTS', test_cases: [], saved_by: 'alice', change: 'x' }),
    );
    await expect(duplicate).rejects.toThrow();
  });

  it("saves a suite's run settings (retries, a visual check after every case) without a new version", async () => {
    const { project } = await shop(alice, 'Run settings');
    const cases = [{ test_name: 't', steps: ['Navigate to /'] }];
    const created = await repos.projects.edit(alice, project.id, (scope) =>
      scope.createSuite({ name: 'Looks', test_cases: cases, saved_by: 'alice', change: 'Created' }),
    );
    expect(created).toMatchObject({ version: 1, retries: 0, visual_each_case: false });
    const id = created?.id ?? '';
    const set = await repos.projects.edit(
      alice,
      project.id,
      async (scope) => (await scope.setSuiteRunSettings(id, { visual_each_case: true })) ?? null,
    );
    // Only what it names: the retries and recording stay as they were.
    expect(set).toMatchObject({ version: 1, visual_each_case: true, retries: 0, record_video: false });
    await repos.projects.edit(
      alice,
      project.id,
      async (scope) => (await scope.setSuiteRunSettings(id, { retries: 2 })) ?? null,
    );
    const back = await repos.projects.suite(alice, project.id, id);
    expect(back?.suite).toMatchObject({ version: 1, retries: 2, visual_each_case: true });
    expect(back?.versions).toHaveLength(1);
    // A save of the cases that leaves it out keeps it.
    const next = await repos.projects.edit(
      alice,
      project.id,
      async (scope) =>
        (await scope.saveSuite(id, {
          name: 'Looks',
          test_cases: cases,
          saved_by: 'alice',
          change: 'Saved',
        })) ?? null,
    );
    expect(next).toMatchObject({ version: 2, visual_each_case: true });
    // Another user's suite is not reached.
    expect(
      await repos.projects.edit(
        bob,
        project.id,
        async (scope) => (await scope.setSuiteRunSettings(id, { visual_each_case: false })) ?? null,
      ),
    ).toBeUndefined();
  });

  it("lists a project's runs newest first; deleting the project unlinks them, keeping the environment's name", async () => {
    const { project, environments } = await shop(alice, 'Runs');
    const suite = await repos.projects.edit(alice, project.id, (scope) =>
      scope.createSuite({ name: 'S', test_cases: [], saved_by: 'alice', change: 'Created' }),
    );
    const link = {
      project_id: project.id,
      environment_id: environments[0].id,
      environment_name: environments[0].name,
      suite_id: suite?.id,
      suite_version: 1,
    };
    const first = await repos.testRuns.create(alice, { url: 'https://shop.example', ...link });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await repos.testRuns.create(alice, { url: 'https://shop.example', ...link });
    await repos.testRuns.create(alice, { url: 'https://shop.example' });
    expect((await repos.testRuns.listForProject(alice, project.id, 50)).map((r) => r.id)).toEqual([
      second.id,
      first.id,
    ]);
    expect(await repos.testRuns.listForProject(alice, project.id, 1)).toHaveLength(1);
    expect(await repos.testRuns.listForProject(bob, project.id, 50)).toEqual([]);
    expect(await repos.testRuns.listForProject(alice, 'nope', 50)).toEqual([]);
    expect(await repos.projects.delete(alice, project.id)).toBe(true);
    expect(await repos.testRuns.get(alice, first.id)).toMatchObject({
      project_id: null,
      environment_id: null,
      environment_name: 'Production',
      suite_id: null,
      suite_version: 1,
    });
    expect(await repos.projects.suites(alice, project.id)).toEqual([]);
  });
});
