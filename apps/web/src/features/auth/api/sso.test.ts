import { ERRORS } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { SSO_ERROR_TEXT, ssoErrorText } from './sso';

describe('single sign-on errors on the login page', () => {
  it('has words of its own for every SSO code in the catalogue', () => {
    const codes = Object.keys(ERRORS).filter((code) => code.startsWith('SSO_'));
    expect(codes.length).toBeGreaterThan(8);
    for (const code of codes) expect(Object.keys(SSO_ERROR_TEXT)).toContain(code);
  });

  it('says something general for a code it does not know, never the code itself', () => {
    expect(ssoErrorText('SOMETHING_NEW')).toBe('Single sign-on failed. Please try again.');
    expect(ssoErrorText('SSO_STATE_INVALID')).toMatch(/start it again/);
  });
});
