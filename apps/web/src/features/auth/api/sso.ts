import {
  type ErrorCode,
  type LoginResponse,
  LoginResponseSchema,
  type SsoStatus,
  SsoStatusSchema,
} from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * Single sign-on (docs/SSO.md): the login page asks whether it is offered, sends the browser to
 * GET /api/auth/sso/start (a page load, not a fetch: the provider's pages follow), and, back on
 * /login?sso=complete, collects the login token from POST /api/auth/sso/exchange, whose one-time
 * code travels in an httpOnly cookie rather than the URL.
 */
export const SSO_START_PATH = '/api/auth/sso/start';

/** GET /api/auth/sso: whether single sign-on is offered, and the provider's name. */
export function fetchSsoStatus(signal?: AbortSignal): Promise<SsoStatus> {
  return apiRequest('/api/auth/sso', { auth: false, signal }, SsoStatusSchema);
}

export function useSsoStatus() {
  return useQuery({
    queryKey: ['auth', 'sso'],
    queryFn: ({ signal }) => fetchSsoStatus(signal),
    staleTime: 5 * 60_000,
    // The login form works without it: a server that cannot say simply shows no button.
    retry: false,
  });
}

/** POST /api/auth/sso/exchange: a finished single sign-on's login token, once. */
export function exchangeSso(): Promise<LoginResponse> {
  return apiRequest('/api/auth/sso/exchange', { method: 'POST', auth: false }, LoginResponseSchema);
}

/** What the login page says for each refusal the callback sends it back with (`?sso_error=`). */
export const SSO_ERROR_TEXT = {
  SSO_NOT_CONFIGURED: 'Single sign-on is not set up on this server. Sign in with your password instead.',
  SSO_STATE_INVALID: 'That sign-in expired or was already used. Please start it again.',
  SSO_PROVIDER_DENIED: 'Your identity provider did not sign you in.',
  SSO_PROVIDER_UNAVAILABLE:
    'Your identity provider could not be reached. Try again in a moment, or ask your administrator.',
  SSO_ID_TOKEN_AUDIENCE:
    "Your identity provider's answer was meant for another application, so you were not signed in. Ask your administrator to check the single sign-on settings.",
  SSO_ID_TOKEN_EXPIRED:
    "Your identity provider's answer had expired, so you were not signed in. Please try again; if it keeps happening, the server's clock may be wrong.",
  SSO_ID_TOKEN_SIGNATURE:
    "Your identity provider's answer was not signed with its keys, so you were not signed in. Ask your administrator.",
  SSO_ID_TOKEN_INVALID:
    "Your identity provider's answer could not be verified, so you were not signed in. Please try again.",
  SSO_EMAIL_UNVERIFIED:
    'Your identity provider did not confirm your email address, so no account could be found or made for you.',
  SSO_HANDOFF_INVALID: 'That sign-in expired before it finished. Please sign in again.',
  SSO_REQUIRED: 'Your organization requires single sign-on: use the button below the form.',
  RATE_LIMITED: 'Too many sign-in attempts. Please try again later.',
} satisfies Partial<Record<ErrorCode, string>>;

/** The words for a callback's `sso_error` code; any other code gets a general sentence. */
export function ssoErrorText(code: string): string {
  return (SSO_ERROR_TEXT as Record<string, string>)[code] ?? 'Single sign-on failed. Please try again.';
}
