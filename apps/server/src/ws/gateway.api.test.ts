import { WS_CLOSE } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { apiTargets, client } from '../testing/api-targets';
import type { RunningServer } from '../testing/spawn-server';
import { openSocket as open } from '../testing/ws-client';

describe('realtime gateway (PGlite)', () => {
  const [{ start }] = apiTargets();
  let server: RunningServer;
  let wsBase: string;
  let alice: { token: string; user: { id: string } };
  let bob: { token: string; user: { id: string } };

  beforeAll(async () => {
    server = await start();
    wsBase = server.url.replace('http', 'ws');
    const api = client(server);
    alice = await api.signUp('alice');
    bob = await api.signUp('bob');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('accepts the token as a first auth message and greets with connection_established', async () => {
    const c = open(`${wsBase}/ws/${alice.user.id}`);
    await new Promise((r) => c.ws.once('open', r));
    c.ws.send(JSON.stringify({ type: 'auth', data: { token: alice.token } }));
    expect((await c.next('connection_established')).data.user_id).toBe(alice.user.id);
    c.ws.close(1000);
  });

  it('closes with 4401 when the token is missing, invalid, or names another user', async () => {
    const noToken = open(`${wsBase}/ws/${alice.user.id}`);
    await new Promise((r) => noToken.ws.once('open', r));
    noToken.ws.send(JSON.stringify({ type: 'generate_test_cases', data: { url: 'https://example.com' } }));
    expect((await noToken.closed).code).toBe(WS_CLOSE.unauthenticated);

    // `open` sends a `token` of the URL as the auth message (the server refuses tokens in URLs).
    const bad = open(`${wsBase}/ws/${alice.user.id}?token=not.a.token`);
    expect((await bad.closed).code).toBe(WS_CLOSE.unauthenticated);

    const foreign = open(`${wsBase}/ws/${alice.user.id}?token=${bob.token}`);
    const closed = await foreign.closed;
    expect(closed.code).toBe(WS_CLOSE.unauthenticated);
    expect(closed.reason).toBe('Token does not belong to this user');
    expect(foreign.messages).toEqual([]);

    const anonymous = open(`${wsBase}/ws/anonymous`);
    await new Promise((r) => anonymous.ws.once('open', r));
    anonymous.ws.send('{"type":"auth","data":{"token":"x"}}');
    expect((await anonymous.closed).code).toBe(WS_CLOSE.unauthenticated);
  });

  it('closes a socket that never authenticates after the timeout', async () => {
    const c = open(`${wsBase}/ws/${alice.user.id}`);
    const closed = await c.closed;
    expect(closed).toEqual({ code: WS_CLOSE.unauthenticated, reason: 'Authentication timed out' });
  }, 15_000);

  it('answers malformed and schema-violating messages with an error and stays open', async () => {
    const c = open(`${wsBase}/ws/${alice.user.id}?token=${alice.token}`);
    await c.next('connection_established');
    c.ws.send('{not json');
    expect((await c.next('error')).data).toEqual({
      message: 'Message is not valid JSON',
      code: 'VALIDATION',
      feature: 'connection',
    });
    c.ws.send(JSON.stringify({ type: 'generate_test_cases', data: { url: 'ftp://example.com' } }));
    const invalid = await c.next('error');
    expect(invalid.data.message).toMatch(/^Invalid message at data\.url/);
    c.ws.send(JSON.stringify({ type: 'no_such_type', data: {} }));
    expect((await c.next('error')).data.code).toBe('VALIDATION');
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close(1000);
  });

  it('answers conversational messages about sessions that are not the user’s, and accepts orphan clean-up', async () => {
    const c = open(`${wsBase}/ws/${alice.user.id}?token=${alice.token}`);
    await c.next('connection_established');
    c.ws.send(
      JSON.stringify({ type: 'start_conversation', data: { url: 'https://example.com', session_id: 's1' } }),
    );
    const error = await c.next('error');
    expect(error).toMatchObject({
      session_id: 's1',
      data: { code: 'SESSION_NOT_FOUND', feature: 'conversational', message: 'Session not found' },
    });
    // Orphan clean-up on connect is accepted silently: none of her browsers is live.
    c.ws.send(JSON.stringify({ type: 'cleanup_orphaned_sessions', data: { user_id: alice.user.id } }));
    c.ws.send('{not json');
    expect((await c.next('error')).data.code).toBe('VALIDATION');
    expect(c.messages.filter((m) => m.type === 'error')).toEqual([]);
    c.ws.close(1000);
  });

  it('accepts the unload beacon only with a valid token in its body', async () => {
    const beacon = (body: unknown, type = 'text/plain;charset=UTF-8') =>
      fetch(`${server.url}/cleanup`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: JSON.stringify(body),
      });
    const data = {
      session_id: 's1',
      reason: 'page_unload',
      forced_cleanup: true,
      timestamp: new Date().toISOString(),
    };
    expect((await beacon({ token: 'bad', type: 'stop_conversation', data })).status).toBe(401);
    expect((await beacon({ type: 'stop_conversation', data })).status).toBe(422);
    expect((await beacon({ token: alice.token, type: 'stop_conversation', data })).status).toBe(202);
    expect(
      (await beacon({ token: alice.token, type: 'stop_conversation', data }, 'application/json')).status,
    ).toBe(202);
  });
});
