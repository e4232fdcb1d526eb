/**
 * Single sign-on with OpenID Connect (docs/SSO.md), against a real provider (oidc-provider) on
 * 127.0.0.1 and, for the ID tokens a real provider never sends, a crafted one: the browser's walk
 * (start → provider → callback → login page → exchange), who a provider account signs in as, and
 * each refusal with its code.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessServer, startInProcess } from '../testing/in-process-server';
import {
  startCraftedProvider,
  startOidcProvider,
  type TestAccount,
  type TestClient,
} from '../testing/oidc-providers';

const CLIENT: TestClient = {
  clientId: 'argus-test',
  clientSecret: 'sso-test-secret-never-logged',
  // Secure cookies (https) and a host of its own: the browser's steps here go through app.inject.
  redirectUri: 'https://argus.test/api/auth/sso/callback',
};

function ssoEnv(issuer: string, name?: string): Record<string, string> {
  return {
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: CLIENT.clientId,
    OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    OIDC_REDIRECT_URL: CLIENT.redirectUri,
    ...(name && { OIDC_NAME: name }),
  };
}

function setCookies(res: LightMyRequestResponse): string[] {
  const header = res.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

function cookie(res: LightMyRequestResponse, name: string): string | undefined {
  const line = setCookies(res).find((c) => c.startsWith(`${name}=`));
  return line?.slice(name.length + 1).split(';')[0];
}

/** GET /api/auth/sso/start as a browser: the provider's URL and this browser's state cookie. */
async function start(app: FastifyInstance) {
  const res = await app.inject({ method: 'GET', url: '/api/auth/sso/start' });
  expect(res.statusCode).toBe(302);
  const state = cookie(res, 'argus_sso_state');
  expect(setCookies(res)[0]).toMatch(/HttpOnly; SameSite=Lax; Secure$/);
  return { url: new URL(String(res.headers.location)), state };
}

