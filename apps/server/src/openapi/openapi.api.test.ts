import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';
import { API_ROUTES } from './openapi';

describe('the OpenAPI document', () => {
  let server: InProcessServer;
  const registered: string[] = [];

  beforeAll(async () => {
    server = await startInProcess();
    // Every route the app answers under /api, from Fastify's own table.
    const table = server.app.printRoutes({ commonPrefix: false, includeHooks: false });
    const stack: string[] = [];
    for (const line of table.split('\n')) {
      const match = /^([│ ]*)(?:├── |└── )(\S+) \(([^)]+)\)/.exec(line);
      const bare = /^([│ ]*)(?:├── |└── )(\S+)$/.exec(line);
      const found = match ?? bare;
      if (!found) continue;
      const depth = found[1].length / 4;
      stack.length = depth;
      stack.push(found[2]);
      if (!match) continue;
      const path = stack.join('');
      for (const method of match[3].split(', ')) {
        if (method === 'HEAD' || !path.startsWith('/api/')) continue;
        registered.push(`${method} ${path}`);
      }
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists every /api route the server registers, and none it does not', () => {
    expect(registered.length).toBeGreaterThan(50);
    expect(registered.filter((route) => !(route in API_ROUTES))).toEqual([]);
    expect(Object.keys(API_ROUTES).filter((route) => !registered.includes(route))).toEqual([]);
  });

  it('is served as OpenAPI 3.1 with the schemas of the routes, without a login', async () => {
    const res = await fetch(`${server.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    const start = doc.paths['/api/projects/{id}/suites/{suiteId}/runs'].post;
    expect(start.responses['202'].content['application/json'].schema.properties).toHaveProperty(
      'test_run_id',
    );
    expect(start.description).toBe('A login, or an API token with scope `run` or `full`.');
    const token = doc.paths['/api/tokens'].post;
    expect(token.requestBody.content['application/json'].schema.properties.scope.enum).toEqual([
      'run',
      'read',
      'full',
    ]);
    expect(doc.paths['/api/runs/{id}/report.xml'].get.responses['200'].content).toHaveProperty(
      'application/xml',
    );
  });
});
