import { isLocalSessionId, LOCAL_SESSION_ID_PREFIX } from '@argus/protocol';
import type { ClientSession, NewSession } from './types';

/**
 * docs/PRODUCT.md#sessions: a session the server could not create lives only in this browser until it is synced. The
 * prefix is the protocol's: the server accepts such an id on a run as a label it cannot own.
 */
export const LOCAL_ID_PREFIX = LOCAL_SESSION_ID_PREFIX;
export const LOCAL_TITLE_SUFFIX = ' (Local Only)';

export function isLocalOnlyId(id: string): boolean {
  return isLocalSessionId(id);
}

export function makeLocalOnlySession(
  input: NewSession,
  userId: string,
  now: Date,
  randomId: () => string,
): ClientSession {
  const at = now.toISOString();
  return {
    id: `${LOCAL_ID_PREFIX}${randomId()}`,
    type: input.type,
    title: `${input.title}${LOCAL_TITLE_SUFFIX}`,
    ...(input.name !== undefined ? { name: input.name } : {}),
    url: input.url ?? null,
    status: 'active',
    createdAt: at,
    updatedAt: at,
    userId,
    description: input.description ?? null,
    settings: input.settings ?? {},
    isLocalOnly: true,
    metadata: input.metadata ?? {},
  };
}

/** The title the session had before it became local-only. */
export function stripLocalSuffix(title: string): string {
  return title.endsWith(LOCAL_TITLE_SUFFIX) ? title.slice(0, -LOCAL_TITLE_SUFFIX.length) : title;
}

/** What to send the server when a local-only session is synced. */
export function toNewSession(session: ClientSession): NewSession {
  return {
    type: session.type,
    title: stripLocalSuffix(session.title),
    ...(session.name !== undefined ? { name: session.name } : {}),
    url: session.url,
    description: session.description,
    settings: session.settings,
    metadata: session.metadata,
  };
}
