import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from '../testing/api-targets';
import type { RunningServer } from '../testing/spawn-server';

describe.each(apiTargets())('sessions API on $name', ({ start }) => {
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  let alice: { token: string; user: { id: string } };
  let bob: { token: string; user: { id: string } };

  beforeAll(async () => {
    server = await start();
    api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
  });
  afterAll(async () => {
    await server?.stop();
  });

  const create = (token: string, json: unknown) => api.call('POST', '/api/sessions/', { token, json });

  it('requires authentication on every sessions route', async () => {
    for (const [method, path] of [
      ['GET', '/api/sessions/'],
      ['POST', '/api/sessions/'],
      ['GET', '/api/sessions/00000000-0000-0000-0000-000000000000'],
    ]) {
      const res = await api.call(method, path, { json: method === 'POST' ? { title: 't' } : undefined });
      expect(res.status).toBe(401);
    }
  });

  it('creates a session owned by the caller, ACTIVE by default, with its settings', async () => {
    const settings = {
      testMode: 'command',
      command: 'test the login form',
      url: 'https://example.com',
      testCases: [],
    };
    const res = await create(alice.token, {
      title: 'Automation Session',
      session_type: 'automation',
      description: 'first',
      url: 'https://example.com',
      settings,
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      user_id: alice.user.id,
      session_type: 'automation',
      title: 'Automation Session',
      status: 'ACTIVE',
      settings,
    });
    expect(new Date(res.data.created_at).getTime()).toBeGreaterThan(0);
  });

  it('stores status upper case whatever case the client sends', async () => {
    const made = await create(alice.token, {
      title: 'Chat',
      session_type: 'conversational',
      status: 'active',
    });
    expect(made.data.status).toBe('ACTIVE');
    const closed = await api.call('PUT', `/api/sessions/${made.data.id}`, {
      token: alice.token,
      json: { status: 'closed' },
    });
    expect(closed.status).toBe(200);
    expect(closed.data.status).toBe('CLOSED');
    expect(closed.data.title).toBe('Chat');
    const bad = await api.call('PUT', `/api/sessions/${made.data.id}`, {
      token: alice.token,
      json: { status: 'sleeping' },
    });
    expect(bad.status).toBe(422);
    expect(bad.data.detail[0].loc).toEqual(['body', 'status']);
  });

  it('lists only the caller’s sessions, newest first, with and without the trailing slash, filtered by type', async () => {
    await create(bob.token, { title: 'Bob’s', session_type: 'figma-comparison' });
    const list = await api.call('GET', '/api/sessions/', { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.data.length).toBeGreaterThanOrEqual(2);
    expect(list.data.every((s: { user_id: string }) => s.user_id === alice.user.id)).toBe(true);
    const times = list.data.map((s: { created_at: string }) => s.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const noSlash = await api.call('GET', '/api/sessions?session_type=conversational', {
      token: alice.token,
    });
    expect(noSlash.status).toBe(200);
    expect(noSlash.data.map((s: { session_type: string }) => s.session_type)).toEqual(['conversational']);
    const badQuery = await api.call('GET', '/api/sessions/?limit=-3', { token: alice.token });
    expect(badQuery.status).toBe(422);
  });

  it('answers 404 "Session not found" for another user’s session, on read, update and delete', async () => {
    const mine = await create(alice.token, { title: 'Private', session_type: 'automation' });
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await api.call(method, `/api/sessions/${mine.data.id}`, {
        token: bob.token,
        json: method === 'PUT' ? { title: 'Stolen' } : undefined,
      });
      expect(res.status).toBe(404);
      expect(res.data.detail).toBe('Session not found');
    }
    expect((await api.call('GET', `/api/sessions/${mine.data.id}`, { token: alice.token })).data.title).toBe(
      'Private',
    );
    expect((await api.call('GET', '/api/sessions/not-a-uuid', { token: alice.token })).status).toBe(404);
  });

  it('deletes a session and answers it; a second delete is 404', async () => {
    const made = await create(alice.token, { title: 'Temp', session_type: 'automation' });
    const del = await api.call('DELETE', `/api/sessions/${made.data.id}`, { token: alice.token });
    expect(del.status).toBe(200);
    expect(del.data.id).toBe(made.data.id);
    expect((await api.call('DELETE', `/api/sessions/${made.data.id}`, { token: alice.token })).status).toBe(
      404,
    );
  });

  it('refuses a bad session type or a missing title with 422 naming the field', async () => {
    const res = await create(alice.token, { title: '', session_type: 'karaoke' });
    expect(res.status).toBe(422);
    const locs = res.data.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.title', 'body.session_type']));
    const notObject = await create(alice.token, ['a list']);
    expect(notObject.status).toBe(422);
  });

  it('stores SQL metacharacters and 10 KB strings verbatim (or refuses them), never 500', async () => {
    const title = `'; DELETE FROM sessions; -- "quoted" \\ back $$dollar$$ %s`;
    const description = 'd'.repeat(10_240);
    const url = `https://example.com/?q=${'u'.repeat(3000)}&x=' OR 1=1`;
    const res = await create(alice.token, {
      title,
      description,
      url,
      session_type: 'automation',
      settings: {
        note: "it's ünïcödé with emoji 🚀 and <script>alert(1)</script>",
        deep: { list: [1, 'two', null] },
      },
    });
    expect(res.status).toBe(201);
    const back = await api.call('GET', `/api/sessions/${res.data.id}`, { token: alice.token });
    expect(back.data).toMatchObject({ title, description, url });
    expect(back.data.settings.deep).toEqual({ list: [1, 'two', null] });
    expect(back.data.settings.note).toContain('<script>');
    const longTitle = await create(alice.token, { title: 't'.repeat(10_240), session_type: 'automation' });
    expect(longTitle.status).toBe(422);
    // PostgreSQL cannot store U+0000 in text or jsonb: refused up front, not a 500.
    const nul = await create(alice.token, {
      title: 'ok',
      session_type: 'automation',
      settings: { a: ['x\u0000y'] },
    });
    expect(nul.status).toBe(422);
    expect(nul.data.detail[0]).toMatchObject({ loc: ['body', 'settings', 'a', 0], type: 'nul_character' });
  });
});
