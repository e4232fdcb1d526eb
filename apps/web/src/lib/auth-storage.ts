import { type User, UserSchema } from '@argus/protocol';

/**
 * Where the signed-in user's token and profile live (docs/PRODUCT.md#sign-in: restored from local storage at start).
 * Every feature reads them through these helpers so the keys live in one place.
 */
export const TOKEN_STORAGE_KEY = 'argus.token';
export const USER_STORAGE_KEY = 'argus.user';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage can be disabled (privacy settings); the app then works for the current page only.
    return null;
  }
}

export function getToken(): string | null {
  return storage()?.getItem(TOKEN_STORAGE_KEY) ?? null;
}

export function saveAuth(token: string, user: User): void {
  const store = storage();
  store?.setItem(TOKEN_STORAGE_KEY, token);
  store?.setItem(USER_STORAGE_KEY, JSON.stringify(user));
}

export function saveUser(user: User): void {
  storage()?.setItem(USER_STORAGE_KEY, JSON.stringify(user));
}

export function clearAuth(): void {
  const store = storage();
  store?.removeItem(TOKEN_STORAGE_KEY);
  store?.removeItem(USER_STORAGE_KEY);
}

export type SavedUser = { kind: 'none' } | { kind: 'ok'; user: User } | { kind: 'corrupt' };

/** Reads the saved user; a value that is not JSON or not a user is reported as corrupt (docs/PRODUCT.md#sign-in). */
export function parseSavedUser(raw: string | null): SavedUser {
  if (raw === null) return { kind: 'none' };
  try {
    const parsed = UserSchema.safeParse(JSON.parse(raw));
    return parsed.success ? { kind: 'ok', user: parsed.data } : { kind: 'corrupt' };
  } catch {
    return { kind: 'corrupt' };
  }
}

export function readSavedUser(): SavedUser {
  return parseSavedUser(storage()?.getItem(USER_STORAGE_KEY) ?? null);
}
