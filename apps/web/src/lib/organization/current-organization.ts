import { readSavedUser } from '../auth-storage';

/**
 * Which organization the screens act in (docs/ORGANIZATIONS.md): the sidebar's choice, kept per user
 * in local storage and sent as `X-Argus-Organization` on every API call (and as `organization_id` in
 * the socket's `auth` message). No choice, or the personal organization (whose id is the user's),
 * sends no header: the server then acts in the personal organization.
 */
export const ORGANIZATION_HEADER = 'X-Argus-Organization';
const KEY_PREFIX = 'argus.organization.';

export function organizationStorageKey(userId: string): string {
  return `${KEY_PREFIX}${userId}`;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function savedUserId(): string | null {
  const saved = readSavedUser();
  return saved.kind === 'ok' ? saved.user.id : null;
}

/** The chosen organization of `userId` (default: the signed-in user), or null for their personal one. */
export function getCurrentOrganizationId(userId: string | null = savedUserId()): string | null {
  if (!userId) return null;
  const chosen = storage()?.getItem(organizationStorageKey(userId)) ?? null;
  return chosen && chosen !== userId ? chosen : null;
}

/** Remembers the choice of `userId`; null (or their own id) goes back to the personal organization. */
export function setCurrentOrganizationId(userId: string, orgId: string | null): void {
  const store = storage();
  if (!orgId || orgId === userId) store?.removeItem(organizationStorageKey(userId));
  else store?.setItem(organizationStorageKey(userId), orgId);
}

type LostListener = (orgId: string) => void;
const lostListeners = new Set<LostListener>();

/** Told when the server no longer knows the caller in the chosen organization (removed from it). */
export function onOrganizationLost(listener: LostListener): () => void {
  lostListeners.add(listener);
  return () => lostListeners.delete(listener);
}

/**
 * A call sent with `orgId` answered ORGANIZATION_NOT_FOUND: the choice falls back to the personal
 * organization, and the listeners hear of it once (the calls in flight with the same stale header
 * find the choice already gone and say nothing).
 */
export function reportOrganizationLost(orgId: string): void {
  const userId = savedUserId();
  if (!userId || getCurrentOrganizationId(userId) !== orgId) return;
  setCurrentOrganizationId(userId, null);
  for (const listener of lostListeners) listener(orgId);
}
