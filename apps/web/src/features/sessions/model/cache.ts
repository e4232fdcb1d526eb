import { SESSION_STATUSES, SessionTypeSchema } from '@argus/protocol';
import { sanitizeMetadata } from './sanitize';
import type { ClientSession } from './types';

/** The part of Web Storage the cache needs (tests pass an in-memory one). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** docs/PRODUCT.md#sessions: sessions are cached in local storage per user. */
export function sessionCacheKey(userId: string): string {
  return `argus.sessions.${userId}`;
}

const CACHE_VERSION = 1;
const STATUSES = new Set<string>(SESSION_STATUSES.map((s) => s.toLowerCase()));

/** The session as stored: no screenshots, last 10 logs (docs/PRODUCT.md#sessions). */
export function toCachedSession(session: ClientSession): ClientSession {
  return { ...session, metadata: sanitizeMetadata(session.metadata) };
}

function isCachedSession(value: unknown): value is ClientSession {
  if (!value || typeof value !== 'object') return false;
  const s = value as Record<string, unknown>;
  return (
    typeof s.id === 'string' &&
    typeof s.title === 'string' &&
    typeof s.userId === 'string' &&
    typeof s.createdAt === 'string' &&
    typeof s.updatedAt === 'string' &&
    typeof s.status === 'string' &&
    STATUSES.has(s.status) &&
    SessionTypeSchema.safeParse(s.type).success &&
    typeof s.isLocalOnly === 'boolean' &&
    typeof s.settings === 'object' &&
    s.settings !== null &&
    typeof s.metadata === 'object' &&
    s.metadata !== null
  );
}

/**
 * Reads the user's cached sessions: `null` when there is no cache. Entries that are not sessions are
 * skipped; a cache that is not JSON at all throws.
 */
export function readSessionCache(storage: StorageLike, userId: string): ClientSession[] | null {
  const raw = storage.getItem(sessionCacheKey(userId));
  if (raw === null) return null;
  const parsed: unknown = JSON.parse(raw);
  const list =
    parsed && typeof parsed === 'object' && 'sessions' in parsed
      ? (parsed as { sessions: unknown }).sessions
      : parsed;
  if (!Array.isArray(list)) throw new Error('The session cache is not a list');
  return list.filter(isCachedSession).filter((s) => s.userId === userId);
}

/** Writes the cache; a full or disabled storage only costs the offline copy, so it is logged. */
export function writeSessionCache(storage: StorageLike, userId: string, sessions: readonly ClientSession[]) {
  try {
    storage.setItem(
      sessionCacheKey(userId),
      JSON.stringify({ version: CACHE_VERSION, sessions: sessions.map(toCachedSession) }),
    );
  } catch (error) {
    console.warn('Could not cache sessions in local storage', error);
  }
}
