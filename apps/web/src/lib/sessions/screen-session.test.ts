import { describe, expect, it } from 'vitest';
import {
  createScreenSession,
  hostOf,
  latestSession,
  type ScreenSessionInput,
  type ScreenSessionPatch,
  type ScreenSessionStore,
  type StoredSession,
} from './screen-session';

function stored(overrides: Partial<StoredSession>): StoredSession {
  return {
    id: 's1',
    type: 'automation',
    status: 'active',
    updatedAt: '2026-01-01T10:00:00.000Z',
    url: 'http://shop.test/',
    settings: {},
    metadata: {},
    ...overrides,
  };
}

/** A sessions store that records what it was asked. */
function fakeStore(sessions: StoredSession[] = [], fail = false) {
  const created: ScreenSessionInput[] = [];
  const updated: Array<[string, ScreenSessionPatch]> = [];
  const store: ScreenSessionStore = {
    sessions,
    createSession: async (input) => {
      if (fail) throw new Error('Failed to create session: down');
      created.push(input);
      return { id: `new${created.length}`, settings: { serverDefault: true } };
    },
    updateSession: async (id, patch) => {
      updated.push([id, patch]);
      if (fail) throw new Error('Failed to update session: down');
      return {};
    },
  };
  return { store, created, updated };
}

describe('hostOf', () => {
  it('names the site a session is for', () => {
    expect(hostOf('http://127.0.0.1:4400/index.html')).toBe('127.0.0.1:4400');
    expect(hostOf(' https://shop.example.com/a?b ')).toBe('shop.example.com');
    expect(hostOf('not a url')).toBe('not a url');
  });
});

describe('latestSession', () => {
  const read = (session: StoredSession) => (session.settings.keep ? session.id : null);

  it('picks the most recently updated active session of the type that read accepts', () => {
    const found = latestSession(
      [
        stored({ id: 'old', settings: { keep: true }, updatedAt: '2026-01-01T09:00:00.000Z' }),
        stored({ id: 'newer', settings: { keep: true } }),
        stored({ id: 'newest-refused', updatedAt: '2026-01-03T00:00:00.000Z' }),
        stored({
          id: 'closed',
          status: 'closed',
          settings: { keep: true },
          updatedAt: '2026-01-04T00:00:00.000Z',
        }),
        stored({
          id: 'chat',
          type: 'conversational',
          settings: { keep: true },
          updatedAt: '2026-01-05T00:00:00.000Z',
        }),
      ],
      'automation',
      read,
    );
    expect(found).toMatchObject({ session: { id: 'newer' }, value: 'newer' });
  });

  it('finds nothing in an empty or refused list', () => {
    expect(latestSession([], 'automation', read)).toBeNull();
    expect(latestSession([stored({})], 'automation', read)).toBeNull();
  });
});

describe('createScreenSession', () => {
  it('creates a session for a site, then reuses it for the same host and updates its URL and settings', async () => {
    const { store, created, updated } = fakeStore();
    const session = createScreenSession('automation', () => store);
    let changes = 0;
    session.subscribe(() => {
      changes += 1;
    });
    expect(session.getId()).toBeNull();

    const id = await session.ensure('http://shop.test/', {
      title: 'Automation: shop.test',
      description: 'Full website testing',
      settings: { testMode: 'full', url: 'http://shop.test/' },
    });
    expect(id).toBe('new1');
    expect(created).toEqual([
      {
        type: 'automation',
        title: 'Automation: shop.test',
        url: 'http://shop.test/',
        description: 'Full website testing',
        settings: { testMode: 'full', url: 'http://shop.test/' },
      },
    ]);
    expect(session.current()).toEqual({
      id: 'new1',
      host: 'shop.test',
      settings: { testMode: 'full', url: 'http://shop.test/', serverDefault: true },
    });
    expect(changes).toBe(1);

    const again = await session.ensure('http://shop.test/cart', {
      title: 'ignored',
      settings: { url: 'http://shop.test/cart' },
    });
    expect(again).toBe('new1');
    expect(created).toHaveLength(1);
    expect(updated).toEqual([
      [
        'new1',
        {
          url: 'http://shop.test/cart',
          settings: { testMode: 'full', url: 'http://shop.test/cart', serverDefault: true },
        },
      ],
    ]);
    expect(changes).toBe(1);

    expect(
      await session.ensure('http://other.test/', { title: 'Automation: other.test', settings: {} }),
    ).toBe('new2');
    expect(session.current()?.host).toBe('other.test');
    expect(changes).toBe(2);
  });

  it('passes on a failure to create, and stays unbound', async () => {
    const { store } = fakeStore([], true);
    const session = createScreenSession('automation', () => store);
    await expect(session.ensure('http://shop.test/', { title: 't', settings: {} })).rejects.toThrow(
      'Failed to create session',
    );
    expect(session.getId()).toBeNull();
  });

  it('saves settings merged into the bound session with the metadata, and nothing while unbound', async () => {
    const { store, updated } = fakeStore();
    const session = createScreenSession('automation', () => store);
    session.save({ testCases: [] }, { engine: 'x' });
    expect(updated).toEqual([]);

    await session.ensure('http://shop.test/', { title: 't', settings: { testMode: 'full' } });
    session.save({ testCases: [{ test_name: 'a' }] }, { engine: 'builtin' });
    session.save({ command: null });
    expect(updated).toEqual([
      [
        'new1',
        {
          settings: { testMode: 'full', serverDefault: true, testCases: [{ test_name: 'a' }] },
          metadata: { engine: 'builtin' },
        },
      ],
      [
        'new1',
        {
          settings: { testMode: 'full', serverDefault: true, testCases: [{ test_name: 'a' }], command: null },
        },
      ],
    ]);
  });

  it('a failed save is swallowed (the store reported it and kept the change locally)', async () => {
    const fake = fakeStore();
    const failing = fakeStore([], true);
    let current = fake.store;
    const session = createScreenSession('automation', () => current);
    await session.ensure('http://shop.test/', { title: 't', settings: {} });
    current = failing.store;
    expect(() => session.save({ a: 1 })).not.toThrow();
    await Promise.resolve();
    expect(failing.updated).toHaveLength(1);
  });

  it('follows work under way to its session, keeping the settings the store knows', () => {
    const { store } = fakeStore([stored({ id: 'known', settings: { testMode: 'command' } })]);
    const session = createScreenSession('automation', () => store);
    let changes = 0;
    session.subscribe(() => {
      changes += 1;
    });
    session.follow('known', 'http://shop.test:8080/x');
    expect(session.current()).toEqual({
      id: 'known',
      host: 'shop.test:8080',
      settings: { testMode: 'command' },
    });
    session.follow('known', 'http://elsewhere.test/');
    expect(session.current()?.host).toBe('shop.test:8080');
    session.follow('unknown', 'http://shop.test/');
    expect(session.current()).toEqual({ id: 'unknown', host: 'shop.test', settings: {} });
    expect(changes).toBe(2);
  });
});
