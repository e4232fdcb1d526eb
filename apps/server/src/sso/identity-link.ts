import { randomBytes } from 'node:crypto';
import { type Repositories, UniqueViolation, type UserRow } from '@argus/db';
import { AppError } from '../errors';
import type { VerifiedClaims } from './oidc-client';
import { afterSsoSignIn } from './org-policy';

export interface IdentityDeps {
  repos: Repositories;
  /** An argon2id hash (auth-service.ts): a new SSO user gets one of a random password nobody knows. */
  hashPassword(password: string): Promise<string>;
}

/**
 * The user a verified ID token signs in as (docs/SSO.md#who-a-sign-in-is):
 * 1. the user its (issuer, subject) was linked to before, whatever its email says now;
 * 2. else, with an email the provider marks verified, the user with that email, now linked;
 * 3. else a new user with that email, linked.
 * Without a verified email only step 1 can sign in (SSO_EMAIL_UNVERIFIED): an unverified email
 * would let anyone who can name an address at the provider take over that address's account here.
 */
export async function userForClaims(claims: VerifiedClaims, deps: IdentityDeps): Promise<UserRow> {
  const { repos } = deps;
  const who = { issuer: claims.issuer, subject: claims.subject };
  const verifiedEmail = claims.emailVerified && claims.email ? claims.email.trim() : null;
  let user = await repos.sso.findUser(who);
  if (user) {
    await repos.sso.touch(who, verifiedEmail);
  } else {
    if (!verifiedEmail) throw new AppError('SSO_EMAIL_UNVERIFIED');
    user = await linkOrCreate(who, verifiedEmail, claims, deps);
  }
  await afterSsoSignIn(user, verifiedEmail, repos);
  return user;
}

async function linkOrCreate(
  who: { issuer: string; subject: string },
  email: string,
  claims: VerifiedClaims,
  deps: IdentityDeps,
): Promise<UserRow> {
  const { repos } = deps;
  const existing = await repos.sso.findUserByEmail(email);
  if (existing) {
    await repos.sso.link(who, existing.id, email);
    return existing;
  }
  const password_hash = await deps.hashPassword(randomBytes(32).toString('base64url'));
  for (const username of usernameCandidates(claims.preferredUsername, email)) {
    try {
      return await repos.sso.createUser(
        { username, email, full_name: claims.name ?? null, password_hash },
        who,
      );
    } catch (error) {
      if (!(error instanceof UniqueViolation)) throw error;
      if (error.field === 'email') {
        // Another sign-in with this email made the account a moment ago: link to it instead.
        const raced = await repos.sso.findUserByEmail(email);
        if (!raced) throw error;
        await repos.sso.link(who, raced.id, email);
        return (await repos.sso.findUser(who)) ?? raced;
      }
    }
  }
  throw new AppError('USERNAME_TAKEN', 'No free username could be made for this account');
}

/**
 * Usernames to try for a new SSO user, as the register form would accept them (3–50 letters,
 * digits, dots, dashes, underscores): the provider's preferred username or the email's local part,
 * then the same with a number, then with random letters.
 */
export function usernameCandidates(preferred: string | undefined, email: string): string[] {
  const clean = (text: string) =>
    text
      .replace(/@.*$/, '')
      .replace(/[^A-Za-z0-9_.-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 40);
  let base = clean(preferred ?? '') || clean(email);
  if (base.length < 3) base = `${base || 'user'}-sso`.replace(/^-/, '');
  const numbered = Array.from({ length: 8 }, (_, i) => `${base}-${i + 2}`);
  const random = Array.from({ length: 3 }, () => `${base}-${randomBytes(3).toString('hex')}`);
  return [base, ...numbered, ...random];
}
