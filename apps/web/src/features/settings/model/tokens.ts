import type { ApiToken, TokenScope } from '@argus/protocol';

export const SCOPE_OPTIONS: { value: TokenScope; label: string }[] = [
  { value: 'run', label: 'Run suites (and read results)' },
  { value: 'read', label: 'Read results only' },
  { value: 'full', label: 'Full access' },
];

export const SCOPE_NAMES: Record<TokenScope, string> = {
  run: 'Run suites',
  read: 'Read results',
  full: 'Full access',
};

export const EXPIRY_OPTIONS = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: '7', label: '7 days' },
  { value: 'never', label: 'Never' },
];

export type TokenState = 'active' | 'revoked' | 'expired';

export function tokenState(token: ApiToken, now = Date.now()): TokenState {
  if (token.revoked_at) return 'revoked';
  if (token.expires_at && Date.parse(token.expires_at) <= now) return 'expired';
  return 'active';
}

/** "26 Nov 2026" in the reader's locale, or the fallback for no date. */
export function shortDate(iso: string | null, fallback: string): string {
  if (!iso) return fallback;
  return new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}
