import { type StatementScope, statementScope } from '@argus/db';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerStatementScope } from './statement-scope';

/** What a handler saw of its scope, after awaiting (as a repository's statement would). */
interface Seen {
  scope: StatementScope | undefined;
  deadline: number | undefined;
  signal: boolean;
}

describe("an API read's statement scope", () => {
  let app: FastifyInstance;
  const seen: Seen[] = [];

  beforeAll(async () => {
    app = Fastify();
    registerStatementScope(app, 2_000);
    const look = async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const scope = statementScope();
      seen.push({ scope, deadline: scope?.deadline, signal: Boolean(scope?.signal) });
      return { ok: true };
    };
    app.get('/api/look', look);
    app.post('/api/look', look);
    app.get('/elsewhere', look);
    await app.ready();
  });
  afterAll(() => app.close());

  it('reaches the route handler of a GET under /api, past its awaits, with the deadline and signal', async () => {
    seen.length = 0;
    const before = Date.now();
    expect((await app.inject({ method: 'GET', url: '/api/look?x=1' })).statusCode).toBe(200);
    const [{ scope, deadline, signal }] = seen;
    expect(deadline).toBeGreaterThanOrEqual(before + 2_000);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 2_000);
    expect(signal).toBe(true);
    expect(scope?.timeoutMs).toBe(2_000);
    // Answered: whatever the request left running is no longer held to its limits.
    expect(scope?.deadline).toBeUndefined();
    expect(scope?.signal).toBeUndefined();
  });

  it('opens none for a write, or for a path outside /api', async () => {
    seen.length = 0;
    await app.inject({ method: 'POST', url: '/api/look', payload: { a: 1 } });
    await app.inject({ method: 'GET', url: '/elsewhere' });
    expect(seen.map((one) => one.scope)).toEqual([undefined, undefined]);
  });

  it('gives each request a scope of its own', async () => {
    seen.length = 0;
    await Promise.all([1, 2, 3].map(() => app.inject({ method: 'GET', url: '/api/look' })));
    expect(new Set(seen.map((one) => one.scope)).size).toBe(3);
  });
});
