/**
 * Two organizations, members of different roles: a team shares its projects, suites and runs; every
 * read and write across organizations answers 404 as a missing id does; a member removed loses
 * access at once (their tokens too); the last owner stays; invitations are single-use.
 */
import { ROUTE_ACTIONS } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTE_GROUPS } from '../openapi/api-routes';
import { joinPath } from '../routes/route-group';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';

type Member = { token: string; user: { id: string; username: string } };

describe('organizations', () => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let acme: string;
  let globex: string;
  const people = {} as Record<'olga' | 'eddie' | 'vera' | 'gus', Member>;
  const ids = {} as Record<'project' | 'env' | 'variable' | 'suite' | 'run', string>;
  const inOrg = (org: string) => ({ 'x-argus-organization': org });
  const call = (who: Member, org: string, method: string, path: string, json?: unknown) =>
    api.call(method, path, {
      token: who.token,
      headers: inOrg(org),
      ...(json === undefined ? {} : { json }),
    });

  async function join(owner: Member, org: string, member: Member, role: string) {
    const invited = await call(owner, org, 'POST', '/api/organization/invitations', {
      email: `${member.user.username}@example.com`,
      role,
    });
    expect(invited.status).toBe(201);
    const token = invited.data.path.split('/').pop();
    expect((await api.call('POST', `/api/invitations/${token}/accept`, { token: member.token })).status).toBe(
      200,
    );
    return token as string;
  }

  beforeAll(async () => {
    server = await startInProcess();
    api = client(server);
    for (const name of ['olga', 'eddie', 'vera', 'gus'] as const) people[name] = await api.signUp(name);
    acme = (
      await api.call('POST', '/api/organizations', { token: people.olga.token, json: { name: 'Acme' } })
    ).data.id;
    globex = (
      await api.call('POST', '/api/organizations', { token: people.gus.token, json: { name: 'Globex' } })
    ).data.id;
    await join(people.olga, acme, people.eddie, 'editor');
    await join(people.olga, acme, people.vera, 'viewer');
    // Eddie, an editor, makes Acme's project; it is Acme's, not his.
    const project = await call(people.eddie, acme, 'POST', '/api/projects', {
      name: 'Shop',
      environments: [{ name: 'Staging', base_url: 'https://staging.shop.example' }],
    });
    expect(project.status).toBe(201);
    ids.project = project.data.id;
    ids.env = project.data.environments[0].id;
    const variable = await call(people.eddie, acme, 'PUT', `/api/projects/${ids.project}/variables`, {
      name: 'PASSWORD',
      value: 'hunter2-secret',
      secret: true,
    });
    expect(variable.status).toBeLessThan(300);
    ids.variable = variable.data.id;
    const suite = await call(people.eddie, acme, 'POST', `/api/projects/${ids.project}/suites`, {
      name: 'Smoke',
      test_cases: [{ test_name: 'Home', steps: ['Navigate to https://staging.shop.example/'] }],
    });
    expect(suite.status).toBe(201);
    ids.suite = suite.data.id;
    const run = await call(people.eddie, acme, 'POST', '/api/automation/test-runs', {
      url: 'https://staging.shop.example/',
    });
    expect(run.status).toBe(201);
    ids.run = run.data.id;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("shares the organization's projects, suites and runs with its members, by role", async () => {
    // Vera, a viewer, reads everything the editor made, never the secret's value.
    const listed = await call(people.vera, acme, 'GET', '/api/projects');
    expect(listed.data.map((p: { id: string }) => p.id)).toEqual([ids.project]);
    const variables = await call(people.vera, acme, 'GET', `/api/projects/${ids.project}/variables`);
    expect(JSON.stringify(variables.data)).not.toContain('hunter2');
    expect((await call(people.vera, acme, 'GET', `/api/automation/test-runs/${ids.run}`)).status).toBe(200);
    // …and changes nothing.
    const refused = await call(
      people.vera,
      acme,
      'DELETE',
      `/api/projects/${ids.project}/suites/${ids.suite}`,
    );
    expect([refused.status, refused.data.code, refused.data.detail]).toEqual([
      403,
      'FORBIDDEN_ROLE',
      'This needs the editor role in Acme; you are a viewer there',
    ]);
    // Eddie's personal organization holds none of it.
    expect((await api.call('GET', '/api/projects', { token: people.eddie.token })).data).toEqual([]);
    // The run says who started it.
    const run = (await server.app.services.repos.testRuns.get(acme, ids.run)) ?? null;
    expect([run?.user_id, run?.started_by]).toEqual([acme, people.eddie.user.id]);
    const page = await call(people.vera, acme, 'GET', `/api/history/runs/${ids.run}`);
    expect([page.status, page.data.started_by]).toEqual([200, 'eddie']);
  });

  it("answers every route naming another organization's record 404, as a missing one", async () => {
    const fill = (path: string) =>
      path
        .replace(':envId', ids.env)
        .replace(':varId', ids.variable)
        .replace(':suiteId', ids.suite)
        .replace(/^\/api\/projects\/:id/, `/api/projects/${ids.project}`)
        .replace(':id', ids.run)
        .replace(/:[A-Za-z_]+/g, ids.run);
    const leaks: string[] = [];
    for (const group of API_ROUTE_GROUPS) {
      for (const route of group.routes) {
        const path = joinPath(group.base, route.path);
        const action = ROUTE_ACTIONS[`${route.method} ${path}`];
        if (action === 'public' || action === 'self' || !path.includes(':')) continue;
        // Gus owns Globex: every role there, none in Acme.
        const res = await call(
          people.gus,
          globex,
          route.method,
          fill(path),
          route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        );
        if (res.status !== 404 && res.status !== 422) leaks.push(`${route.method} ${path}: ${res.status}`);
        if (res.status === 422 && route.method !== 'POST' && route.method !== 'PUT')
          leaks.push(`${route.method} ${path}: 422`);
      }
    }
    expect(leaks).toEqual([]);
    // Naming Acme in the header does not let him in either.
    const named = await call(people.gus, acme, 'GET', `/api/projects/${ids.project}`);
    expect([named.status, named.data.code]).toEqual([404, 'ORGANIZATION_NOT_FOUND']);
    // Acme's records are untouched.
    expect(
      (await call(people.olga, acme, 'GET', `/api/projects/${ids.project}/suites/${ids.suite}`)).status,
    ).toBe(200);
  });

  it('ends a removed member’s access at once, their tokens with it; the last owner stays', async () => {
    const token = await call(people.vera, acme, 'POST', '/api/tokens', { name: 'ci', scope: 'read' });
    expect(token.status).toBe(201);
    const bearer = { token: token.data.token as string, user: people.vera.user };
    expect((await api.call('GET', '/api/projects', { token: bearer.token })).data).toHaveLength(1);
    expect(
      (await call(people.eddie, acme, 'DELETE', `/api/organization/members/${people.vera.user.id}`)).status,
    ).toBe(403);
    expect(
      (await call(people.olga, acme, 'DELETE', `/api/organization/members/${people.vera.user.id}`)).status,
    ).toBe(204);
    const after = await call(people.vera, acme, 'GET', '/api/projects');
    expect([after.status, after.data.code]).toEqual([404, 'ORGANIZATION_NOT_FOUND']);
    const byToken = await api.call('GET', '/api/projects', { token: bearer.token });
    expect([byToken.status, byToken.data.code]).toEqual([401, 'INVALID_TOKEN']);
    // The last owner can neither leave nor be demoted.
    const leave = await call(people.olga, acme, 'POST', '/api/organization/leave');
    expect([leave.status, leave.data.code]).toEqual([409, 'ORGANIZATION_CONFLICT']);
    const demote = await call(people.olga, acme, 'PUT', `/api/organization/members/${people.olga.user.id}`, {
      role: 'admin',
    });
    expect([demote.status, demote.data.code]).toEqual([409, 'ORGANIZATION_CONFLICT']);
    // An admin cannot make an owner; an owner can, and then may step down.
    await call(people.olga, acme, 'PUT', `/api/organization/members/${people.eddie.user.id}`, {
      role: 'admin',
    });
    const promote = await call(
      people.eddie,
      acme,
      'PUT',
      `/api/organization/members/${people.eddie.user.id}`,
      { role: 'owner' },
    );
    expect([promote.status, promote.data.code]).toEqual([403, 'FORBIDDEN_ROLE']);
    const transfer = await call(people.olga, acme, 'POST', '/api/organization/transfer', {
      user_id: people.eddie.user.id,
    });
    expect([transfer.status, transfer.data.role]).toEqual([200, 'owner']);
    const mine = await api.call('GET', '/api/organizations', { token: people.olga.token });
    expect(mine.data.map((o: { name: string; role: string }) => [o.name, o.role])).toEqual([
      ['olga', 'owner'],
      ['Acme', 'admin'],
    ]);
  });

  it('uses an invitation once, and refuses a revoked or expired one saying why', async () => {
    const zed = await api.signUp('zed');
    const token = await join(people.gus, globex, zed, 'runner');
    const again = await api.call('POST', `/api/invitations/${token}/accept`, { token: people.vera.token });
    expect([again.status, again.data.code, again.data.detail]).toEqual([
      410,
      'INVITATION_INVALID',
      'This invitation has already been used: each link joins one person, once',
    ]);
    const second = await call(people.gus, globex, 'POST', '/api/organization/invitations', {
      email: 'x@example.com',
    });
    expect(second.data.role).toBe('viewer');
    expect(
      (await call(people.gus, globex, 'DELETE', `/api/organization/invitations/${second.data.id}`)).data
        .state,
    ).toBe('revoked');
    const revoked = await api.call('POST', `/api/invitations/${second.data.path.split('/').pop()}/accept`, {
      token: people.vera.token,
    });
    expect([revoked.status, revoked.data.detail]).toEqual([
      410,
      'This invitation was revoked: ask an admin of the organization for a new one',
    ]);
    const preview = await api.call('GET', `/api/invitations/${second.data.path.split('/').pop()}`);
    expect(preview.data).toMatchObject({ organization: 'Globex', state: 'revoked', role: 'viewer' });
    // A personal organization takes no invitations.
    const personal = await api.call('POST', '/api/organization/invitations', {
      token: zed.token,
      json: { email: 'y@example.com' },
    });
    expect(personal.status).toBe(400);
  });

  it('lets an admin make a service token that acts with its own role and outlives the person', async () => {
    const made = await call(people.gus, globex, 'POST', '/api/organization/service-tokens', {
      name: 'Nightly CI',
      role: 'runner',
      scope: 'run',
    });
    expect(made.status).toBe(201);
    const listed = await call(people.gus, globex, 'GET', '/api/organization/tokens');
    expect(listed.data.find((t: { id: string }) => t.id === made.data.id)).toMatchObject({
      member: 'Nightly CI',
      service: true,
    });
    const members = await call(people.gus, globex, 'GET', '/api/organization/members');
    expect(members.data.find((m: { service: boolean }) => m.service)).toMatchObject({
      username: 'Nightly CI',
      role: 'runner',
    });
    // It reads and runs in Globex, but cannot edit.
    expect((await api.call('GET', '/api/projects', { token: made.data.token })).status).toBe(200);
    const edit = await api.call('POST', '/api/projects', { token: made.data.token, json: {} });
    expect([edit.status, edit.data.code]).toEqual([403, 'TOKEN_SCOPE']);
  });
});
