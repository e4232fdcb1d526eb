import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import Provider from 'oidc-provider';
import { freePort } from './spawn-server';

// Identity providers for the single sign-on tests (routes/sso.api.test.ts), on 127.0.0.1:
// - `startOidcProvider`: a real OpenID provider (the maintained `oidc-provider`, v8: v9 supports
//   Node 22+ only), whose login step signs in whichever account the test names;
// - `startCraftedProvider`: a provider-shaped server the test controls, for what a real provider
//   never sends: an ID token for another audience, an expired one, one signed with a foreign key.

export interface TestClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** What an account's ID token and userinfo say about it. */
export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

export interface RunningProvider {
  issuer: string;
  stop(): Promise<void>;
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done());
  });
}

function close(server: Server): Promise<void> {
  return new Promise((done) => {
    server.close(() => done());
    server.closeAllConnections();
  });
}

async function signingKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

/**
 * oidc-provider with one confidential client (client_secret_basic, PKCE S256 required) and
 * `accounts` by subject. `signInAs` names the account the next login signs in; consent is granted
 * as asked (the scopes are the client's own), so a browser's walk is: authorize → login → back.
 */
export async function startOidcProvider(
  client: TestClient,
  accounts: Record<string, TestAccount>,
): Promise<RunningProvider & { signInAs: { subject: string } }> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signInAs = { subject: Object.keys(accounts)[0] };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'provider-key', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: ['sso-test-cookie-key'] },
    pkce: { methods: ['S256'], required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    // The claims an ID token carries are those of its scopes, not only what userinfo would answer.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) =>
      accounts[sub] ? { accountId: sub, claims: () => ({ sub, ...accounts[sub] }) } : undefined,
    loadExistingGrant: async (ctx) => {
      const { session, client: asking } = ctx.oidc;
      if (!session?.accountId || !asking) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: asking.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/interaction/')) {
      // The login step: whoever the test named has just typed their password.
      provider
        .interactionFinished(
          req,
          res,
          { login: { accountId: signInAs.subject } },
          { mergeWithLastSubmission: false },
        )
        .catch((error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
      return;
    }
    callback(req, res);
  });
  await listen(server, port);
  return { issuer, signInAs, stop: () => close(server) };
}

/** What the crafted provider's token endpoint answers next: an ID token built from these. */
export interface CraftedToken {
  /** Claims over the well-formed ones (iss, sub, aud, exp, iat, nonce, email, email_verified). */
  claims?: JWTPayload & Record<string, unknown>;
  /** `foreign`: signed with a key that is not in the JWKS, under the JWKS key's own kid. */
  key?: 'provider' | 'foreign';
}

/**
 * Discovery, a JWKS of one key, and a token endpoint answering an ID token for the nonce the test
 * read from the authorization URL, shaped by `next`. It checks the client's secret (Basic) as a
 * provider would, so the token exchange itself is real.
 */
export async function startCraftedProvider(
  client: TestClient,
): Promise<RunningProvider & { next: CraftedToken & { nonce?: string } }> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = await signingKey('crafted-key');
  const foreign = await signingKey('crafted-key');
  const next: CraftedToken & { nonce?: string } = {};
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const idToken = async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: issuer,
      sub: 'crafted-subject',
      aud: client.clientId,
      iat: now,
      exp: now + 300,
      nonce: next.nonce,
      email: 'crafted@example.com',
      email_verified: true,
      ...next.claims,
    };
    const key = next.key === 'foreign' ? foreign.privateKey : provider.privateKey;
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'crafted-key' }).sign(key);
  };
  // client_secret_basic: id and secret form-urlencoded (RFC 6749 §2.3.1), then base64.
  const authenticated = (header: string | undefined) => {
    const [scheme, encoded] = (header ?? '').split(' ');
    if (scheme !== 'Basic' || !encoded) return false;
    const [id, secret] = Buffer.from(encoded, 'base64')
      .toString()
      .split(':')
      .map((part) => decodeURIComponent(part.replaceAll('+', ' ')));
    return id === client.clientId && secret === client.clientSecret;
  };
  const server = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (path === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (path === '/jwks') return json(res, 200, { keys: [provider.publicJwk satisfies JWK] });
    if (path === '/token' && req.method === 'POST') {
      req.resume();
      req.on('end', () => {
        if (!authenticated(req.headers.authorization)) return json(res, 401, { error: 'invalid_client' });
        idToken().then(
          (id_token) => json(res, 200, { access_token: 'crafted-access', token_type: 'Bearer', id_token }),
          (error: unknown) => json(res, 500, { error: 'server_error', error_description: String(error) }),
        );
      });
      return;
    }
    json(res, 404, { error: 'not_found' });
  });
  await listen(server, port);
  return { issuer, next, stop: () => close(server) };
}
