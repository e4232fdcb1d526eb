import type { SessionType } from '@argus/protocol';
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import {
  createScreenSession,
  latestSession,
  type ScreenSession,
  type ScreenSessionStore,
  type StoredSession,
} from './screen-session';

export interface ScreenSessionRestore<T extends { url: string }> {
  /** What the screen stored in one of its sessions, or null when there is nothing to show again. */
  read: (session: StoredSession) => T | null;
  /** Shows it again; the session is bound already. */
  apply: (value: T) => void;
  /** True once the screen has started something of its own: nothing is restored over it. */
  isStarted: () => boolean;
}

export interface UseScreenSessionOptions<T extends { url: string }> {
  type: SessionType;
  /** The app's sessions store (the app passes its sessions context value). */
  sessions: ScreenSessionStore;
  /** The screen as it was left: the latest active session of `type` that `read` finds something in, once. */
  restore?: ScreenSessionRestore<T>;
}

export interface ScreenSessionHandle extends Omit<ScreenSession, 'getId' | 'subscribe'> {
  /** The bound session's id, or null; the screen redraws when it changes. */
  sessionId: string | null;
}

/**
 * The session a screen's work belongs to (ensure, save, follow, restore), for every screen that keeps
 * its work with a session: automation today, conversational and design comparison next. The
 * functions it returns keep their identity for the screen's lifetime.
 */
export function useScreenSession<T extends { url: string }>({
  type,
  sessions,
  restore,
}: UseScreenSessionOptions<T>): ScreenSessionHandle {
  const latest = useRef({ sessions, restore });
  latest.current = { sessions, restore };

  const session = useMemo(() => createScreenSession(type, () => latest.current.sessions), [type]);
  const sessionId = useSyncExternalStore(session.subscribe, session.getId, session.getId);

  // Once, as soon as the sessions hold something to show, unless the screen has a session already
  // (work it followed) or has started something.
  const restored = useRef(false);
  useEffect(() => {
    const plan = latest.current.restore;
    if (!plan || restored.current) return;
    if (session.current() || plan.isStarted()) {
      restored.current = true;
      return;
    }
    const found = latestSession(sessions.sessions, type, plan.read);
    if (!found) return;
    restored.current = true;
    session.follow(found.session.id, found.value.url);
    plan.apply(found.value);
  }, [sessions.sessions, session, type]);

  return useMemo(
    () => ({
      sessionId,
      current: session.current,
      ensure: session.ensure,
      save: session.save,
      follow: session.follow,
    }),
    [sessionId, session],
  );
}
