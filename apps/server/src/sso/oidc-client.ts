import type { ErrorCode } from '@argus/protocol';
import * as oidc from 'openid-client';
import { AppError } from '../errors';
import type { OidcConfig } from './oidc-config';

/** What single sign-on asks of the provider (docs/SSO.md): who the user is and their email. */
const SCOPE = 'openid email profile';
/** How long a request to the provider (discovery, keys, token) may take, in seconds. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** A sign-in's secrets: sent (state, nonce, the verifier's challenge) and checked when it comes back. */
export interface FlowSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The claims of a verified ID token that sign-in uses. */
export interface VerifiedClaims {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
  preferredUsername?: string;
}

/**
 * The provider as openid-client sees it: discovered on first use (a provider that is down when the
 * server starts does not stop it) and kept; a failed discovery is tried again on the next sign-in.
 */
export function oidcClient(config: OidcConfig) {
  let discovered: Promise<oidc.Configuration> | undefined;

  function configuration(): Promise<oidc.Configuration> {
    discovered ??= discover(config).catch((error: unknown) => {
      discovered = undefined;
      throw providerUnavailable('discovery', error);
    });
    return discovered;
  }

  return {
    /** The provider's authorization URL for a new sign-in, with PKCE (S256), state and nonce. */
    async authorizationUrl(secrets: FlowSecrets): Promise<URL> {
      const server = await configuration();
      return oidc.buildAuthorizationUrl(server, {
        redirect_uri: config.redirectUrl,
        scope: SCOPE,
        response_type: 'code',
        state: secrets.state,
        nonce: secrets.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(secrets.codeVerifier),
        code_challenge_method: 'S256',
      });
    },

    /**
     * Exchanges the callback's code for tokens and verifies the ID token (signature against the
     * issuer's JWKS, issuer, audience, expiry, nonce). `query` is the callback's query string, read
     * against OIDC_REDIRECT_URL: behind a proxy the request's own URL may differ from the one the
     * provider was given, which the token endpoint compares.
     */
    async exchange(query: URLSearchParams, secrets: FlowSecrets): Promise<VerifiedClaims> {
      const server = await configuration();
      const callback = new URL(config.redirectUrl);
      callback.search = query.toString();
      let claims: oidc.IDToken | undefined;
      try {
        const tokens = await oidc.authorizationCodeGrant(server, callback, {
          expectedState: secrets.state,
          expectedNonce: secrets.nonce,
          pkceCodeVerifier: secrets.codeVerifier,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (error) {
        throw exchangeError(error);
      }
      if (!claims) throw new AppError('SSO_ID_TOKEN_INVALID', 'The identity provider sent no ID token');
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : undefined,
        // Only a literal true: some providers send "true" strings or leave it out for unverified ones.
        emailVerified: claims.email_verified === true,
        name: typeof claims.name === 'string' ? claims.name : undefined,
        preferredUsername:
          typeof claims.preferred_username === 'string' ? claims.preferred_username : undefined,
      };
    },
  };
}
export type OidcClient = ReturnType<typeof oidcClient>;

async function discover(config: OidcConfig): Promise<oidc.Configuration> {
  const metadata: Partial<oidc.ClientMetadata> = { client_secret: config.clientSecret };
  const server = await oidc.discovery(new URL(config.issuer), config.clientId, metadata, undefined, {
    timeout: PROVIDER_TIMEOUT_SECONDS,
    ...(config.allowHttp && { execute: [oidc.allowInsecureRequests] }),
  });
  // client_secret_basic is the default the standard gives a provider that lists no methods.
  const methods = server.serverMetadata().token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const auth = methods.includes('client_secret_basic')
    ? oidc.ClientSecretBasic(config.clientSecret)
    : oidc.ClientSecretPost(config.clientSecret);
  const configured = new oidc.Configuration(server.serverMetadata(), config.clientId, metadata, auth);
  configured.timeout = PROVIDER_TIMEOUT_SECONDS;
  if (config.allowHttp) oidc.allowInsecureRequests(configured);
  // openid-client trusts an ID token from the token endpoint on TLS alone unless told otherwise; the
  // signature is checked against the issuer's JWKS here too, so a token the provider's keys did not
  // sign is refused whatever the transport (and a loopback provider has no TLS at all).
  oidc.enableNonRepudiationChecks(configured);
  return configured;
}

/**
 * The check an openid-client failure names, from it and its causes: its code (`OAUTH_…`), the claim
 * (`{claim: 'aud'}` and the like) and the messages along the way ('invalid response encountered:
 * JWT signature verification failed').
 */
function failedCheck(error: unknown): { code?: string; claim?: string; message: string } {
  const found: { code?: string; claim?: string } = {};
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const e = current as { code?: unknown; claim?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && e.code.startsWith('OAUTH_')) found.code ??= e.code;
    if (typeof e.claim === 'string') found.claim ??= e.claim;
    if (typeof e.message === 'string' && e.message && !messages.includes(e.message)) messages.push(e.message);
    current = e.cause;
  }
  return { ...found, message: messages.join(': ') || String(error) };
}

/** openid-client's refusal as one of the catalogue's codes, its own words kept in the detail. */
export function exchangeError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof oidc.AuthorizationResponseError) {
    return new AppError('SSO_PROVIDER_DENIED', `The identity provider answered: ${error.error}`);
  }
  if (error instanceof oidc.ResponseBodyError) {
    return new AppError('SSO_PROVIDER_UNAVAILABLE', `The token endpoint answered: ${error.error}`);
  }
  const { code, claim, message } = failedCheck(error);
  const detail = (of: ErrorCode) => new AppError(of, `${new AppError(of).detail} (${message})`);
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && claim === 'aud') return detail('SSO_ID_TOKEN_AUDIENCE');
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED' && claim === 'exp') return detail('SSO_ID_TOKEN_EXPIRED');
  if (code === 'OAUTH_KEY_SELECTION_FAILED' || /signature verification failed/i.test(message)) {
    return detail('SSO_ID_TOKEN_SIGNATURE');
  }
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' || code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') {
    return detail('SSO_ID_TOKEN_INVALID');
  }
  if (code === 'OAUTH_INVALID_RESPONSE' && /ID Token|JWT/i.test(message))
    return detail('SSO_ID_TOKEN_INVALID');
  return providerUnavailable('token', error);
}

function providerUnavailable(step: 'discovery' | 'token', error: unknown): AppError {
  const { message } = failedCheck(error);
  const what = step === 'discovery' ? "The identity provider's discovery document" : 'The token exchange';
  return new AppError('SSO_PROVIDER_UNAVAILABLE', `${what} failed: ${message}`);
}
