import type { Session, SessionCreate, SessionUpdate } from '@argus/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import { MemoryStorage } from '../../../lib/memory-storage';
import { readSessionCache, sessionCacheKey, writeSessionCache } from './cache';
import { SESSION_ERRORS, SessionStore, type SessionsApi } from './session-store';

/** An in-memory server with switchable failures. */
class FakeServer implements SessionsApi {
  rows = new Map<string, Session>();
  failing: ApiError | null = null;
  calls: string[] = [];
  private seq = 0;

  private guard(call: string) {
    this.calls.push(call);
    if (this.failing) throw this.failing;
  }

  async list() {
    this.guard('list');
    return [...this.rows.values()].reverse();
  }

  async get(id: string) {
    this.guard(`get ${id}`);
    const row = this.rows.get(id);
    if (!row) throw new ApiError(404, 'HTTP error! status: 404', 'Session not found');
    return row;
  }

  async create(body: SessionCreate) {
    this.guard('create');
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, ++this.seq)).toISOString();
    const row: Session = {
      id: `srv-${this.seq}`,
      user_id: 'u1',
      session_type: body.session_type,
      title: body.title,
      url: body.url ?? null,
      status: (body.status?.toUpperCase() as Session['status']) ?? 'ACTIVE',
      description: body.description ?? null,
      settings: body.settings ?? {},
      created_at: at,
      updated_at: at,
    };
    this.rows.set(row.id, row);
    return row;
  }

  async update(id: string, body: SessionUpdate) {
    this.guard(`update ${id}`);
    const row = this.rows.get(id);
    if (!row) throw new ApiError(404, 'HTTP error! status: 404', 'Session not found');
    const next: Session = {
      ...row,
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.status !== undefined ? { status: body.status.toUpperCase() as Session['status'] } : {}),
      ...(body.settings !== undefined ? { settings: body.settings } : {}),
    };
    this.rows.set(id, next);
    return next;
  }

  async remove(id: string) {
    this.guard(`delete ${id}`);
    const row = this.rows.get(id);
    if (!row) throw new ApiError(404, 'HTTP error! status: 404', 'Session not found');
    this.rows.delete(id);
    return row;
  }
}

const down = () => new ApiError(0, 'Could not reach the server. Check your connection and try again.');

