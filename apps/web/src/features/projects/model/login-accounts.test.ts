import type { ProjectLogin } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { accountsMode } from './login-accounts';

const login: ProjectLogin = {
  mode: 'credentials',
  login_url: '/login',
  username_variable: 'EMAIL',
  password_secret: 'PASSWORD',
  totp_secret: null,
};

describe('accountsMode', () => {
  it('says one account, and how to add a pool, when no numbered variables exist', () => {
    const mode = accountsMode(login, ['EMAIL', 'PASSWORD']);
    expect(mode?.pool).toBe(0);
    expect(mode?.text).toMatch(
      /^One account: .*do not check counts or totals\. For an account per lane, add EMAIL_1 and PASSWORD_1/,
    );
  });

  it('counts a pool of numbered accounts, from 1 with no gap, and says counts are checked', () => {
    const mode = accountsMode(login, [
      'EMAIL_1',
      'PASSWORD_1',
      'EMAIL_2',
      'PASSWORD_2',
      'EMAIL_4',
      'PASSWORD_4',
    ]);
    expect(mode?.pool).toBe(2);
    expect(mode?.usernames).toEqual(['EMAIL_1', 'EMAIL_2']);
    expect(mode?.text).toMatch(/^Account pool: 2 accounts \(EMAIL_1 … EMAIL_2\)\. .*check counts and totals/);
  });

  it('needs the numbered two-factor secret too when the login asks a code', () => {
    const withCode: ProjectLogin = { ...login, totp_secret: 'TOTP' };
    expect(accountsMode(withCode, ['EMAIL_1', 'PASSWORD_1', 'EMAIL_2', 'PASSWORD_2'])?.pool).toBe(0);
    expect(
      accountsMode(withCode, ['EMAIL_1', 'PASSWORD_1', 'TOTP_1', 'EMAIL_2', 'PASSWORD_2', 'TOTP_2'])?.pool,
    ).toBe(2);
  });

  it('says nothing for a login of recorded steps or none', () => {
    expect(accountsMode({ mode: 'none' }, ['EMAIL_1'])).toBeNull();
    expect(accountsMode({ mode: 'steps', steps: ['Navigate to /login'] }, ['EMAIL_1'])).toBeNull();
  });
});
