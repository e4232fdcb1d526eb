import { parseStep } from '@argus/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTargets, client } from '../testing/api-targets';
import type { RunningServer } from '../testing/spawn-server';

/** `/api/conversations`: stored conversations, owner-scoped, and "Save as test". */
describe.each(apiTargets())('conversations REST on $name', ({ start }) => {
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  let alice: { token: string };
  let bob: { token: string };

  beforeAll(async () => {
    server = await start();
    api = client(server);
    alice = await api.signUp('alice_conv');
    bob = await api.signUp('bob_conv');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates, lists newest first (paged), reads with messages in order; another user gets 404', async () => {
    const first = await api.call('POST', '/api/conversations', {
      token: alice.token,
      json: { title: 'First', url: 'https://shop.test/' },
    });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ title: 'First', url: 'https://shop.test/', session_id: null });
    // Newest first is by creation time, which the embedded database counts in whole milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await api.call('POST', '/api/conversations', { token: alice.token, json: {} });
    expect(second.data).toMatchObject({ title: 'Video Chat Session', url: null });

    const list = await api.call('GET', '/api/conversations', { token: alice.token });
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([second.data.id, first.data.id]);
    const paged = await api.call('GET', '/api/conversations?limit=1&offset=1', { token: alice.token });
    expect(paged.data.map((c: { id: string }) => c.id)).toEqual([first.data.id]);
    expect((await api.call('GET', '/api/conversations?limit=0', { token: alice.token })).status).toBe(422);

    const id = first.data.id;
    const said = await api.call('POST', `/api/conversations/${id}/messages`, {
      token: alice.token,
      json: { role: 'user', content: 'open the cart' },
    });
    expect(said.status).toBe(201);
    expect(said.data).toMatchObject({ role: 'user', content: 'open the cart', actions: [] });
    await api.call('POST', `/api/conversations/${id}/messages`, {
      token: alice.token,
      json: {
        role: 'assistant',
        content: 'Opened the cart.',
        actions: [{ action: 'Click link "Cart"', url: 'https://shop.test/cart' }],
      },
    });
    const read = await api.call('GET', `/api/conversations/${id}`, { token: alice.token });
    expect(read.data.messages.map((m: { content: string }) => m.content)).toEqual([
      'open the cart',
      'Opened the cart.',
    ]);

    // Bob: her conversation does not exist for him, to read, to add to, or to save.
    for (const [method, path, json] of [
      ['GET', `/api/conversations/${id}`, undefined],
      ['POST', `/api/conversations/${id}/messages`, { role: 'user', content: 'hi' }],
      ['POST', `/api/conversations/${id}/test-case`, {}],
    ] as const) {
      const res = await api.call(method, path, { token: bob.token, json });
      expect(res.status).toBe(404);
      expect(res.data).toEqual({ detail: 'Conversation not found', code: 'NOT_FOUND' });
    }
    expect((await api.call('GET', '/api/conversations', { token: bob.token })).data).toEqual([]);
    expect((await api.call('GET', '/api/conversations')).status).toBe(401);
    expect(
      (await api.call('GET', `/api/conversations/${id}`, { token: alice.token })).data.messages,
    ).toHaveLength(2);
  });

  it('validates bodies in the project’s shapes', async () => {
    const created = await api.call('POST', '/api/conversations', {
      token: alice.token,
      json: { title: 'V' },
    });
    const bad = await api.call('POST', `/api/conversations/${created.data.id}/messages`, {
      token: alice.token,
      json: { role: 'robot', content: '' },
    });
    expect(bad.status).toBe(422);
    expect(bad.data.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual(
      expect.arrayContaining([
        ['body', 'role'],
        ['body', 'content'],
      ]),
    );
    const badUrl = await api.call('POST', '/api/conversations', {
      token: alice.token,
      json: { url: 'file:///etc/passwd' },
    });
    expect(badUrl.status).toBe(422);
    expect(badUrl.data.detail[0].loc).toEqual(['body', 'url']);
    // A session that is not hers is refused as not found.
    const bobSession = await api.call('POST', '/api/sessions/', {
      token: bob.token,
      json: { title: 'b', session_type: 'conversational', url: '' },
    });
    const foreign = await api.call('POST', '/api/conversations', {
      token: alice.token,
      json: { session_id: bobSession.data.id },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.data.code).toBe('SESSION_NOT_FOUND');
    // Nothing to save yet.
    const empty = await api.call('POST', `/api/conversations/${created.data.id}/test-case`, {
      token: alice.token,
      json: {},
    });
    expect(empty.status).toBe(422);
    expect(empty.data.detail[0]).toMatchObject({ loc: ['path', 'id'], type: 'no_actions' });
  });

  it('saves the assistant’s step-language actions as a test case in an automation session', async () => {
    const conversation = await api.call('POST', '/api/conversations', {
      token: alice.token,
      json: { title: 'Cart', url: 'https://shop.test/' },
    });
    const id = conversation.data.id;
    const add = (role: string, content: string, actions: { action: string; url?: string }[] = []) =>
      api.call('POST', `/api/conversations/${id}/messages`, {
        token: alice.token,
        json: { role, content, actions },
      });
    await add('user', 'add the shirt to the cart');
    await add('assistant', 'Added it.', [
      { action: 'Click button "Add to cart"' },
      // Not a step-language line (a free-form note): left out.
      { action: 'looked around the page' },
    ]);
    // A user's message's actions are not the assistant's: left out.
    await add('user', 'then check', [{ action: 'Click link "Nope"' }]);
    await add('assistant', 'The cart shows 1 item.', [{ action: 'Verify text "1 item" is visible' }]);

    const saved = await api.call('POST', `/api/conversations/${id}/test-case`, {
      token: alice.token,
      json: {},
    });
    expect(saved.status).toBe(201);
    expect(saved.data.test_case).toMatchObject({
      test_name: 'Conversation: Cart',
      steps: [
        'Navigate to https://shop.test/',
        'Click button "Add to cart"',
        'Verify text "1 item" is visible',
      ],
      category: 'Conversation',
      priority: 'medium',
      expected_result: '',
      url: 'https://shop.test/',
    });
    for (const step of saved.data.test_case.steps) expect(() => parseStep(step)).not.toThrow();
    const session = await api.call('GET', `/api/sessions/${saved.data.automation_session_id}`, {
      token: alice.token,
    });
    expect(session.data).toMatchObject({
      session_type: 'automation',
      url: 'https://shop.test/',
      settings: { url: 'https://shop.test/', testMode: 'full' },
    });
    expect(session.data.settings.testCases).toEqual([saved.data.test_case]);

    // Into a session that is not an automation one: 422; into Bob's: 404, and his session is unchanged.
    const conversational = await api.call('POST', '/api/sessions/', {
      token: alice.token,
      json: { title: 'c', session_type: 'conversational', url: '' },
    });
    const wrongType = await api.call('POST', `/api/conversations/${id}/test-case`, {
      token: alice.token,
      json: { automation_session_id: conversational.data.id },
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.data.detail[0].loc).toEqual(['body', 'automation_session_id']);
    const bobs = await api.call('POST', '/api/sessions/', {
      token: bob.token,
      json: { title: 'b', session_type: 'automation', url: '', settings: { testCases: [] } },
    });
    const foreign = await api.call('POST', `/api/conversations/${id}/test-case`, {
      token: alice.token,
      json: { automation_session_id: bobs.data.id },
    });
    expect(foreign.status).toBe(404);
    expect(
      (await api.call('GET', `/api/sessions/${bobs.data.id}`, { token: bob.token })).data.settings.testCases,
    ).toEqual([]);
  });
});
