import { describe, expect, it } from 'vitest';
import { passwordChecks, passwordStrength, RegisterRequestSchema } from './auth';

describe('password strength (docs/PRODUCT.md#registration)', () => {
  it.each([
    ['', 0, 'Enter password'],
    ['abc', 1, 'Weak'],
    ['abcdefgh', 2, 'Weak'],
    ['Abcdefgh', 3, 'Good'],
    ['abc1', 2, 'Weak'],
    ['Abcdefg1', 4, 'Strong'],
    ['ABCDEFG1', 3, 'Good'],
  ])('rates %j as %i rules met: %s', (password, score, label) => {
    expect(passwordStrength(password)).toEqual({ score, label });
  });

  it('checks each of the four rules on its own', () => {
    expect(passwordChecks('aB3')).toEqual({ length: false, uppercase: true, lowercase: true, digit: true });
    expect(passwordChecks('12345678')).toEqual({
      length: true,
      uppercase: false,
      lowercase: false,
      digit: true,
    });
  });
});

describe('RegisterRequestSchema', () => {
  const valid = {
    username: 'alice',
    email: 'alice@example.com',
    password: 'Passw0rd',
    confirmPassword: 'Passw0rd',
  };

  it('accepts a valid registration and trims the username and email', () => {
    const parsed = RegisterRequestSchema.parse({
      ...valid,
      username: ' alice ',
      email: ' alice@example.com ',
    });
    expect(parsed.username).toBe('alice');
    expect(parsed.email).toBe('alice@example.com');
  });

  it('names every broken password rule', () => {
    const result = RegisterRequestSchema.safeParse({ ...valid, password: 'abc', confirmPassword: 'abc' });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => i.message);
    expect(messages).toEqual([
      'Password must be at least 8 characters',
      'Password must contain an uppercase letter',
      'Password must contain a digit',
    ]);
  });

  it("refuses a confirmation that does not match with the spec's text", () => {
    const result = RegisterRequestSchema.safeParse({ ...valid, confirmPassword: 'Passw0rd!' });
    expect(result.error?.issues[0]).toMatchObject({
      path: ['confirmPassword'],
      message: 'Passwords do not match',
    });
  });

  it('refuses usernames with spaces or quotes', () => {
    expect(RegisterRequestSchema.safeParse({ ...valid, username: "al'ice" }).success).toBe(false);
    expect(RegisterRequestSchema.safeParse({ ...valid, username: 'al ice' }).success).toBe(false);
  });
});
