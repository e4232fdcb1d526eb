import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from '../testing/api-targets';
import type { RunningServer } from '../testing/spawn-server';

describe('login limits per account (PGlite)', () => {
  const [{ start }] = apiTargets();
  let server: RunningServer;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    // The per-IP limit is out of the way here: every request comes from 127.0.0.1.
    server = await start({ LOGIN_FAILURES_PER_USER: '10', LOGIN_ATTEMPTS_PER_IP: '1000' });
    api = client(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('shares one budget between the username and the email of an account', async () => {
    await api.register('erin', 'Passw0rd1', 'erin@example.com');
    for (let i = 0; i < 10; i++) expect((await api.login('erin', 'Wrong-pass1')).status).toBe(401);
    const byEmail = await api.login('ERIN@example.com', 'Passw0rd1');
    expect(byEmail.status).toBe(429);
    expect(Number(byEmail.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api.login('erin@example.com', 'Wrong-pass1')).status).toBe(429);
  });

  it('lets at most the limit of a concurrent burst reach password verification', async () => {
    await api.register('frank');
    const answers = await Promise.all(Array.from({ length: 30 }, () => api.login('frank', 'Wrong-pass1')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect((await api.login('frank')).status).toBe(429);
  });

  it('limits unknown logins by their text too', async () => {
    for (let i = 0; i < 10; i++) expect((await api.login('ghost', 'Wrong-pass1')).status).toBe(401);
    expect((await api.login(' GHOST ', 'Wrong-pass1')).status).toBe(429);
  });

  it('resets the count on a successful login', async () => {
    await api.register('grace', 'Passw0rd1', 'grace@example.com');
    for (let i = 0; i < 9; i++) expect((await api.login('grace', 'Wrong-pass1')).status).toBe(401);
    expect((await api.login('grace@example.com')).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await api.login('grace', 'Wrong-pass1')).status).toBe(401);
    expect((await api.login('grace')).status).toBe(429);
  });
});
