import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors';
import { API_ROUTE_GROUPS } from '../openapi/api-routes';
import { registerErrorHandler } from '../plugins/error-handler';
import { joinPath, mountRoutes, routeGroup, routeOf } from './route-group';

const NameSchema = z.object({ name: z.string().min(1) });

/** Two routes of a plain group: an empty answer with its status, and a check that comes before the body. */
const route = routeOf<{ open: boolean }>();
const GROUP = routeGroup(
  '/api/things',
  [
    route({
      method: 'DELETE',
      path: '/:id',
      summary: 'Delete a thing',
      tag: 'Things',
      auth: 'none',
      params: z.object({ id: z.string().max(3) }),
      status: 204,
      handle: async () => undefined,
    }),
    route({
      method: 'POST',
      path: '/',
      summary: 'Make a thing',
      tag: 'Things',
      auth: 'none',
      body: NameSchema,
      lazyBody: true,
      status: 201,
      response: NameSchema,
      handle: async (input, { open }) => {
        if (!open) throw new AppError('REGISTRATION_CLOSED');
        return { name: input.body.name };
      },
    }),
  ],
  ['/things'],
);

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function mounted(prefix: string | undefined, open = true): Promise<FastifyInstance> {
  app = Fastify();
  registerErrorHandler(app);
  // The group's made-up routes are not the permission table's: a table of the test's own names them.
  await app.register(
    async (scope) => mountRoutes(scope, GROUP, { open }, () => 'public'),
    prefix ? { prefix } : {},
  );
  return app;
}

describe('a route group', () => {
  it('is registered at its base whether the plugin is mounted there, at the root or at an alias', async () => {
    for (const [prefix, url] of [
      ['/api/things', '/api/things/abc'],
      [undefined, '/api/things/abc'],
      ['/things', '/things/abc'],
    ] as const) {
      const server = await mounted(prefix);
      const res = await server.inject({ method: 'DELETE', url });
      expect(res.statusCode, `${prefix} ${url}`).toBe(204);
      expect(res.body).toBe('');
      await server.close();
    }
  });

  it('refuses to be mounted anywhere else', async () => {
    await expect(mounted('/api/other')).rejects.toThrow(/mount them at \/api\/things/);
  });

  it('validates its input with the declared schemas, and reads a lazy body only where the handler does', async () => {
    const open = await mounted(undefined);
    expect((await open.inject({ method: 'DELETE', url: '/api/things/toolong' })).statusCode).toBe(422);
    const made = await open.inject({ method: 'POST', url: '/api/things', payload: { name: 'a' } });
    expect([made.statusCode, made.json()]).toEqual([201, { name: 'a' }]);
    expect((await open.inject({ method: 'POST', url: '/api/things', payload: {} })).statusCode).toBe(422);
    await open.close();
    // The check before the body wins over a body that would fail.
    const closed = await mounted(undefined, false);
    const refused = await closed.inject({ method: 'POST', url: '/api/things', payload: {} });
    expect(refused.json().code).toBe('REGISTRATION_CLOSED');
  });
});

describe('the declared API routes', () => {
  it('declare a params schema reading each path parameter', () => {
    const unread: string[] = [];
    for (const group of API_ROUTE_GROUPS) {
      for (const route of group.routes) {
        const path = joinPath(group.base, route.path);
        const names = [...path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => name);
        const shape = route.params instanceof z.ZodObject ? Object.keys(route.params.shape) : [];
        for (const name of names) if (!shape.includes(name)) unread.push(`${route.method} ${path}: ${name}`);
      }
    }
    expect(unread).toEqual([]);
  });
});

it('refuses to mount a route the permission table does not name', async () => {
  app = Fastify();
  await expect(
    app.register(async (scope) => mountRoutes(scope, GROUP, { open: true })).ready(),
  ).rejects.toThrow('DELETE /api/things/:id has no entry in the permission table');
});
