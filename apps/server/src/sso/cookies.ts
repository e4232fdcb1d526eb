import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The two cookies of a sign-in, both httpOnly (no script reads them), SameSite=Lax (sent on the
 * provider's redirect back, a top-level GET, but not on another site's POST), limited to the SSO
 * routes' path, and Secure when OIDC_REDIRECT_URL is https (behind a TLS proxy the request itself
 * is plain http):
 * - `argus_sso_state`: the state of the sign-in this browser began, compared with the provider's
 *   answer (a sign-in cannot be finished in another browser);
 * - `argus_sso_handoff`: the one-time code of a finished sign-in, which the web app's
 *   POST /api/auth/sso/exchange turns into its login token; no URL ever carries it.
 */
export const STATE_COOKIE = 'argus_sso_state';
export const HANDOFF_COOKIE = 'argus_sso_handoff';
const COOKIE_PATH = '/api/auth/sso';

/** A cookie's value from the request, or undefined. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() === name) {
      const value = part.slice(at + 1).trim();
      // Ours are base64url; anything else is not one of ours.
      return /^[A-Za-z0-9_-]{1,512}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** Sets (or with `maxAgeSeconds` 0, clears) one of the sign-in's cookies, beside any set before. */
export function setCookie(
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds: number,
  secure: boolean,
): void {
  const cookie = [
    `${name}=${value}`,
    `Path=${COOKIE_PATH}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
  const previous = reply.getHeader('set-cookie');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous : [String(previous)];
  reply.header('set-cookie', [...list, cookie]);
}
