import type { Repositories } from '@argus/db';
import type { LoginResponse, SsoStatus } from '@argus/protocol';
import { type AuthService, toPublicUser } from '../auth/auth-service';
import { AppError } from '../errors';
import { flowStore } from './flow-store';
import { userForClaims } from './identity-link';
import { type OidcClient, oidcClient } from './oidc-client';
import type { OidcConfig } from './oidc-config';

export interface SsoDeps {
  /** OIDC_* (config.ts): undefined when single sign-on is off. */
  oidc: OidcConfig | undefined;
  repos: Repositories;
  auth: Pick<AuthService, 'issueToken' | 'hashPassword'>;
}

/**
 * Single sign-on with OpenID Connect (docs/SSO.md), the routes' one service: a sign-in begins
 * (state, nonce and PKCE verifier kept, the provider's URL answered), comes back (the code exchanged,
 * the ID token verified, the user found, linked or made, a one-time code handed out), and is
 * collected by the web app as the same login token a password sign-in answers.
 */
export function ssoService(deps: SsoDeps) {
  const { oidc, repos, auth } = deps;
  const flows = flowStore(repos.sso);
  const client: OidcClient | undefined = oidc && oidcClient(oidc);

  const configured = (): { oidc: OidcConfig; client: OidcClient } => {
    if (!oidc || !client) throw new AppError('SSO_NOT_CONFIGURED');
    return { oidc, client };
  };

  return {
    status(): SsoStatus {
      return { enabled: Boolean(oidc), name: oidc?.name ?? null };
    },

    /** Whether the sign-in's cookies must be Secure: OIDC_REDIRECT_URL is https. */
    secureCookies(): boolean {
      return oidc?.redirectUrl.startsWith('https:') ?? false;
    },

    /** A new sign-in: where to send the browser, and the state its cookie keeps. */
    async begin(): Promise<{ url: URL; state: string }> {
      const { client } = configured();
      const secrets = await flows.begin();
      return { url: await client.authorizationUrl(secrets), state: secrets.state };
    },

    /**
     * The provider's answer: the sign-in it names (taken once, from this browser only), its code
     * exchanged and ID token verified, and the user signed in; answers the one-time code the web app
     * collects. Throws a coded AppError for each refusal.
     */
    async finish(query: URLSearchParams, browserState: string | undefined): Promise<string> {
      const { client } = configured();
      const secrets = await flows.take(query.get('state') ?? undefined, browserState);
      if (query.has('error')) {
        const reason = query.get('error_description') || query.get('error');
        throw new AppError('SSO_PROVIDER_DENIED', `The identity provider did not sign you in: ${reason}`);
      }
      const claims = await client.exchange(query, secrets);
      const user = await userForClaims(claims, { repos, hashPassword: auth.hashPassword });
      return flows.handOff(user);
    },

    /** A finished sign-in's login token, as POST /api/auth/login answers it; the code works once. */
    async collect(code: string | undefined): Promise<LoginResponse> {
      const user = await flows.collect(code);
      const { token, expiresIn } = await auth.issueToken(user);
      return { access_token: token, token_type: 'bearer', expires_in: expiresIn, user: toPublicUser(user) };
    },
  };
}
export type SsoService = ReturnType<typeof ssoService>;
