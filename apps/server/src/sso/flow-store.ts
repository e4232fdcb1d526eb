import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SsoRepository, UserRow } from '@argus/db';
import * as oidc from 'openid-client';
import { AppError } from '../errors';
import type { FlowSecrets } from './oidc-client';

/** How long a sign-in may stay at the provider (typing a password, a second factor). */
export const FLOW_TTL_MS = 10 * 60_000;
/** How long the web app has to collect a finished sign-in's login token. */
export const HANDOFF_TTL_MS = 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Whether two secrets are equal, in time that does not depend on where they differ. */
export function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The sign-ins under way and the finished ones waiting for the web app, kept in the database (every
 * web process sees them; docs/SSO.md#how-it-works) by the hash of their state or code, and taken by
 * deleting them: each is used once.
 */
export function flowStore(repo: SsoRepository, now: () => Date = () => new Date()) {
  return {
    /** A new sign-in's state, nonce and PKCE verifier, kept until the provider sends the user back. */
    async begin(): Promise<FlowSecrets> {
      const secrets = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      };
      const at = now();
      await repo.saveFlow(
        {
          state_hash: sha256(secrets.state),
          nonce: secrets.nonce,
          code_verifier: secrets.codeVerifier,
          expires_at: new Date(at.getTime() + FLOW_TTL_MS),
        },
        at,
      );
      return secrets;
    },

    /**
     * The sign-in this state names, taken once. Refused (SSO_STATE_INVALID) when it is unknown, used,
     * expired, or `browserState` (the cookie set when it began) is not the same state: a provider
     * answer opened in another browser is not signed in there (login CSRF).
     */
    async take(state: string | undefined, browserState: string | undefined): Promise<FlowSecrets> {
      if (!state) throw new AppError('SSO_STATE_INVALID', 'The identity provider sent no state');
      const flow = await repo.takeFlow(sha256(state), now());
      if (!flow) throw new AppError('SSO_STATE_INVALID');
      if (!sameSecret(state, browserState)) {
        throw new AppError(
          'SSO_STATE_INVALID',
          'This sign-in was started in another browser (or its cookie was lost). Start the sign-in again.',
        );
      }
      return { state, nonce: flow.nonce, codeVerifier: flow.code_verifier };
    },

    /** A one-time code the web app exchanges for the user's login token, within HANDOFF_TTL_MS. */
    async handOff(user: UserRow): Promise<string> {
      const code = randomBytes(32).toString('base64url');
      const at = now();
      await repo.saveHandoff(sha256(code), user.id, new Date(at.getTime() + HANDOFF_TTL_MS), at);
      return code;
    },

    /** The user a one-time code was made for, once (SSO_HANDOFF_INVALID otherwise). */
    async collect(code: string | undefined): Promise<UserRow> {
      const user = code ? await repo.takeHandoff(sha256(code), now()) : undefined;
      if (!user) throw new AppError('SSO_HANDOFF_INVALID');
      return user;
    },
  };
}
export type FlowStore = ReturnType<typeof flowStore>;
