import type { JsonObject, SessionType } from '@argus/protocol';

/** What a screen needs to know of a stored session (the sessions store's client sessions fit). */
export interface StoredSession {
  id: string;
  type: string;
  status: string;
  updatedAt: string;
  url: string | null;
  settings: JsonObject;
  metadata: { [key: string]: unknown };
}

/** What a screen keeps with its session beyond its settings (docs/PRODUCT.md#sessions; the store drops screenshots, keeps 10 logs). */
export interface ScreenSessionMetadata {
  testCases?: unknown[];
  executionResults?: unknown[];
  screenshots?: unknown[];
  logs?: unknown[];
  [key: string]: unknown;
}

export interface ScreenSessionInput {
  type: SessionType;
  title: string;
  url?: string | null;
  description?: string | null;
  settings?: JsonObject;
  metadata?: ScreenSessionMetadata;
}

export interface ScreenSessionPatch {
  title?: string;
  url?: string | null;
  settings?: JsonObject;
  metadata?: ScreenSessionMetadata;
}

/**
 * What a screen needs from the sessions store. The app passes its sessions context value (features
 * do not import each other); only these members are used.
 */
export interface ScreenSessionStore {
  /** The user's sessions, for restoring a screen as it was left and for following work by id. */
  sessions: readonly StoredSession[];
  /** Reports its own failures (a toast) and rejects; a server failure gives a local-only session. */
  createSession(input: ScreenSessionInput): Promise<{ id: string; settings: JsonObject }>;
  /** Reports its own failures; the change is kept in this browser. */
  updateSession(id: string, patch: ScreenSessionPatch): Promise<unknown>;
}

/** The host of a URL ('shop.example.com:8080'): a screen keeps one session per site. The text itself when it is no URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url.trim()).host || url.trim();
  } catch {
    return url.trim();
  }
}

/**
 * The most recently updated active session of `type` in which `read` finds something to show again,
 * with what it read; anything `read` refuses (null) is skipped.
 */
export function latestSession<T>(
  sessions: readonly StoredSession[],
  type: SessionType,
  read: (session: StoredSession) => T | null,
): { session: StoredSession; value: T } | null {
  const candidates = sessions
    .filter((session) => session.type === type && session.status === 'active')
    .slice()
    .sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
  for (const session of candidates) {
    const value = read(session);
    if (value !== null) return { session, value };
  }
  return null;
}

/** The session a screen's work belongs to. */
export interface BoundSession {
  id: string;
  host: string;
  settings: JsonObject;
}

export interface EnsureInput {
  title: string;
  description?: string | null;
  /** Merged into the session's settings. */
  settings: JsonObject;
}

export interface ScreenSession {
  /** The bound session's id, or null. */
  getId: () => string | null;
  current: () => BoundSession | null;
  /**
   * The session for work on `url`: the bound one when it is for the same host (its URL and settings
   * are updated), otherwise a new one. Rejects when the store could not create it (it said why).
   */
  ensure: (url: string, input: EnsureInput) => Promise<string>;
  /** Keeps `settings` (merged into the bound session's) and `metadata` with the bound session, if any. */
  save: (settings: JsonObject, metadata?: ScreenSessionMetadata) => void;
  /** Binds work already under way on the server (a reload, another tab) to its session. */
  follow: (id: string, url: string) => void;
  subscribe: (listener: () => void) => () => void;
}

/**
 * One screen's session: which one its work belongs to, created or reused per site, and what the
 * screen keeps there. `store` is read on every call, so it may change between calls.
 */
export function createScreenSession(type: SessionType, store: () => ScreenSessionStore): ScreenSession {
  let bound: BoundSession | null = null;
  const listeners = new Set<() => void>();

  const bind = (next: BoundSession) => {
    const changed = bound?.id !== next.id;
    bound = next;
    if (changed) for (const listener of listeners) listener();
  };
  /** Failures were reported by the store, and the change is kept in this browser. */
  const update = (id: string, patch: ScreenSessionPatch) => {
    store()
      .updateSession(id, patch)
      .catch(() => {});
  };

  return {
    getId: () => bound?.id ?? null,
    current: () => bound,
    ensure: async (url, { title, description, settings }) => {
      const host = hostOf(url);
      if (bound && bound.host === host) {
        bound.settings = { ...bound.settings, ...settings };
        update(bound.id, { url, settings: bound.settings });
        return bound.id;
      }
      const created = await store().createSession({ type, title, url, description, settings });
      bind({ id: created.id, host, settings: { ...settings, ...created.settings } });
      return created.id;
    },
    save: (settings, metadata) => {
      if (!bound) return;
      bound.settings = { ...bound.settings, ...settings };
      update(bound.id, metadata ? { settings: bound.settings, metadata } : { settings: bound.settings });
    },
    follow: (id, url) => {
      if (bound?.id === id) return;
      const known = store().sessions.find((session) => session.id === id);
      bind({ id, host: hostOf(url), settings: known?.settings ?? {} });
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
