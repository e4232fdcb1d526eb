import { describe, expect, it } from 'vitest';
import type { Exchange, PageActivity } from './browser-session';
import { expirySign, signsOut } from './session-renewal';

const activity = (...exchanges: Exchange[]): PageActivity => ({
  exchanges,
  newDocument: false,
  changedServer: false,
});
const answer = (status: number, more: Partial<Exchange> = {}): Exchange => ({
  method: 'POST',
  url: 'https://app.test/api/items/1/done',
  status,
  kind: 'fetch',
  redirectedFrom: null,
  ...more,
});
const isSignInUrl = (url: string) => new URL(url).pathname === '/login';

describe('expirySign', () => {
  it('takes a 401 to the page’s own request for an expired session, naming the request', () => {
    expect(expirySign(activity(answer(200), answer(401)))).toEqual({
      reason: 'POST /api/items/1/done was answered 401',
      forbiddenOnly: false,
    });
  });

  it('marks a 403 alone as forbidden only (an app may answer it to a signed-in user)', () => {
    expect(expirySign(activity(answer(403)))).toEqual({
      reason: 'POST /api/items/1/done was answered 403',
      forbiddenOnly: true,
    });
    expect(
      expirySign(activity(answer(403), answer(401, { url: 'https://app.test/api/me', method: 'GET' }))),
    ).toEqual({
      reason: 'GET /api/me was answered 401',
      forbiddenOnly: false,
    });
  });

  it('takes a request redirected to the sign-in page for an expired session, naming what was asked', () => {
    const sent = answer(200, {
      url: 'https://app.test/login?next=%2Fitems',
      redirectedFrom: 'https://app.test/items',
      kind: 'document',
    });
    expect(expirySign(activity(sent), isSignInUrl)).toEqual({
      reason: 'POST /items was sent to the sign-in page',
      forbiddenOnly: false,
    });
    // Without knowing the sign-in page's address, a redirect says nothing.
    expect(expirySign(activity(sent))).toBeNull();
  });

  it('finds nothing in answers below 400 or in other errors', () => {
    const moved = answer(200, {
      url: 'https://app.test/items',
      redirectedFrom: 'https://app.test/items/new',
    });
    expect(expirySign(activity(answer(200), answer(404), answer(500), moved), isSignInUrl)).toBeNull();
  });
});

describe('signsOut', () => {
  it('tells a step that logs out on purpose', () => {
    expect(signsOut('Click button "Log out"')).toBe(true);
    expect(signsOut('Click "Sign off"')).toBe(true);
    expect(signsOut('Click "Logout"')).toBe(true);
    expect(signsOut('Click button "Add"')).toBe(false);
    expect(signsOut('Verify text "Catalogue" is visible')).toBe(false);
  });
});
