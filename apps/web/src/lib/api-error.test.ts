import { describe, expect, it } from 'vitest';
import { ApiError, describeHttpError, errorText, networkError } from './api-error';

describe('describeHttpError (docs/PRODUCT.md#api-errors)', () => {
  it('turns a 422 into "Validation Error: " plus the joined field messages', () => {
    const error = describeHttpError(422, {
      detail: [
        { loc: ['body', 'email'], msg: 'Enter a valid email address', type: 'custom' },
        { loc: ['body', 'password'], msg: 'Password must contain a digit', type: 'custom' },
      ],
    });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(422);
    expect(error.message).toBe(
      'Validation Error: Enter a valid email address, Password must contain a digit',
    );
    expect(error.detail).toBe(error.message);
    expect(error.issues).toHaveLength(2);
  });

  it('says "Authentication failed" for a 401 and keeps the server detail', () => {
    const error = describeHttpError(401, { detail: 'Incorrect username or password' });
    expect(error.message).toBe('Authentication failed');
    expect(error.detail).toBe('Incorrect username or password');
  });

  it('says "HTTP error! status: N" for anything else', () => {
    const error = describeHttpError(409, { detail: 'Username already registered' });
    expect(error.message).toBe('HTTP error! status: 409');
    expect(error.detail).toBe('Username already registered');
    expect(describeHttpError(500, 'not json').detail).toBeUndefined();
  });

  it('treats no answer and 5xx as transient, 4xx as final', () => {
    expect(networkError(new TypeError('fetch failed')).isTransient).toBe(true);
    expect(describeHttpError(503, undefined).isTransient).toBe(true);
    expect(describeHttpError(401, undefined).isTransient).toBe(false);
    expect(describeHttpError(404, undefined).isTransient).toBe(false);
  });
});

describe('errorText', () => {
  it('prefers the server detail, then the message, then the fallback', () => {
    expect(errorText(describeHttpError(400, { detail: 'Current password is incorrect' }), 'x')).toBe(
      'Current password is incorrect',
    );
    expect(errorText(describeHttpError(500, {}), 'x')).toBe('HTTP error! status: 500');
    expect(errorText(new Error('boom'), 'x')).toBe('boom');
    expect(errorText('weird', 'Password change failed')).toBe('Password change failed');
  });
});
