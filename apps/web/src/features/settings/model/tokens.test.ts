import type { ApiToken } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { tokenState } from './tokens';

const token = (patch: Partial<ApiToken>): ApiToken => ({
  id: '1',
  name: 'CI',
  scope: 'run',
  hint: 'argus_ab12…',
  created_at: '2026-11-01T00:00:00Z',
  expires_at: null,
  last_used_at: null,
  revoked_at: null,
  ...patch,
});

describe('token state', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it('is revoked once revoked, whatever its expiry', () => {
    expect(
      tokenState(token({ revoked_at: '2026-11-20T00:00:00Z', expires_at: '2027-01-01T00:00:00Z' }), now),
    ).toBe('revoked');
  });
  it('is expired from its expiry on', () => {
    expect(tokenState(token({ expires_at: '2026-11-26T12:00:00Z' }), now)).toBe('expired');
    expect(tokenState(token({ expires_at: '2026-11-26T12:00:01Z' }), now)).toBe('active');
  });
  it('never expires without an expiry', () => {
    expect(tokenState(token({}), now)).toBe('active');
  });
});
