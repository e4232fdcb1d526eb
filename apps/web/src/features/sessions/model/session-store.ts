import type { Session, SessionCreate, SessionUpdate } from '@argus/protocol';
import { ApiError } from '../../../lib/api-error';
import { readSessionCache, type StorageLike, writeSessionCache } from './cache';
import { countActiveSessions } from './counters';
import { makeLocalOnlySession, toNewSession } from './local-only';
import { toClientSession, toServerCreate, toServerStatus, toServerUpdate } from './mapping';
import type { ClientSession, NewSession, SessionCounters, SessionPatch } from './types';

/** The server calls the store needs (the real ones live in ../api). */
export interface SessionsApi {
  list(): Promise<Session[]>;
  get(id: string): Promise<Session>;
  create(body: SessionCreate): Promise<Session>;
  update(id: string, body: SessionUpdate): Promise<Session>;
  remove(id: string): Promise<unknown>;
}

export interface SessionStoreDeps {
  api: SessionsApi;
  /** Local storage, or null when it is unavailable. */
  storage: StorageLike | null;
  /** The signed-in user; null when signed out. */
  userId: string | null;
  now?: () => Date;
  randomId?: () => string;
  /** Told about failures the store recovered from (a session kept local-only). */
  onWarning?: (message: string) => void;
}

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface SessionsSnapshot {
  sessions: readonly ClientSession[];
  counters: SessionCounters;
  status: LoadStatus;
  /** Where the list came from: the server, or this browser's cache when the server failed. */
  source: 'server' | 'cache' | null;
  error: string | null;
}

/** The texts of docs/PRODUCT.md#sessions. */
export const SESSION_ERRORS = {
  unauthenticated: 'User must be authenticated to create sessions',
  loadFailed: 'Failed to load sessions from both backend and local storage',
  notFound: 'Session not found',
  create: (message: string) => `Failed to create session: ${message}`,
  update: (message: string) => `Failed to update session: ${message}`,
  delete: (message: string) => `Failed to delete session: ${message}`,
} as const;

export function reason(error: unknown): string {
  if (error instanceof ApiError) return error.detail ?? error.message;
  if (error instanceof Error && error.message) return error.message;
  return 'Unknown error';
}

function defaultRandomId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * The signed-in user's sessions, kept in memory and in a per-user local cache, with the rules of docs/PRODUCT.md#sessions:
 * a session the server cannot create becomes local-only (never sent on update or delete, syncable
 * later); an update the server refuses keeps the local change; counters count active sessions.
 * Framework-free: React subscribes through `subscribe`/`getSnapshot`.
 */
export class SessionStore {
  private snapshot: SessionsSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly now: () => Date;
  private readonly randomId: () => string;

  constructor(private readonly deps: SessionStoreDeps) {
    this.now = deps.now ?? (() => new Date());
    this.randomId = deps.randomId ?? defaultRandomId;
    let cached: ClientSession[] = [];
    if (deps.userId && deps.storage) {
      try {
        cached = readSessionCache(deps.storage, deps.userId) ?? [];
      } catch {
        cached = [];
      }
    }
    this.snapshot = {
      sessions: cached,
      counters: countActiveSessions(cached),
      status: 'idle',
      source: cached.length > 0 ? 'cache' : null,
      error: null,
    };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SessionsSnapshot => this.snapshot;

  get sessions(): readonly ClientSession[] {
    return this.snapshot.sessions;
  }

  find(id: string): ClientSession | undefined {
    return this.snapshot.sessions.find((s) => s.id === id);
  }

  private set(patch: Partial<SessionsSnapshot>, persist = true) {
    const sessions = patch.sessions ?? this.snapshot.sessions;
    this.snapshot = { ...this.snapshot, ...patch, sessions, counters: countActiveSessions(sessions) };
    if (persist && patch.sessions && this.deps.userId && this.deps.storage) {
      writeSessionCache(this.deps.storage, this.deps.userId, sessions);
    }
    for (const listener of this.listeners) listener();
  }

  private replace(id: string, next: ClientSession) {
    this.set({ sessions: this.snapshot.sessions.map((s) => (s.id === id ? next : s)) });
  }

  /**
   * Loads from the server, keeping local-only sessions and cached metadata; when the server fails,
   * falls back to the local cache. Throws only when both fail.
   */
  async load(): Promise<readonly ClientSession[]> {
    const { userId, storage } = this.deps;
    if (!userId) {
      this.set({ sessions: [], status: 'ready', source: null, error: null }, false);
      return [];
    }
    this.set({ status: 'loading', error: null }, false);
    let cached: ClientSession[] | null = null;
    let cacheError: unknown = null;
    try {
      cached = storage ? readSessionCache(storage, userId) : null;
    } catch (error) {
      cacheError = error;
    }
    try {
      const remote = (await this.deps.api.list()).map(toClientSession);
      const byId = new Map((cached ?? []).map((s) => [s.id, s]));
      const merged = remote.map((session) => {
        const local = byId.get(session.id);
        return local ? { ...session, metadata: { ...local.metadata, ...session.metadata } } : session;
      });
      const localOnly = (cached ?? this.snapshot.sessions).filter((s) => s.isLocalOnly);
      const sessions = [...localOnly, ...merged];
      this.set({ sessions, status: 'ready', source: 'server', error: null });
      return sessions;
    } catch (serverError) {
      if (cacheError === null && storage) {
        console.warn('Could not load sessions from the server; using this browser’s copy', serverError);
        const sessions = cached ?? [];
        this.set({ sessions, status: 'ready', source: 'cache', error: null }, false);
        return sessions;
      }
      this.set({ status: 'error', error: SESSION_ERRORS.loadFailed }, false);
      throw new Error(SESSION_ERRORS.loadFailed);
    }
  }

  /** Creates on the server; when that fails, keeps the session local-only (docs/PRODUCT.md#sessions). */
  async create(input: NewSession): Promise<ClientSession> {
    const { userId } = this.deps;
    if (!userId) throw new Error(SESSION_ERRORS.unauthenticated);
    let session: ClientSession;
    try {
      const created = toClientSession(await this.deps.api.create(toServerCreate(input)));
      // The server keeps a stored copy of the metadata; this browser keeps all of it while open.
      session = { ...created, metadata: { ...created.metadata, ...(input.metadata ?? {}) } };
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) throw error;
      const message = SESSION_ERRORS.create(reason(error));
      console.warn(`${message}; keeping it in this browser only`);
      this.deps.onWarning?.(message);
      session = makeLocalOnlySession(input, userId, this.now(), this.randomId);
    }
    this.set({ sessions: [session, ...this.snapshot.sessions] });
    return session;
  }