describe('SessionStore', () => {
  let server: FakeServer;
  let storage: MemoryStorage;
  let warnings: string[];
  const make = (userId: string | null = 'u1') =>
    new SessionStore({
      api: server,
      storage,
      userId,
      now: () => new Date('2026-02-01T00:00:00.000Z'),
      randomId: () => 'r1',
      onWarning: (m) => warnings.push(m),
    });

  beforeEach(() => {
    server = new FakeServer();
    storage = new MemoryStorage();
    warnings = [];
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('refuses to create without a signed-in user', async () => {
    await expect(make(null).create({ type: 'automation', title: 'x' })).rejects.toThrow(
      'User must be authenticated to create sessions',
    );
  });

  it('creates on the server, caches it, and counts it', async () => {
    const store = make();
    const session = await store.create({ type: 'automation', title: 'Suite', url: 'https://a.example' });
    expect(session).toMatchObject({ id: 'srv-1', status: 'active', isLocalOnly: false, title: 'Suite' });
    expect(store.getSnapshot().counters).toEqual({ automation: 1, conversational: 0, total: 1 });
    expect(readSessionCache(storage, 'u1')?.map((s) => s.id)).toEqual(['srv-1']);
  });

  it('falls back to a local-only session when the server cannot create it', async () => {
    const store = make();
    server.failing = down();
    const session = await store.create({ type: 'conversational', title: 'Chat' });
    expect(session).toMatchObject({ id: 'local_r1', title: 'Chat (Local Only)', isLocalOnly: true });
    expect(warnings).toEqual([`Failed to create session: ${down().message}`]);
    expect(store.getSnapshot().counters).toEqual({ automation: 0, conversational: 1, total: 1 });
  });

  it('never sends a local-only session on update or delete', async () => {
    const store = make();
    server.failing = down();
    const local = await store.create({ type: 'automation', title: 'Offline' });
    server.failing = null;
    server.calls = [];
    const updated = await store.update(local.id, { status: 'closed' });
    expect(updated.status).toBe('closed');
    await store.remove(local.id);
    expect(server.calls).toEqual([]);
    expect(store.sessions).toEqual([]);
  });

  it('syncs a local-only session by creating it on the server and replacing the local copy', async () => {
    const store = make();
    server.failing = down();
    const local = await store.create({ type: 'automation', title: 'Later', metadata: { testCases: [1] } });
    server.failing = null;
    const synced = await store.sync(local.id);
    expect(synced).toMatchObject({ id: 'srv-1', title: 'Later', isLocalOnly: false });
    expect(synced.metadata.testCases).toEqual([1]);
    expect(store.sessions.map((s) => s.id)).toEqual(['srv-1']);
    expect(server.rows.get('srv-1')?.title).toBe('Later');
  });

  it('keeps the local change when the server refuses an update', async () => {
    const store = make();
    const session = await store.create({ type: 'automation', title: 'Suite' });
    server.failing = new ApiError(500, 'HTTP error! status: 500');
    await expect(store.update(session.id, { title: 'Renamed' })).rejects.toThrow(
      'Failed to update session: HTTP error! status: 500',
    );
    expect(store.find(session.id)?.title).toBe('Renamed');
    expect(readSessionCache(storage, 'u1')?.[0].title).toBe('Renamed');
  });

  it('sends the status upper case and counts only active sessions', async () => {
    const store = make();
    const a = await store.create({ type: 'automation', title: 'A' });
    await store.create({ type: 'conversational', title: 'B' });
    expect(store.getSnapshot().counters).toEqual({ automation: 1, conversational: 1, total: 2 });
    await store.close(a.id);
    expect(server.rows.get(a.id)?.status).toBe('CLOSED');
    expect(store.find(a.id)?.status).toBe('closed');
    expect(store.getSnapshot().counters).toEqual({ automation: 0, conversational: 1, total: 1 });
    // Deleting a closed session changes no counter; deleting an active one decrements, never below 0.
    await store.remove(a.id);
    expect(store.getSnapshot().counters).toEqual({ automation: 0, conversational: 1, total: 1 });
    const b = store.sessions[0];
    await store.remove(b.id);
    expect(store.getSnapshot().counters).toEqual({ automation: 0, conversational: 0, total: 0 });
  });

  it('keeps the session when the server refuses a delete', async () => {
    const store = make();
    const session = await store.create({ type: 'automation', title: 'A' });
    server.failing = new ApiError(500, 'HTTP error! status: 500', 'Database unavailable');
    await expect(store.remove(session.id)).rejects.toThrow('Failed to delete session: Database unavailable');
    expect(store.find(session.id)).toBeDefined();
  });

  it('says "Session not found" for an unknown id', async () => {
    const store = make();
    await expect(store.update('nope', { title: 'x' })).rejects.toThrow(SESSION_ERRORS.notFound);
    await expect(store.remove('nope')).rejects.toThrow(SESSION_ERRORS.notFound);
    await expect(store.get('nope')).rejects.toThrow(SESSION_ERRORS.notFound);
  });

  it('loads from the server, keeping local-only sessions and cached metadata', async () => {
    const first = make();
    const saved = await first.create({ type: 'automation', title: 'A', metadata: { executionResults: [1] } });
    server.failing = down();
    await first.create({ type: 'automation', title: 'B' });
    server.failing = null;

    const store = make();
    const sessions = await store.load();
    expect(sessions.map((s) => s.id)).toEqual(['local_r1', saved.id]);
    expect(sessions[1].metadata.executionResults).toEqual([1]);
    expect(store.getSnapshot()).toMatchObject({ status: 'ready', source: 'server' });
  });

  it('falls back to the cache when the server fails', async () => {
    writeSessionCache(storage, 'u1', [
      {
        id: 'srv-9',
        type: 'automation',
        title: 'Cached',
        url: null,
        status: 'active',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        userId: 'u1',
        description: null,
        settings: {},
        isLocalOnly: false,
        metadata: {},
      },
    ]);
    server.failing = down();
    const store = make();
    const sessions = await store.load();
    expect(sessions.map((s) => s.title)).toEqual(['Cached']);
    expect(store.getSnapshot()).toMatchObject({ source: 'cache', status: 'ready' });
  });

  it('fails only when both the server and the cache fail', async () => {
    storage.setItem(sessionCacheKey('u1'), '{corrupt');
    server.failing = down();
    const store = make();
    await expect(store.load()).rejects.toThrow('Failed to load sessions from both backend and local storage');
    expect(store.getSnapshot()).toMatchObject({
      status: 'error',
      error: 'Failed to load sessions from both backend and local storage',
    });
  });

  it('notifies subscribers on every change', async () => {
    const store = make();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    await store.create({ type: 'automation', title: 'A' });
    expect(listener).toHaveBeenCalled();
    unsubscribe();
    listener.mockClear();
    await store.create({ type: 'automation', title: 'B' });
    expect(listener).not.toHaveBeenCalled();
  });
});
