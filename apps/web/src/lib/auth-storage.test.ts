import { describe, expect, it } from 'vitest';
import { parseSavedUser } from './auth-storage';

describe('parseSavedUser (docs/PRODUCT.md#sign-in: a corrupt saved user signs out)', () => {
  const user = { id: 'u1', username: 'jane', email: 'jane@example.com', full_name: null };

  it('reads a valid user', () => {
    expect(parseSavedUser(JSON.stringify(user))).toEqual({ kind: 'ok', user });
  });

  it('reports nothing saved', () => {
    expect(parseSavedUser(null)).toEqual({ kind: 'none' });
  });

  it('reports text that is not JSON, or JSON that is not a user, as corrupt', () => {
    expect(parseSavedUser('{not json')).toEqual({ kind: 'corrupt' });
    expect(parseSavedUser('"jane"')).toEqual({ kind: 'corrupt' });
    expect(parseSavedUser(JSON.stringify({ ...user, id: 42 }))).toEqual({ kind: 'corrupt' });
  });
});
