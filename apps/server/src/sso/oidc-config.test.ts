import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { parseOidcConfig } from './oidc-config';

const FULL = {
  OIDC_ISSUER: 'https://id.example.com/realms/acme',
  OIDC_CLIENT_ID: 'argus',
  OIDC_CLIENT_SECRET: 'not-to-be-printed-7f3a',
  OIDC_REDIRECT_URL: 'https://argus.example.com/api/auth/sso/callback',
};

describe('OIDC settings', () => {
  it('are off when none is set', () => {
    expect(parseOidcConfig({})).toBeUndefined();
    expect(loadConfig({}).oidc).toBeUndefined();
  });

  it('read all four, the name defaulting to the issuer host', () => {
    expect(loadConfig(FULL).oidc).toEqual({
      issuer: 'https://id.example.com/realms/acme',
      clientId: 'argus',
      clientSecret: 'not-to-be-printed-7f3a',
      redirectUrl: 'https://argus.example.com/api/auth/sso/callback',
      name: 'id.example.com',
      allowHttp: false,
    });
    expect(parseOidcConfig({ ...FULL, OIDC_NAME: ' Acme SSO ' })?.name).toBe('Acme SSO');
  });

  it('stop the server when only some are set, naming what is missing and never the secret', () => {
    const partial = { OIDC_ISSUER: FULL.OIDC_ISSUER, OIDC_CLIENT_SECRET: FULL.OIDC_CLIENT_SECRET };
    expect(() => loadConfig(partial)).toThrow(/missing: OIDC_CLIENT_ID, OIDC_REDIRECT_URL$/);
    try {
      parseOidcConfig(partial);
    } catch (error) {
      expect(String(error)).not.toContain(FULL.OIDC_CLIENT_SECRET);
    }
    expect(() => parseOidcConfig({ OIDC_NAME: 'Acme' })).toThrow(/missing: OIDC_ISSUER/);
  });

  it('take plain http only from a provider on this machine', () => {
    expect(() => parseOidcConfig({ ...FULL, OIDC_ISSUER: 'http://id.example.com' })).toThrow(
      /OIDC_ISSUER must be an https:\/\/ URL/,
    );
    for (const issuer of ['http://127.0.0.1:9000', 'http://localhost:9000', 'http://[::1]:9000']) {
      expect(parseOidcConfig({ ...FULL, OIDC_ISSUER: issuer })?.allowHttp).toBe(true);
    }
    expect(() => parseOidcConfig({ ...FULL, OIDC_ISSUER: 'ftp://id.example.com' })).toThrow(/http/);
  });

  it("refuse a redirect URL that is not this server's callback", () => {
    for (const url of [
      'https://argus.example.com/',
      'https://argus.example.com/api/auth/sso/callback?x=1',
      'nope',
    ]) {
      expect(() => parseOidcConfig({ ...FULL, OIDC_REDIRECT_URL: url })).toThrow(/OIDC_REDIRECT_URL/);
    }
  });
});
