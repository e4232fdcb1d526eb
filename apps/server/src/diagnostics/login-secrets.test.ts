import type { StepVariables } from '@argus/engine';
import { describe, expect, it } from 'vitest';
import { loginSecrets, totpCodes } from './login-secrets';

/** RFC 6238's SHA-1 key ("12345678901234567890") in base32, and its 8-digit code at 59 s. */
const RFC_KEY = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_URI = `otpauth://totp/Argus?secret=${RFC_KEY}&digits=8&period=30`;

const variables = (entries: Record<string, string>): StepVariables => ({
  values: new Map(Object.entries(entries).map(([name, value]) => [name, { value, secret: false }])),
  source: 'a test',
});

describe("a login's secrets for a case's trace", () => {
  it('makes the codes RFC 6238 gives, from a period before the attempt to one after', () => {
    const codes = totpCodes(RFC_URI, 59_000, 59_000);
    expect(codes).toHaveLength(3);
    expect(codes[1]).toBe('94287082');
    expect(totpCodes('not base32 !', 0, 0)).toEqual([]);
    // A case that ran for a day names a bounded number of codes.
    expect(totpCodes(RFC_KEY, 0, 86_400_000).length).toBeLessThanOrEqual(240);
  });

  it("names each account's password and TOTP secret and the codes used, and nothing without a login", () => {
    let clock = 59_000;
    const target = {
      plan: {
        mode: 'credentials' as const,
        loginUrl: '/login',
        username: 'EMAIL',
        password: 'PASSWORD',
        totp: 'TOTP',
      },
      variables: variables({
        EMAIL: 'ada@example.com',
        PASSWORD: 'plain-pass-1',
        PASSWORD_2: 'plain-pass-2',
        PASSWORD_X: 'not-an-account',
        TOTP: RFC_URI,
      }),
    };
    const secrets = loginSecrets(target, () => clock);
    clock = 119_000;
    const named = secrets?.() ?? {};
    expect(named.PASSWORD).toBe('plain-pass-1');
    expect(named.PASSWORD_2).toBe('plain-pass-2');
    expect(named.TOTP).toBe(RFC_URI);
    expect(Object.values(named)).toContain('94287082');
    expect(named).not.toHaveProperty('EMAIL');
    expect(named).not.toHaveProperty('PASSWORD_X');
    // Periods 0 to 4: from the one before the start (59 s) to the one after the ask (119 s).
    expect(Object.keys(named).filter((name) => name.startsWith('TOTP_CODE_'))).toHaveLength(5);
    expect(loginSecrets(null)).toBeUndefined();
    expect(loginSecrets({ plan: { mode: 'steps', steps: [] }, variables: variables({}) })).toBeUndefined();
  });
});
