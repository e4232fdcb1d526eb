import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretContext } from '../projects/project-service';
import { apiTargets, client } from '../testing/api-targets';
import type { InProcessServer } from '../testing/in-process-server';
import type { RunningServer } from '../testing/spawn-server';

type User = { token: string; user: { id: string; username: string } };

const NIL = '00000000-0000-0000-0000-000000000000';
/** Letters and digits only, so the raw JSON of an answer holds it exactly as sent, if at all. */
const SECRET = 'Hunter2SecretValue9731';

const shop = {
  name: 'Shop',
  description: 'The shop',
  environments: [
    { name: 'Production', base_url: 'https://shop.example' },
    { name: 'Staging', base_url: 'https://staging.shop.example/app/' },
  ],
};

describe.each(apiTargets())('projects API on $name', ({ start }) => {
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  let alice: User;
  let bob: User;

  /** The in-process app: its repositories read rows as stored, and `inject` gives answers' raw text. */
  const app = () => (server as InProcessServer).app;
  const call = (user: User | null, method: string, path: string, json?: unknown) =>
    api.call(method, path, { token: user?.token, json });
  /** An answer's body exactly as sent, for what must never appear in it. */
  const raw = async (user: User, method: string, path: string, json?: unknown) => {
    const res = await app().inject({
      method: method as 'GET',
      url: path,
      headers: {
        authorization: `Bearer ${user.token}`,
        ...(json !== undefined && { 'content-type': 'application/json' }),
      },
      ...(json !== undefined && { payload: JSON.stringify(json) }),
    });
    return { status: res.statusCode, text: res.body };
  };
  const createProject = async (user: User, body: unknown = shop) => {
    const res = await call(user, 'POST', '/api/projects', body);
    expect(res.status).toBe(201);
    return res.data;
  };
  const defaults = (project: { environments: { name: string; is_default: boolean }[] }) =>
    project.environments.filter((e) => e.is_default).map((e) => e.name);

  beforeAll(async () => {
    server = await start();
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('requires authentication on every projects route', async () => {
    for (const [method, path] of [
      ['GET', '/api/projects'],
      ['POST', '/api/projects'],
      ['GET', `/api/projects/${NIL}`],
      ['PUT', `/api/projects/${NIL}`],
      ['DELETE', `/api/projects/${NIL}`],
      ['POST', `/api/projects/${NIL}/environments`],
      ['PUT', `/api/projects/${NIL}/environments/${NIL}`],
      ['DELETE', `/api/projects/${NIL}/environments/${NIL}`],
      ['GET', `/api/projects/${NIL}/variables`],
      ['PUT', `/api/projects/${NIL}/variables`],
      ['DELETE', `/api/projects/${NIL}/variables/${NIL}`],
      ['GET', `/api/projects/${NIL}/suites`],
      ['POST', `/api/projects/${NIL}/suites`],
      ['GET', `/api/projects/${NIL}/suites/${NIL}`],
      ['PUT', `/api/projects/${NIL}/suites/${NIL}`],
      ['DELETE', `/api/projects/${NIL}/suites/${NIL}`],
      ['GET', `/api/projects/${NIL}/runs`],
    ]) {
      const res = await call(null, method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('creates, lists, reads, updates and deletes a project', async () => {
    const made = await createProject(alice);
    expect(made).toMatchObject({
      name: 'Shop',
      description: 'The shop',
      kind: 'web',
      login: { mode: 'none' },
      environments: [
        { name: 'Production', base_url: 'https://shop.example', is_default: true },
        { name: 'Staging', base_url: 'https://staging.shop.example/app/', is_default: false },
      ],
    });
    expect(made.environments.every((e: { project_id: string }) => e.project_id === made.id)).toBe(true);
    const other = await createProject(alice, {
      name: 'Phone',
      kind: 'mobile',
      environments: [{ name: 'Live', base_url: 'https://m.shop.example' }],
    });
    expect(other.description).toBe('');

    const list = await call(alice, 'GET', '/api/projects');
    expect(list.status).toBe(200);
    expect(list.data.slice(0, 2).map((p: { name: string }) => p.name)).toEqual(['Phone', 'Shop']);
    expect(Object.keys(list.data[0]).sort()).toEqual(['id', 'kind', 'name', 'updated_at']);

    const login = {
      mode: 'credentials',
      login_url: '/login',
      username_variable: 'USER',
      password_secret: 'PASSWORD',
      totp_secret: null,
    };
    const updated = await call(alice, 'PUT', `/api/projects/${made.id}`, {
      name: 'Shop 2',
      description: 'renamed',
      login,
    });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ name: 'Shop 2', description: 'renamed', login, kind: 'web' });
    expect(updated.data.environments).toHaveLength(2);
    expect(Date.parse(updated.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(made.updated_at));
    // Last changed first.
    const after = await call(alice, 'GET', '/api/projects');
    expect(after.data.slice(0, 2).map((p: { name: string }) => p.name)).toEqual(['Shop 2', 'Phone']);
    expect((await call(alice, 'GET', `/api/projects/${made.id}`)).data).toEqual(updated.data);

    const badLogin = await call(alice, 'PUT', `/api/projects/${made.id}`, { login: { mode: 'magic' } });
    expect(badLogin.status).toBe(422);
    expect(badLogin.data.detail[0].loc.slice(0, 2)).toEqual(['body', 'login']);

    const deleted = await call(alice, 'DELETE', `/api/projects/${made.id}`);
    expect(deleted.status).toBe(204);
    const gone = await call(alice, 'GET', `/api/projects/${made.id}`);
    expect(gone.status).toBe(404);
    expect(gone.data).toEqual({ detail: 'Project not found', code: 'PROJECT_NOT_FOUND' });
    expect((await call(alice, 'DELETE', `/api/projects/${made.id}`)).status).toBe(404);
    expect((await call(alice, 'GET', '/api/projects/not-a-uuid')).data.code).toBe('PROJECT_NOT_FOUND');
  });

  it('refuses a project without environments, with two of one name, or with a bad URL (422 naming the field)', async () => {
    const none = await call(alice, 'POST', '/api/projects', { name: 'Empty', environments: [] });
    expect(none.status).toBe(422);
    expect(none.data.detail[0].loc).toEqual(['body', 'environments']);
    const twice = await call(alice, 'POST', '/api/projects', {
      name: 'Twice',
      environments: [
        { name: 'Staging', base_url: 'https://a.example' },
        { name: 'staging', base_url: 'https://b.example' },
      ],
    });
    expect(twice.status).toBe(422);
    expect(twice.data.detail[0].loc).toEqual(['body', 'environments', 1, 'name']);
    const badUrl = await call(alice, 'POST', '/api/projects', {
      name: 'Bad',
      environments: [{ name: 'X', base_url: 'javascript:alert(1)' }],
    });
    expect(badUrl.status).toBe(422);
    expect(badUrl.data.detail[0].loc).toEqual(['body', 'environments', 0, 'base_url']);
  });

  it("refuses a base URL the server's browser may not open when it is saved, not at its first run (422 naming the field)", async () => {
    const privateHost = await call(alice, 'POST', '/api/projects', {
      name: 'Intranet',
      environments: [
        { name: 'Staging', base_url: 'https://staging.shop.example' },
        { name: 'Office', base_url: 'http://10.1.2.3:8080/' },
      ],
    });
    expect(privateHost.status).toBe(422);
    expect(privateHost.data.detail[0]).toMatchObject({
      loc: ['body', 'environments', 1, 'base_url'],
      msg: 'This server may not test this address: 10.1.2.3 is a private-network address; add it to ALLOWED_TARGETS to test it',
    });
    const made = await createProject(alice);
    const metadata = await call(alice, 'POST', `/api/projects/${made.id}/environments`, {
      name: 'Cloud',
      base_url: 'http://169.254.169.254/latest/',
    });
    expect(metadata.status).toBe(422);
    expect(metadata.data.detail[0].loc).toEqual(['body', 'base_url']);
    expect(metadata.data.detail[0].msg).toMatch(
      /^This server may not test this address: 169\.254\.169\.254 is /,
    );
    const moved = await call(
      alice,
      'PUT',
      `/api/projects/${made.id}/environments/${made.environments[0].id}`,
      {
        base_url: 'http://127.0.0.1:3000/',
      },
    );
    expect(moved.status).toBe(422);
    expect(moved.data.detail[0].loc).toEqual(['body', 'base_url']);
    // Nothing of the refused saves was kept; a host name that does not resolve yet is.
    const after = (await call(alice, 'GET', `/api/projects/${made.id}`)).data;
    expect(after.environments.map((e: { base_url: string }) => e.base_url)).toEqual(
      made.environments.map((e: { base_url: string }) => e.base_url),
    );
    const later = await call(alice, 'POST', `/api/projects/${made.id}/environments`, {
      name: 'Preview',
      base_url: 'https://preview.not-yet.example/',
    });
    expect(later.status).toBe(201);
  });

  it('keeps exactly one default environment', async () => {
    // The one marked wins over the first.
    const marked = await createProject(alice, {
      name: 'Marked',
      environments: [
        { name: 'A', base_url: 'https://a.example' },
        { name: 'B', base_url: 'https://b.example', is_default: true },
      ],
    });
    expect(defaults(marked)).toEqual(['B']);

    const project = await createProject(alice, { ...shop, name: 'Defaults' });
    const path = `/api/projects/${project.id}`;
    const read = async () => (await call(alice, 'GET', path)).data;
    const added = await call(alice, 'POST', `${path}/environments`, {
      name: 'QA',
      base_url: 'https://qa.shop.example',
      is_default: true,
    });
    expect(added.status).toBe(201);
    expect(added.data).toMatchObject({ name: 'QA', is_default: true, project_id: project.id });
    expect(defaults(await read())).toEqual(['QA']);

    const dup = await call(alice, 'POST', `${path}/environments`, {
      name: 'qa',
      base_url: 'https://x.example',
    });
    expect(dup.status).toBe(422);
    expect(dup.data.detail[0].loc).toEqual(['body', 'name']);

    const [production, staging] = project.environments;
    const moved = await call(alice, 'PUT', `${path}/environments/${staging.id}`, {
      is_default: true,
      name: 'Pre-production',
    });
    expect(moved.status).toBe(200);
    expect(moved.data).toMatchObject({ name: 'Pre-production', is_default: true });
    expect(defaults(await read())).toEqual(['Pre-production']);

    const unmark = await call(alice, 'PUT', `${path}/environments/${staging.id}`, { is_default: false });
    expect(unmark.status).toBe(400);
    expect(defaults(await read())).toEqual(['Pre-production']);

    // Deleting the default makes the oldest remaining one the default.
    expect((await call(alice, 'DELETE', `${path}/environments/${staging.id}`)).status).toBe(204);
    const afterDelete = await read();
    expect(afterDelete.environments.map((e: { name: string }) => e.name)).toEqual(['Production', 'QA']);
    expect(defaults(afterDelete)).toEqual(['Production']);

    expect((await call(alice, 'DELETE', `${path}/environments/${added.data.id}`)).status).toBe(204);
    const last = await call(alice, 'DELETE', `${path}/environments/${production.id}`);
    expect(last.status).toBe(400);
    expect(last.data).toEqual({ detail: 'A project keeps at least one environment', code: 'BAD_REQUEST' });
    expect(defaults(await read())).toEqual(['Production']);
    const missing = await call(alice, 'DELETE', `${path}/environments/${staging.id}`);
    expect(missing.status).toBe(404);
    expect(missing.data.code).toBe('ENVIRONMENT_NOT_FOUND');
  });

  it('answers variables with their values and secrets never, in any answer', async () => {
    const project = await createProject(alice, { ...shop, name: 'Secrets' });
    const [production, staging] = project.environments;
    const path = `/api/projects/${project.id}`;

    const plain = await call(alice, 'PUT', `${path}/variables`, { name: 'USER', value: 'alice' });
    expect(plain.status).toBe(200);
    expect(plain.data).toMatchObject({
      project_id: project.id,
      environment_id: null,
      name: 'USER',
      secret: false,
      value: 'alice',
    });
    const own = await call(alice, 'PUT', `${path}/variables`, {
      name: 'USER',
      value: 'qa-alice',
      environment_id: staging.id,
    });
    expect(own.data.id).not.toBe(plain.data.id);

    const secretBody = { name: 'PASSWORD', value: SECRET, secret: true, environment_id: production.id };
    const upserted = await raw(alice, 'PUT', `${path}/variables`, secretBody);
    expect(upserted.status).toBe(200);
    expect(upserted.text).not.toContain(SECRET);
    expect(JSON.parse(upserted.text)).toMatchObject({ name: 'PASSWORD', secret: true, value: null });
    // A project-level secret, set through the project's id in capitals (a uuid in either case).
    const projectLevel = await raw(alice, 'PUT', `/api/projects/${project.id.toUpperCase()}/variables`, {
      name: 'API_KEY',
      value: `${SECRET}key`,
      secret: true,
    });
    expect(projectLevel.status).toBe(200);
    expect(projectLevel.text).not.toContain(SECRET);

    for (const read of [`${path}/variables`, path, '/api/projects', `${path}/suites`, `${path}/runs`]) {
      const res = await raw(alice, 'GET', read);
      expect(res.status, read).toBe(200);
      expect(res.text, read).not.toContain(SECRET);
    }
    const listed = (await call(alice, 'GET', `${path}/variables`)).data;
    expect(listed.map((v: { name: string; value: string | null }) => [v.name, v.value])).toEqual(
      expect.arrayContaining([
        ['USER', 'alice'],
        ['USER', 'qa-alice'],
        ['PASSWORD', null],
        ['API_KEY', null],
      ]),
    );
    expect(listed).toHaveLength(4);

    // Stored: the ciphertext only, bound to its project, environment and name.
    const rows = await app().services.repos.projects.variables(alice.user.id, project.id);
    const stored = rows.find((row) => row.name === 'PASSWORD');
    expect(stored?.value).toBeNull();
    expect(stored?.value_enc).toBeTruthy();
    expect(stored?.value_enc).not.toContain(SECRET);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    const { secrets } = app().services;
    expect(
      secrets.decrypt(stored?.value_enc ?? '', secretContext(project.id, production.id, 'PASSWORD')),
    ).toBe(SECRET);
    expect(() =>
      secrets.decrypt(stored?.value_enc ?? '', secretContext(project.id, staging.id, 'PASSWORD')),
    ).toThrow();
    expect(() =>
      secrets.decrypt(stored?.value_enc ?? '', secretContext(project.id, production.id, 'API_KEY')),
    ).toThrow();

    // The run machinery's view: project values first, the environment's own win, secrets in clear.
    const target = await app().services.projects.target(alice.user.id, project.id, staging.id);
    expect(target.environment.name).toBe('Staging');
    expect(Object.fromEntries(target.values)).toEqual({
      USER: { value: 'qa-alice', secret: false },
      API_KEY: { value: `${SECRET}key`, secret: true },
    });
    const byDefault = await app().services.projects.target(alice.user.id, project.id);
    expect(byDefault.environment.name).toBe('Production');
    expect(Object.fromEntries(byDefault.values)).toEqual({
      USER: { value: 'alice', secret: false },
      PASSWORD: { value: SECRET, secret: true },
      API_KEY: { value: `${SECRET}key`, secret: true },
    });
    await expect(app().services.projects.target(bob.user.id, project.id)).rejects.toMatchObject({
      code: 'PROJECT_NOT_FOUND',
    });
    await expect(app().services.projects.target(alice.user.id, project.id, NIL)).rejects.toMatchObject({
      code: 'ENVIRONMENT_NOT_FOUND',
    });

    // Same scope and name: replaced, a secret by a plain value included.
    const replaced = await call(alice, 'PUT', `${path}/variables`, {
      name: 'PASSWORD',
      value: 'now-plain',
      environment_id: production.id,
    });
    expect(replaced.data).toMatchObject({ id: stored?.id, secret: false, value: 'now-plain' });

    const bad = await call(alice, 'PUT', `${path}/variables`, { name: 'lower-case', value: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.data.detail[0].loc).toEqual(['body', 'name']);

    expect((await call(alice, 'DELETE', `${path}/variables/${own.data.id}`)).status).toBe(204);
    const again = await call(alice, 'DELETE', `${path}/variables/${own.data.id}`);
    expect(again.status).toBe(404);
    expect(again.data.code).toBe('VARIABLE_NOT_FOUND');
  });

  it("refuses a variable on another project's environment, even the same user's", async () => {
    const one = await createProject(alice, { ...shop, name: 'One' });
    const two = await createProject(alice, { ...shop, name: 'Two' });
    const res = await call(alice, 'PUT', `/api/projects/${one.id}/variables`, {
      name: 'TOKEN',
      value: 'x',
      environment_id: two.environments[0].id,
    });
    expect(res.status).toBe(404);
    expect(res.data.code).toBe('ENVIRONMENT_NOT_FOUND');
    expect((await call(alice, 'GET', `/api/projects/${one.id}/variables`)).data).toEqual([]);
    expect((await call(alice, 'GET', `/api/projects/${two.id}/variables`)).data).toEqual([]);
  });

  it('saves each change of a suite as a version, and refuses a save over a newer one (409)', async () => {
    const project = await createProject(alice, { ...shop, name: 'Suites' });
    const path = `/api/projects/${project.id}/suites`;
    const cases = [
      { test_name: 'Home loads', steps: ['Navigate to /', 'Expect heading "Shop"'] },
      { test_name: 'Cart opens', steps: ['Navigate to /cart'] },
    ];
    const created = await call(alice, 'POST', path, { name: 'Smoke', test_cases: cases });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ name: 'Smoke', version: 1, project_id: project.id });
    expect(created.data.test_cases.map((c: { test_name: string }) => c.test_name)).toEqual([
      'Home loads',
      'Cart opens',
    ]);
    expect(created.data.versions).toEqual([
      expect.objectContaining({
        version: 1,
        saved_by: 'alice',
        change: 'Created with 2 test cases',
        test_count: 2,
      }),
    ]);

    const changed = [
      { ...cases[0], steps: ['Navigate to /', 'Expect heading "Welcome"'] },
      cases[1],
      { test_name: 'Search works', steps: ['Navigate to /search'] },
    ];
    const second = await call(alice, 'PUT', `${path}/${created.data.id}`, {
      name: 'Smoke',
      test_cases: changed,
      base_version: 1,
    });
    expect(second.status).toBe(200);
    expect(second.data.version).toBe(2);
    expect(
      second.data.versions.map((v: { version: number; change: string; test_count: number }) => v),
    ).toEqual([
      expect.objectContaining({
        version: 2,
        change: 'Added 1 test case, changed 1, removed 0',
        test_count: 3,
      }),
      expect.objectContaining({ version: 1, test_count: 2 }),
    ]);

    const stale = await call(alice, 'PUT', `${path}/${created.data.id}`, {
      name: 'Smoke',
      test_cases: cases,
      base_version: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.data.code).toBe('SUITE_VERSION_CONFLICT');
    expect((await call(alice, 'GET', `${path}/${created.data.id}`)).data.version).toBe(2);

    const noted = await call(alice, 'PUT', `${path}/${created.data.id}`, {
      name: 'Smoke tests',
      test_cases: [changed[0]],
      base_version: 2,
      change_note: 'Kept only the home page',
    });
    expect(noted.data).toMatchObject({ version: 3, name: 'Smoke tests' });
    expect(noted.data.versions[0]).toMatchObject({ change: 'Kept only the home page', test_count: 1 });
    // Without base_version the save goes over whatever is there.
    const blind = await call(alice, 'PUT', `${path}/${created.data.id}`, {
      name: 'Smoke tests',
      test_cases: cases,
    });
    expect(blind.data.version).toBe(4);
    expect(blind.data.versions[0].change).toBe('Added 1 test case, changed 1, removed 0');

    const listed = await call(alice, 'GET', path);
    expect(listed.data.map((s: { name: string; version: number }) => [s.name, s.version])).toEqual([
      ['Smoke tests', 4],
    ]);
    const dup = await call(alice, 'POST', path, { name: 'SMOKE TESTS', test_cases: cases });
    expect(dup.status).toBe(422);
    expect(dup.data.detail[0].loc).toEqual(['body', 'name']);
    const empty = await call(alice, 'POST', path, { name: 'Empty', test_cases: [] });
    expect(empty.status).toBe(422);

    expect((await call(alice, 'DELETE', `${path}/${created.data.id}`)).status).toBe(204);
    const gone = await call(alice, 'GET', `${path}/${created.data.id}`);
    expect(gone.status).toBe(404);
    expect(gone.data).toEqual({ detail: 'Saved suite not found', code: 'SUITE_NOT_FOUND' });
  });

  it('stores the URLs of a saved suite relative to the environment its source URL is on', async () => {
    const project = await createProject(alice, { ...shop, name: 'Relative' });
    const path = `/api/projects/${project.id}/suites`;
    const staged = await call(alice, 'POST', path, {
      name: 'Checkout',
      source_url: 'https://staging.shop.example/app/cart',
      test_cases: [
        {
          test_name: 'Sign in',
          url: 'https://staging.shop.example/app/cart',
          steps: ['Navigate to https://staging.shop.example/app/login', 'Click "Sign in"'],
        },
        { test_name: 'Cart', url: 'https://staging.shop.example/app/cart', steps: ['Click "Pay"'] },
        { test_name: 'Elsewhere', steps: ['Navigate to https://other.example/x'] },
      ],
    });
    expect(staged.status).toBe(201);
    expect(staged.data.test_cases.map((c: { url: string; steps: string[] }) => [c.url, c.steps])).toEqual([
      ['', ['Navigate to ./login', 'Click "Sign in"']],
      ['', ['Navigate to ./cart', 'Click "Pay"']],
      ['', ['Navigate to https://other.example/x']],
    ]);
    // A source on no environment's origin: relative to the default environment.
    const fallback = await call(alice, 'POST', path, {
      name: 'Production paths',
      source_url: 'https://elsewhere.example/',
      test_cases: [{ test_name: 'Home', steps: ['Navigate to https://shop.example/deals?x=1'] }],
    });
    expect(fallback.data.test_cases[0].steps).toEqual(['Navigate to /deals?x=1']);
    // Updates are made relative too; without source_url the cases are stored as given.
    const updated = await call(alice, 'PUT', `${path}/${fallback.data.id}`, {
      name: 'Production paths',
      source_url: 'https://shop.example/',
      test_cases: [{ test_name: 'Home', steps: ['Navigate to https://shop.example/new'] }],
    });
    expect(updated.data.test_cases[0].steps).toEqual(['Navigate to /new']);
    const asGiven = await call(alice, 'POST', path, {
      name: 'Absolute',
      test_cases: [{ test_name: 'Home', steps: ['Navigate to https://shop.example/'] }],
    });
    expect(asGiven.data.test_cases[0].steps).toEqual(['Navigate to https://shop.example/']);
  });

  it("lists the project's runs, newest first", async () => {
    const project = await createProject(alice, { ...shop, name: 'Runs' });
    const { testRuns } = app().services.repos;
    const [production] = project.environments;
    const link = { project_id: project.id, environment_id: production.id, environment_name: 'Production' };
    const first = await testRuns.create(alice.user.id, {
      url: 'https://shop.example',
      status: 'completed',
      total_tests: 2,
      passed_tests: 2,
      ...link,
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await testRuns.create(alice.user.id, { url: 'https://shop.example', ...link });
    await testRuns.create(alice.user.id, { url: 'https://shop.example' });
    const runs = await call(alice, 'GET', `/api/projects/${project.id}/runs`);
    expect(runs.status).toBe(200);
    expect(runs.data.map((r: { id: string }) => r.id)).toEqual([second.id, first.id]);
    expect(runs.data[1]).toMatchObject({
      status: 'completed',
      environment_id: production.id,
      environment_name: 'Production',
      suite_id: null,
      suite_version: null,
      total_tests: 2,
      passed_tests: 2,
      failed_tests: 0,
      started_at: null,
    });
  });

  it("answers 404 with the right code for another user's project, environment, variable and suite, on every route", async () => {
    const project = await createProject(alice, { ...shop, name: 'Alice only' });
    const path = `/api/projects/${project.id}`;
    const [production, staging] = project.environments;
    const variable = (
      await call(alice, 'PUT', `${path}/variables`, { name: 'TOKEN', value: SECRET, secret: true })
    ).data;
    const suiteBody = { name: 'Hers', test_cases: [{ test_name: 'Home', steps: ['Navigate to /'] }] };
    const suite = (await call(alice, 'POST', `${path}/suites`, suiteBody)).data;
    const before = {
      project: (await call(alice, 'GET', path)).data,
      variables: (await call(alice, 'GET', `${path}/variables`)).data,
      suite: (await call(alice, 'GET', `${path}/suites/${suite.id}`)).data,
    };
    const envBody = { name: 'Mine', base_url: 'https://bob.example' };
    const varBody = { name: 'TOKEN', value: 'x' };

    const refusals: [string, string, unknown, string][] = [
      ['GET', path, undefined, 'PROJECT_NOT_FOUND'],
      ['PUT', path, { name: 'Bob’s now' }, 'PROJECT_NOT_FOUND'],
      ['DELETE', path, undefined, 'PROJECT_NOT_FOUND'],
      ['POST', `${path}/environments`, envBody, 'PROJECT_NOT_FOUND'],
      ['PUT', `${path}/environments/${staging.id}`, { is_default: true }, 'PROJECT_NOT_FOUND'],
      ['DELETE', `${path}/environments/${staging.id}`, undefined, 'PROJECT_NOT_FOUND'],
      ['GET', `${path}/variables`, undefined, 'PROJECT_NOT_FOUND'],
      ['PUT', `${path}/variables`, varBody, 'PROJECT_NOT_FOUND'],
      ['DELETE', `${path}/variables/${variable.id}`, undefined, 'PROJECT_NOT_FOUND'],
      ['GET', `${path}/suites`, undefined, 'PROJECT_NOT_FOUND'],
      ['POST', `${path}/suites`, suiteBody, 'PROJECT_NOT_FOUND'],
      ['GET', `${path}/suites/${suite.id}`, undefined, 'PROJECT_NOT_FOUND'],
      ['PUT', `${path}/suites/${suite.id}`, suiteBody, 'PROJECT_NOT_FOUND'],
      ['DELETE', `${path}/suites/${suite.id}`, undefined, 'PROJECT_NOT_FOUND'],
      ['GET', `${path}/runs`, undefined, 'PROJECT_NOT_FOUND'],
    ];
    // Alice's environment, variable and suite ids under Bob's own project.
    const bobs = await createProject(bob, { ...shop, name: 'Bob’s' });
    const his = `/api/projects/${bobs.id}`;
    refusals.push(
      ['PUT', `${his}/environments/${production.id}`, { name: 'Taken' }, 'ENVIRONMENT_NOT_FOUND'],
      ['DELETE', `${his}/environments/${staging.id}`, undefined, 'ENVIRONMENT_NOT_FOUND'],
      ['PUT', `${his}/variables`, { ...varBody, environment_id: production.id }, 'ENVIRONMENT_NOT_FOUND'],
      ['DELETE', `${his}/variables/${variable.id}`, undefined, 'VARIABLE_NOT_FOUND'],
      ['GET', `${his}/suites/${suite.id}`, undefined, 'SUITE_NOT_FOUND'],
      ['PUT', `${his}/suites/${suite.id}`, suiteBody, 'SUITE_NOT_FOUND'],
      ['DELETE', `${his}/suites/${suite.id}`, undefined, 'SUITE_NOT_FOUND'],
    );
    for (const [method, url, json, code] of refusals) {
      const res = await raw(bob, method, url, json);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(JSON.parse(res.text).code, `${method} ${url}`).toBe(code);
      expect(res.text).not.toContain(SECRET);
    }

    const bobsList = await call(bob, 'GET', '/api/projects');
    expect(bobsList.data.map((p: { id: string }) => p.id)).toEqual([bobs.id]);
    expect((await call(bob, 'GET', `${his}/variables`)).data).toEqual([]);
    expect((await call(bob, 'GET', `${his}/suites`)).data).toEqual([]);
    expect((await call(alice, 'GET', path)).data).toEqual(before.project);
    expect((await call(alice, 'GET', `${path}/variables`)).data).toEqual(before.variables);
    expect((await call(alice, 'GET', `${path}/suites/${suite.id}`)).data).toEqual(before.suite);
  });
});
