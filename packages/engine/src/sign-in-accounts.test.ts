import { describe, expect, it } from 'vitest';
import type { SignInPlan } from './sign-in';
import { accountsMode, signInAccounts } from './sign-in-accounts';
import type { StepVariables } from './variables';

const plan: SignInPlan = {
  mode: 'credentials',
  loginUrl: '/login',
  username: 'EMAIL',
  password: 'PASSWORD',
  totp: 'TOTP',
};
const vars = (names: string[]): StepVariables => ({
  source: 'environment "staging"',
  values: new Map(
    names.map((n) => [n, { value: `${n.toLowerCase()}-value`, secret: !n.startsWith('EMAIL') }]),
  ),
});

describe('signInAccounts', () => {
  it('answers the plain variables as the one account when no numbered ones exist', () => {
    const accounts = signInAccounts(plan, vars(['EMAIL', 'PASSWORD', 'TOTP']));
    expect(accounts).toHaveLength(1);
    expect(accounts[0].number).toBeNull();
    expect(accounts[0].variables.values.get('EMAIL')?.value).toBe('email-value');
  });

  it('makes a pool of the numbered accounts, each reading its own values under the plain names', () => {
    const accounts = signInAccounts(
      plan,
      vars([
        'EMAIL',
        'PASSWORD',
        'TOTP',
        'EMAIL_1',
        'PASSWORD_1',
        'TOTP_1',
        'EMAIL_2',
        'PASSWORD_2',
        'TOTP_2',
      ]),
    );
    expect(accounts.map((a) => a.number)).toEqual([1, 2]);
    expect(accounts[1].variables.values.get('EMAIL')?.value).toBe('email_2-value');
    expect(accounts[1].variables.values.get('PASSWORD')).toEqual({ value: 'password_2-value', secret: true });
    expect(accounts[1].variables.values.get('TOTP')?.value).toBe('totp_2-value');
  });

  it('stops the pool at the first number with a variable missing (a TOTP the login asks for included)', () => {
    const accounts = signInAccounts(
      plan,
      vars(['EMAIL_1', 'PASSWORD_1', 'TOTP_1', 'EMAIL_2', 'PASSWORD_2', 'EMAIL_3', 'PASSWORD_3', 'TOTP_3']),
    );
    expect(accounts.map((a) => a.number)).toEqual([1]);
  });

  it('has one account for a login of recorded steps', () => {
    const steps: SignInPlan = { mode: 'steps', steps: ['Navigate to "/login"'] };
    expect(signInAccounts(steps, vars(['EMAIL_1', 'PASSWORD_1']))).toHaveLength(1);
  });
});

describe('accountsMode', () => {
  it('says data is each lane’s own only with at least as many accounts as lanes, and more than one', () => {
    expect(accountsMode(2, 2).own).toBe(true);
    expect(accountsMode(4, 2).own).toBe(true);
    expect(accountsMode(2, 4).own).toBe(false);
    expect(accountsMode(1, 1).own).toBe(false);
    expect(accountsMode(1, 2).text).toMatch(/one account/);
  });
});
