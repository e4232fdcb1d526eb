import { createContext, type ReactNode, useContext, useEffect, useMemo, useSyncExternalStore } from 'react';
import toast from 'react-hot-toast';
import { httpSessionsApi } from './api';
import type { StorageLike } from './model/cache';
import { SessionStore, type SessionsApi, type SessionsSnapshot } from './model/session-store';
import type { ClientSession, NewSession, SessionPatch } from './model/types';

export interface SessionsContextValue extends SessionsSnapshot {
  /** Reloads from the server (falls back to this browser's copy). */
  refresh: () => Promise<readonly ClientSession[]>;
  /** Creates a session; when the server fails it is kept local-only (docs/PRODUCT.md#sessions). */
  createSession: (input: NewSession) => Promise<ClientSession>;
  getSession: (id: string) => Promise<ClientSession>;
  /** Applies a change; a server refusal keeps the local change and is shown as a toast. */
  updateSession: (id: string, patch: SessionPatch) => Promise<ClientSession>;
  closeSession: (id: string) => Promise<ClientSession>;
  deleteSession: (id: string) => Promise<void>;
  /** Creates a local-only session on the server and replaces the local copy. */
  syncLocalSession: (id: string) => Promise<ClientSession>;
}

const SessionsContext = createContext<SessionsContextValue | null>(null);

function browserStorage(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Every failure is shown once as a toast (the texts of docs/PRODUCT.md#sessions) and passed on to the caller. */
async function reported<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    toast.error(error instanceof Error ? error.message : String(error));
    throw error;
  }
}

/**
 * The signed-in user's sessions for every screen. `userId` comes from the auth state (the app
 * composes the two); a new user gets a fresh store and cache.
 */
export function SessionsProvider({
  userId,
  api = httpSessionsApi,
  children,
}: {
  userId: string | null;
  api?: SessionsApi;
  children: ReactNode;
}) {
  const store = useMemo(
    () =>
      new SessionStore({
        api,
        storage: browserStorage(),
        userId,
        onWarning: (message) => toast.error(message, { id: 'session-local-only' }),
      }),
    [api, userId],
  );
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);

  useEffect(() => {
    if (!userId) return;
    store.load().catch((error: unknown) => {
      toast.error(error instanceof Error ? error.message : String(error), { id: 'sessions-load-failed' });
    });
  }, [store, userId]);

  const value = useMemo<SessionsContextValue>(
    () => ({
      ...snapshot,
      refresh: () => reported(store.load()),
      createSession: (input) => reported(store.create(input)),
      getSession: (id) => reported(store.get(id)),
      updateSession: (id, patch) => reported(store.update(id, patch)),
      closeSession: (id) => reported(store.close(id)),
      deleteSession: (id) => reported(store.remove(id)),
      syncLocalSession: (id) => reported(store.sync(id)),
    }),
    [snapshot, store],
  );

  return <SessionsContext.Provider value={value}>{children}</SessionsContext.Provider>;
}

export function useSessions(): SessionsContextValue {
  const value = useContext(SessionsContext);
  if (!value) throw new Error('useSessions must be used inside <SessionsProvider>');
  return value;
}
