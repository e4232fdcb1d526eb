import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from './index';
import { type TwoUsers, twoUserDatabase } from './repository-fixture';

describe.each(testEngines())('conversations repository on $name', ({ open }) => {
  let repos: TwoUsers['repos'];
  let alice: string;
  let bob: string;
  const fixture = twoUserDatabase(open);
  beforeAll(async () => {
    ({ repos, alice, bob } = await fixture.open());
  }, 60_000);
  afterAll(fixture.close);

  it('keeps messages in the order they were added, owner-scoped', async () => {
    const c = await repos.conversations.create(alice, {
      session_id: 'local_1',
      title: 'Chat',
      url: 'https://a.test/',
    });
    await repos.conversations.addMessage(alice, c.id, { role: 'user', content: 'click About' });
    await repos.conversations.addMessage(alice, c.id, {
      role: 'assistant',
      content: 'Clicked',
      actions: [{ action: 'Click link "About"', url: 'https://a.test/about' }],
    });
    const messages = await repos.conversations.messages(alice, c.id);
    expect(messages?.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages?.[1].actions).toEqual([{ action: 'Click link "About"', url: 'https://a.test/about' }]);
    expect((await repos.conversations.forSession(alice, 'local_1'))?.id).toBe(c.id);

    // Bob can neither read nor add to Alice's conversation, nor find it by her session.
    expect(await repos.conversations.get(bob, c.id)).toBeUndefined();
    expect(await repos.conversations.messages(bob, c.id)).toBeUndefined();
    expect(await repos.conversations.addMessage(bob, c.id, { role: 'user', content: 'x' })).toBeUndefined();
    expect(await repos.conversations.forSession(bob, 'local_1')).toBeUndefined();
    expect(await repos.conversations.list(bob, { limit: 10, offset: 0 })).toEqual([]);
    expect((await repos.conversations.messages(alice, c.id))?.length).toBe(2);
    expect(await repos.conversations.get(alice, 'not-a-uuid')).toBeUndefined();
  });

  it('lists newest first, paged', async () => {
    const first = await repos.conversations.create(bob, { title: 'one' });
    // Newest first is by the time each was made: two made within the same clock tick of the embedded
    // database (whose now() counts whole milliseconds) are in no order by time.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await repos.conversations.create(bob, { title: 'two' });
    const all = await repos.conversations.list(bob, { limit: 10, offset: 0 });
    expect(all.map((c) => c.id)).toEqual([second.id, first.id]);
    expect((await repos.conversations.list(bob, { limit: 1, offset: 1 })).map((c) => c.id)).toEqual([
      first.id,
    ]);
  });
});
