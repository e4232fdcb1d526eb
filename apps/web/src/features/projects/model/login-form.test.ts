import { describe, expect, it } from 'vitest';
import {
  checkLogin,
  type LoginValues,
  loginSummary,
  loginValuesFrom,
  undefinedReferences,
} from './login-form';

const blank: LoginValues = {
  mode: 'none',
  loginUrl: '',
  usernameVariable: '',
  passwordSecret: '',
  totpSecret: '',
  steps: '',
};

describe('the login form', () => {
  it('reads each stored mode back into the form', () => {
    expect(loginValuesFrom({ mode: 'none' })).toEqual(blank);
    expect(
      loginValuesFrom({
        mode: 'credentials',
        login_url: '/login',
        username_variable: 'USERNAME',
        password_secret: 'PASSWORD',
        totp_secret: null,
      }),
    ).toEqual({
      ...blank,
      mode: 'credentials',
      loginUrl: '/login',
      usernameVariable: 'USERNAME',
      passwordSecret: 'PASSWORD',
    });
    expect(loginValuesFrom({ mode: 'steps', steps: ['Navigate to /login', 'Click "Sign in"'] }).steps).toBe(
      'Navigate to /login\nClick "Sign in"',
    );
  });

  it('saves credentials; no TOTP secret is null', () => {
    const values = {
      ...blank,
      mode: 'credentials' as const,
      loginUrl: ' /login ',
      usernameVariable: 'USERNAME',
      passwordSecret: 'PASSWORD',
    };
    expect(checkLogin(values)).toEqual({
      login: {
        mode: 'credentials',
        login_url: '/login',
        username_variable: 'USERNAME',
        password_secret: 'PASSWORD',
        totp_secret: null,
      },
      errors: null,
    });
  });

  it('says what credentials lack, field by field', () => {
    expect(checkLogin({ ...blank, mode: 'credentials' }).errors).toEqual({
      loginUrl: "Enter the sign-in page's address, e.g. /login",
      usernameVariable: 'Choose the variable that holds the username',
      passwordSecret: 'Choose the secret that holds the password',
    });
  });

  it('saves steps one per line, blank lines dropped, {{NAME}} allowed', () => {
    const steps =
      'Navigate to /login\n\n  Fill "Email" with "{{USERNAME}}"  \nFill "Password" with "{{PASSWORD}}"\nClick "Sign in"\n';
    expect(checkLogin({ ...blank, mode: 'steps', steps }).login).toEqual({
      mode: 'steps',
      steps: [
        'Navigate to /login',
        'Fill "Email" with "{{USERNAME}}"',
        'Fill "Password" with "{{PASSWORD}}"',
        'Click "Sign in"',
      ],
    });
  });

  it('names the lines that are not in the step language, and refuses none at all', () => {
    expect(
      checkLogin({ ...blank, mode: 'steps', steps: 'Navigate to /login\nlog me in please\n\nClick "Go"' })
        .errors,
    ).toEqual({
      steps: 'Line 2 is not in the step language, e.g. Fill "Email" with "{{USERNAME}}"',
    });
    expect(checkLogin({ ...blank, mode: 'steps', steps: ' \n' }).errors).toEqual({
      steps: 'Write at least one step',
    });
  });

  it('warns of names the project does not define', () => {
    const defined = ['USERNAME', 'PASSWORD'];
    expect(
      undefinedReferences(
        { ...blank, mode: 'steps', steps: 'Fill "a" with "{{USERNAME}}"\nFill "b" with "{{OTP}}"' },
        defined,
      ),
    ).toEqual(['OTP']);
    expect(
      undefinedReferences(
        { ...blank, mode: 'credentials', usernameVariable: 'USER', passwordSecret: 'PASSWORD' },
        defined,
      ),
    ).toEqual(['USER']);
    expect(undefinedReferences({ ...blank, steps: '{{X}}' }, defined)).toEqual([]);
  });

  it('sums the login up in one line', () => {
    expect(loginSummary({ mode: 'none' })).toBe('Argus starts signed out');
    expect(loginSummary({ mode: 'steps', steps: ['a'] })).toBe('Signs in with 1 recorded step');
    expect(
      loginSummary({
        mode: 'credentials',
        login_url: '/login',
        username_variable: 'U',
        password_secret: 'P',
        totp_secret: 'T',
      }),
    ).toBe('Signs in at /login as {{U}}, with a two-factor code');
  });
});
