/**
 * Single sign-on's settings (docs/SSO.md): OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and
 * OIDC_REDIRECT_URL together, or none of them; OIDC_NAME optional. A partial set stops the server
 * with a message naming what is missing, and no message ever carries the secret.
 */
export interface OidcConfig {
  /** The provider's issuer identifier; its discovery document is `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  /** Sent to the provider's token endpoint only. Never logged, never sent to a client. */
  clientSecret: string;
  /** This server's GET /api/auth/sso/callback as the provider redirects to it (registered with it). */
  redirectUrl: string;
  /** Shown on the login page ('Sign in with <name>'). @default the issuer's host */
  name: string;
  /**
   * Whether the provider may be reached over plain http: only an issuer on this machine (loopback),
   * for a provider run beside the server in development and in the tests.
   */
  allowHttp: boolean;
}

/** The path OIDC_REDIRECT_URL must end with: where routes/sso.ts answers the provider. */
export const CALLBACK_PATH = '/api/auth/sso/callback';

const REQUIRED = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URL'] as const;

function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function parseUrl(value: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http:// or https:// URL, got '${value}'`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`${name} must be an http:// or https:// URL, got '${value}'`);
  return url;
}

/** The OIDC settings from the environment: undefined when single sign-on is off. */
export function parseOidcConfig(env: NodeJS.ProcessEnv): OidcConfig | undefined {
  const read = (name: string) => env[name]?.trim() || undefined;
  const given = REQUIRED.filter((name) => read(name));
  const name = read('OIDC_NAME');
  if (given.length === 0 && !name) return undefined;
  const missing = REQUIRED.filter((key) => !read(key));
  if (missing.length > 0) {
    throw new Error(
      `Single sign-on needs ${REQUIRED.join(', ')} together (docs/SSO.md); missing: ${missing.join(', ')}`,
    );
  }
  const issuerText = read('OIDC_ISSUER') as string;
  const issuer = parseUrl(issuerText, 'OIDC_ISSUER');
  const allowHttp = isLoopback(issuer);
  if (issuer.protocol === 'http:' && !allowHttp) {
    throw new Error(
      `OIDC_ISSUER must be an https:// URL (plain http only on this machine), got '${issuerText}'`,
    );
  }
  const redirectText = read('OIDC_REDIRECT_URL') as string;
  const redirect = parseUrl(redirectText, 'OIDC_REDIRECT_URL');
  if (redirect.pathname.replace(/\/+$/, '') !== CALLBACK_PATH || redirect.search || redirect.hash) {
    throw new Error(
      `OIDC_REDIRECT_URL must be this server's ${CALLBACK_PATH} (e.g. https://argus.example.com${CALLBACK_PATH}), got '${redirectText}'`,
    );
  }
  return {
    // Kept as written: ID tokens' `iss` must equal the issuer exactly, trailing slash included.
    issuer: issuerText,
    clientId: read('OIDC_CLIENT_ID') as string,
    clientSecret: read('OIDC_CLIENT_SECRET') as string,
    redirectUrl: redirect.href,
    name: name ?? issuer.host,
    allowHttp,
  };
}
