import type { ApiToken } from '@argus/protocol';

/** "26 Nov 2026" in the reader's locale, or the fallback for no date. */
export function shortDate(iso: string | null, fallback = ''): string {
  if (!iso) return fallback;
  return new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

export type TokenState = 'active' | 'revoked' | 'expired';

export function tokenState(token: ApiToken, now = Date.now()): TokenState {
  if (token.revoked_at) return 'revoked';
  if (token.expires_at && Date.parse(token.expires_at) <= now) return 'expired';
  return 'active';
}
