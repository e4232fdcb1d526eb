/**
 * The permission table (packages/protocol/src/permissions.ts) against the server: every route of the
 * OpenAPI catalogue and every socket message type, for every role, in a real organization whose
 * members joined by invitation. A route or message added without an entry fails here (and cannot
 * be mounted); a role let through where the table says no, or refused where it says yes, fails here.
 */
import {
  type Action,
  CLIENT_MESSAGE_TYPES,
  ROLES,
  ROUTE_ACTIONS,
  type Role,
  roleAllows,
  SOCKET_ACTIONS,
} from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTE_GROUPS } from '../openapi/api-routes';
import { joinPath } from '../routes/route-group';
import { client } from '../testing/api-targets';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';
import { openSocket } from '../testing/ws-client';

const NOBODY = '00000000-0000-4000-8000-000000000000';
/** Routes whose call, when allowed, would end the organization or the caller's place in it. */
const ENDS_MEMBERSHIP = new Set(['DELETE /api/organization', 'POST /api/organization/leave']);

type Member = { token: string; user: { id: string; username: string } };

const catalogue = API_ROUTE_GROUPS.flatMap((group) =>
  group.routes.map((route) => ({ method: route.method, path: joinPath(group.base, route.path) })),
);

/** A path with every parameter filled by an id nothing has: allowed calls answer 404 and change nothing. */
const concrete = (path: string) => path.replace(/:[A-Za-z_]+/g, NOBODY);

describe('the permission table', () => {
  let server: InProcessServer;
  let api: ReturnType<typeof client>;
  let orgId: string;
  const members = {} as Record<Role, Member>;

  beforeAll(async () => {
    server = await startInProcess();
    api = client(server);
    members.owner = await api.signUp('olga');
    const org = await api.call('POST', '/api/organizations', {
      token: members.owner.token,
      json: { name: 'Acme' },
    });
    expect(org.status).toBe(201);
    orgId = org.data.id;
    const headers = { 'x-argus-organization': orgId };
    for (const role of ['viewer', 'runner', 'editor', 'admin'] as const) {
      const member = await api.signUp(`${role}-member`);
      const invited = await api.call('POST', '/api/organization/invitations', {
        token: members.owner.token,
        headers,
        json: { email: `${role}-member@example.com`, role },
      });
      expect(invited.status).toBe(201);
      const token = invited.data.path.split('/').pop();
      const accepted = await api.call('POST', `/api/invitations/${token}/accept`, { token: member.token });
      expect([accepted.status, accepted.data.role]).toEqual([200, role]);
      members[role] = member;
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('has an entry for every route of the catalogue and every socket message, and none for routes that are gone', () => {
    const routes = new Set(catalogue.map((r) => `${r.method} ${r.path}`));
    expect([...routes].filter((key) => !Object.hasOwn(ROUTE_ACTIONS, key))).toEqual([]);
    expect(Object.keys(ROUTE_ACTIONS).filter((key) => !routes.has(key))).toEqual([]);
    expect(CLIENT_MESSAGE_TYPES.filter((type) => !Object.hasOwn(SOCKET_ACTIONS, type))).toEqual([]);
  });

  it('answers every route for every role as the table says: 403 FORBIDDEN_ROLE naming the role needed, or through', async () => {
    const wrong: string[] = [];
    for (const { method, path } of catalogue) {
      const key = `${method} ${path}`;
      const action: Action = ROUTE_ACTIONS[key];
      for (const role of ROLES) {
        const allowed = roleAllows(role, action);
        if (allowed && ENDS_MEMBERSHIP.has(key)) continue;
        const res = await api.call(method, concrete(path), {
          token: members[role].token,
          headers: { 'x-argus-organization': orgId },
          ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }),
        });
        const refused = res.status === 403 && res.data?.code === 'FORBIDDEN_ROLE';
        if (refused === allowed) wrong.push(`${key} as ${role}: ${res.status} ${res.data?.code ?? ''}`);
        if (refused && !String(res.data.detail).includes(`needs the`))
          wrong.push(`${key}: ${res.data.detail}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers every socket message for every role as the table says', async () => {
    const wrong: string[] = [];
    for (const role of ROLES) {
      const member = members[role];
      const socket = openSocket(`${server.url.replace('http', 'ws')}/ws/${member.user.id}`);
      await socket.opened;
      socket.ws.send(JSON.stringify({ type: 'auth', data: { token: member.token, organization_id: orgId } }));
      await socket.next('connection_established');
      for (const type of CLIENT_MESSAGE_TYPES) {
        if (type === 'auth') continue;
        const allowed = roleAllows(role, SOCKET_ACTIONS[type]);
        // Well formed or not: who may send a type is checked first, so `{}` tells refusal apart.
        socket.send(type, {}, `${type}-${role}`);
        const answer = await waitForAnswer(socket, `${type}-${role}`);
        const refused = answer?.data.code === 'FORBIDDEN_ROLE';
        if (refused === allowed) wrong.push(`${type} as ${role}: ${JSON.stringify(answer?.data ?? null)}`);
      }
      socket.ws.close(1000);
      await socket.closed;
    }
    expect(wrong).toEqual([]);
  });
});

/** The first message answering `requestId`, or null when none comes within a second. */
async function waitForAnswer(socket: ReturnType<typeof openSocket>, requestId: string) {
  const until = Date.now() + 1000;
  while (Date.now() < until) {
    const found = socket.all.find((m) => m.request_id === requestId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return null;
}