/** The provider's pages, followed as a browser follows them (its cookies kept), up to our callback. */
async function walkProvider(from: URL): Promise<URL> {
  const jar = new Map<string, string>();
  let url = from;
  for (let hop = 0; hop < 10; hop++) {
    const cookieHeader = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, {
      redirect: 'manual',
      headers: cookieHeader ? { cookie: cookieHeader } : {},
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = res.headers.get('location');
    if (!location)
      throw new Error(`The provider stopped at ${url.pathname} (${res.status}): ${await res.text()}`);
    const next = new URL(location, url);
    if (next.href.startsWith(CLIENT.redirectUri)) return next;
    url = next;
  }
  throw new Error('The provider redirected too many times');
}

/** The provider's answer arriving at GET /api/auth/sso/callback with this browser's cookie. */
async function callback(app: FastifyInstance, answer: URL, stateCookie: string | undefined) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/auth/sso/callback${answer.search}`,
    headers: stateCookie ? { cookie: `argus_sso_state=${stateCookie}` } : {},
  });
  expect(res.statusCode).toBe(302);
  const location = new URL(String(res.headers.location), 'https://argus.test');
  return {
    page: location.pathname,
    error: location.searchParams.get('sso_error'),
    complete: location.searchParams.get('sso') === 'complete',
    handoff: cookie(res, 'argus_sso_handoff'),
    response: res,
  };
}

/** The login page's POST /api/auth/sso/exchange with the one-time cookie. */
async function exchange(app: FastifyInstance, handoff: string | undefined) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/sso/exchange',
    headers: handoff ? { cookie: `argus_sso_handoff=${handoff}` } : {},
  });
  return { status: res.statusCode, data: res.json(), cleared: cookie(res, 'argus_sso_handoff') === '' };
}

async function me(app: FastifyInstance, token: string) {
  const res = await app.inject({
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: `Bearer ${token}` },
  });
  return res.json();
}

describe('single sign-on with a real OpenID provider', () => {
  let server: InProcessServer;
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  let app: FastifyInstance;
  const accounts: Record<string, TestAccount> = {
    'sub-dana': {
      email: 'dana@example.com',
      email_verified: true,
      name: 'Dana Scully',
      preferred_username: 'dana',
    },
    'sub-erin': { email: 'Erin@Example.com', email_verified: true },
    'sub-fay': { email: 'fay@example.com', email_verified: false },
    'sub-gil': { email: 'gil@initech.example', email_verified: true, preferred_username: 'gil' },
  };

  /** One whole sign-in as `subject`: the exchange's answer. */
  const signIn = async (subject: string) => {
    provider.signInAs.subject = subject;
    const { url, state } = await start(app);
    const back = await callback(app, await walkProvider(url), state);
    return { back, exchanged: back.handoff ? await exchange(app, back.handoff) : undefined };
  };

  beforeAll(async () => {
    provider = await startOidcProvider(CLIENT, accounts);
    server = await startInProcess(ssoEnv(provider.issuer, 'Acme ID'));
    app = server.app;
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.stop();
  });

  it('tells the login page that single sign-on is offered, and by whom', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/sso' });
    expect(res.json()).toEqual({ enabled: true, name: 'Acme ID' });
  });

  it('sends the browser to the provider with PKCE (S256), state and nonce', async () => {
    const { url, state } = await start(app);
    expect(url.origin).toBe(provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT.clientId,
      redirect_uri: CLIENT.redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      state,
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('makes a user at the first sign-in, then signs the same user in again by subject', async () => {
    const first = await signIn('sub-dana');
    expect(first.back).toMatchObject({ page: '/login', complete: true, error: null });
    expect(first.exchanged).toMatchObject({ status: 200, cleared: true });
    const made = first.exchanged?.data;
    expect(made).toMatchObject({
      token_type: 'bearer',
      user: { username: 'dana', email: 'dana@example.com', full_name: 'Dana Scully' },
    });
    expect(await me(app, made.access_token)).toMatchObject({ id: made.user.id, username: 'dana' });

    // The provider's email changes; the account is still the same subject, so the same user.
    accounts['sub-dana'].email = 'dana.scully@example.com';
    const again = await signIn('sub-dana');
    expect(again.exchanged?.data.user.id).toBe(made.user.id);
    const identities = await server.app.services.repos.sso.identities(made.user.id);
    expect(identities).toMatchObject([
      { issuer: provider.issuer, subject: 'sub-dana', email: 'dana.scully@example.com' },
    ]);
  });

  it('links a password account by its verified email, in any case, and never makes a second one', async () => {
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username: 'erin', email: 'erin@example.com', password: 'Passw0rd1' },
    });
    expect(registered.statusCode).toBe(201);
    const { exchanged } = await signIn('sub-erin');
    expect(exchanged?.data.user).toMatchObject({ id: registered.json().user.id, username: 'erin' });
    // The password still signs in too (no organization requires SSO of erin).
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'erin', password: 'Passw0rd1' },
    });
    expect(login.statusCode).toBe(200);
  });

  it("joins an organization claiming the user's email domain with its role, and refuses a password where it requires SSO", async () => {
    const register = async (username: string, email: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { username, email, password: 'Passw0rd1' },
      });
    expect((await register('ivy', 'ivy@initech.example')).statusCode).toBe(201);
    const ivy = (
      await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'ivy', password: 'Passw0rd1' },
      })
    ).json();
    const auth = { authorization: `Bearer ${ivy.access_token}` };
    const org = (
      await app.inject({
        method: 'POST',
        url: '/api/organizations',
        headers: auth,
        payload: { name: 'Initech' },
      })
    ).json();
    const claim = await app.inject({
      method: 'PUT',
      url: '/api/organization',
      headers: { ...auth, 'x-argus-organization': org.id },
      payload: { sso_domain: 'Initech.example', sso_role: 'runner', sso_required: true },
    });
    expect(claim.json()).toMatchObject({
      sso_domain: 'initech.example',
      sso_role: 'runner',
      sso_required: true,
    });
    // Gil signs in through the provider for the first time: he is made, and joins Initech as a runner.
    const { exchanged } = await signIn('sub-gil');
    const gil = exchanged?.data;
    const orgs = await app.inject({
      method: 'GET',
      url: '/api/organizations',
      headers: { authorization: `Bearer ${gil.access_token}` },
    });
    expect(orgs.json().map((o: { name: string; role: string }) => [o.name, o.role])).toEqual([
      ['gil', 'owner'],
      ['Initech', 'runner'],
    ]);
    // Ivy, a member of an organization requiring SSO, can no longer sign in with her password.
    const refused = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'ivy', password: 'Passw0rd1' },
    });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'SSO_REQUIRED']);
    expect(refused.json().detail).toContain('Initech requires its members to sign in with single sign-on');
  });

  it('refuses a first sign-in whose email the provider has not verified (SSO_EMAIL_UNVERIFIED)', async () => {
    const { back } = await signIn('sub-fay');
    expect(back).toMatchObject({ page: '/login', error: 'SSO_EMAIL_UNVERIFIED', handoff: undefined });
    expect(await server.app.services.repos.sso.findUserByEmail('fay@example.com')).toBeUndefined();
  });

  it('refuses a replayed state (SSO_STATE_INVALID): the provider answer finishes one sign-in only', async () => {
    provider.signInAs.subject = 'sub-dana';
    const { url, state } = await start(app);
    const answer = await walkProvider(url);
    expect((await callback(app, answer, state)).complete).toBe(true);
    const replayed = await callback(app, answer, state);
    expect(replayed).toMatchObject({ error: 'SSO_STATE_INVALID', handoff: undefined });
  });

  it('refuses an answer opened in another browser, without the state cookie (SSO_STATE_INVALID)', async () => {
    provider.signInAs.subject = 'sub-dana';
    const { url } = await start(app);
    const answer = await walkProvider(url);
    expect(await callback(app, answer, undefined)).toMatchObject({ error: 'SSO_STATE_INVALID' });
  });

  it("answers the provider's own refusal on the login page (SSO_PROVIDER_DENIED)", async () => {
    const { state } = await start(app);
    const answer = new URL(`${CLIENT.redirectUri}?error=access_denied&state=${state}`);
    expect(await callback(app, answer, state)).toMatchObject({ error: 'SSO_PROVIDER_DENIED' });
  });

  it('hands the login token over once: a used, forged or missing code is refused (SSO_HANDOFF_INVALID)', async () => {
    provider.signInAs.subject = 'sub-dana';
    const { url, state } = await start(app);
    const { handoff } = await callback(app, await walkProvider(url), state);
    expect((await exchange(app, handoff)).status).toBe(200);
    for (const code of [handoff, 'A'.repeat(43), undefined]) {
      const refused = await exchange(app, code);
      expect(refused).toMatchObject({ status: 401, data: { code: 'SSO_HANDOFF_INVALID' } });
    }
  });
});

describe('single sign-on refuses ID tokens that fail verification', () => {
  let server: InProcessServer;
  let provider: Awaited<ReturnType<typeof startCraftedProvider>>;
  let app: FastifyInstance;

  /** A sign-in whose ID token is shaped by `next`: where the callback sent the browser. */
  const signInWith = async (next: Parameters<typeof Object.assign>[1]) => {
    const { url, state } = await start(app);
    provider.next.claims = undefined;
    provider.next.key = undefined;
    Object.assign(provider.next, next, { nonce: url.searchParams.get('nonce') ?? undefined });
    const answer = new URL(`${CLIENT.redirectUri}?code=crafted-code&state=${state}`);
    return callback(app, answer, state);
  };

  beforeAll(async () => {
    provider = await startCraftedProvider(CLIENT);
    server = await startInProcess(ssoEnv(provider.issuer));
    app = server.app;
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.stop();
  });

  it('signs in with a well-formed token from the same provider (so each refusal below is its flaw alone)', async () => {
    const back = await signInWith({});
    expect(back).toMatchObject({ complete: true, error: null });
    expect((await exchange(app, back.handoff)).data.user.email).toBe('crafted@example.com');
    const status = await app.inject({ method: 'GET', url: '/api/auth/sso' });
    expect(status.json()).toEqual({ enabled: true, name: new URL(provider.issuer).host });
  });

  it('refuses a token issued for another application (SSO_ID_TOKEN_AUDIENCE)', async () => {
    expect(await signInWith({ claims: { aud: 'another-app' } })).toMatchObject({
      error: 'SSO_ID_TOKEN_AUDIENCE',
    });
  });

  it('refuses an expired token (SSO_ID_TOKEN_EXPIRED)', async () => {
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    const back = await signInWith({ claims: { iat: hourAgo - 300, exp: hourAgo } });
    expect(back).toMatchObject({ error: 'SSO_ID_TOKEN_EXPIRED' });
  });

  it("refuses a token signed with a key not in the provider's JWKS (SSO_ID_TOKEN_SIGNATURE)", async () => {
    expect(await signInWith({ key: 'foreign' })).toMatchObject({ error: 'SSO_ID_TOKEN_SIGNATURE' });
  });

  it('refuses a token for another sign-in, its nonce not ours (SSO_ID_TOKEN_INVALID)', async () => {
    const { url, state } = await start(app);
    Object.assign(provider.next, { claims: { nonce: 'someone-elses' }, key: undefined });
    const back = await callback(app, new URL(`${CLIENT.redirectUri}?code=c&state=${state}`), state);
    expect(back).toMatchObject({ error: 'SSO_ID_TOKEN_INVALID' });
    expect(url.searchParams.get('nonce')).not.toBe('someone-elses');
  });

  it('never logs the client secret', () => {
    expect(server.output()).not.toContain(CLIENT.clientSecret);
  });
});

describe('single sign-on when the operator has not configured it', () => {
  let server: InProcessServer;
  beforeAll(async () => {
    server = await startInProcess();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('offers none on the login page, and a start goes back to it saying so', async () => {
    const status = await server.app.inject({ method: 'GET', url: '/api/auth/sso' });
    expect(status.json()).toEqual({ enabled: false, name: null });
    const started = await server.app.inject({ method: 'GET', url: '/api/auth/sso/start' });
    expect(started.statusCode).toBe(302);
    expect(started.headers.location).toBe('/login?sso_error=SSO_NOT_CONFIGURED');
    const exchanged = await server.app.inject({ method: 'POST', url: '/api/auth/sso/exchange' });
    expect(exchanged.json()).toMatchObject({ code: 'SSO_HANDOFF_INVALID' });
  });
});