  /** Reads one session: from memory, else from the server. */
  async get(id: string): Promise<ClientSession> {
    const known = this.find(id);
    if (known) return known;
    try {
      return toClientSession(await this.deps.api.get(id));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw new Error(SESSION_ERRORS.notFound);
      throw error;
    }
  }

  /**
   * Applies the change here at once, then on the server (never for a local-only session). When the
   * server refuses, the local change is kept and the error thrown.
   */
  async update(id: string, patch: SessionPatch): Promise<ClientSession> {
    const current = this.find(id);
    if (!current) throw new Error(SESSION_ERRORS.notFound);
    const next: ClientSession = { ...current, ...patch, updatedAt: this.now().toISOString() };
    this.replace(id, next);
    if (next.isLocalOnly) return next;
    try {
      const saved = toClientSession(await this.deps.api.update(id, toServerUpdate(next)));
      const merged: ClientSession = { ...saved, metadata: { ...saved.metadata, ...next.metadata } };
      // A later local change may have happened meanwhile; only replace what this update produced.
      if (this.find(id) === next) this.replace(id, merged);
      return merged;
    } catch (error) {
      throw new Error(SESSION_ERRORS.update(reason(error)));
    }
  }

  /** docs/PRODUCT.md#sessions: closing sets the status to closed. */
  close(id: string): Promise<ClientSession> {
    return this.update(id, { status: 'closed' });
  }

  /** Deletes on the server (not for a local-only session), then here. A refusal keeps the session. */
  async remove(id: string): Promise<void> {
    const current = this.find(id);
    if (!current) throw new Error(SESSION_ERRORS.notFound);
    if (!current.isLocalOnly) {
      try {
        await this.deps.api.remove(id);
      } catch (error) {
        // Already gone on the server: forget it here too.
        if (!(error instanceof ApiError && error.status === 404)) {
          throw new Error(SESSION_ERRORS.delete(reason(error)));
        }
      }
    }
    this.set({ sessions: this.snapshot.sessions.filter((s) => s.id !== id) });
  }

  /** Creates a local-only session on the server and replaces the local copy with it (docs/PRODUCT.md#sessions). */
  async sync(id: string): Promise<ClientSession> {
    const current = this.find(id);
    if (!current) throw new Error(SESSION_ERRORS.notFound);
    if (!current.isLocalOnly) return current;
    let created: ClientSession;
    try {
      const body = { ...toServerCreate(toNewSession(current)), status: toServerStatus(current.status) };
      created = toClientSession(await this.deps.api.create(body));
    } catch (error) {
      throw new Error(SESSION_ERRORS.create(reason(error)));
    }
    const synced: ClientSession = { ...created, metadata: { ...created.metadata, ...current.metadata } };
    this.replace(id, synced);
    return synced;
  }

  /** Syncs every local-only session; returns how many made it to the server. */
  async syncAll(): Promise<number> {
    let synced = 0;
    for (const session of this.snapshot.sessions.filter((s) => s.isLocalOnly)) {
      try {
        await this.sync(session.id);
        synced += 1;
      } catch {
        // Left local-only; the next attempt may work.
      }
    }
    return synced;
  }
}
