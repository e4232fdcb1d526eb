import type { Repositories, UserRow } from '@argus/db';
import { AppError } from '../errors';

/**
 * Where single sign-on meets organizations (docs/ORGANIZATIONS.md#single-sign-on): an organization may
 * claim an email domain (users signing in through SSO with it join with its default role) and may
 * require SSO of its members (their password sign-in is refused, SSO_REQUIRED, saying why). These two
 * functions are the only places SSO and password sign-in ask.
 */

/**
 * Called after every SSO sign-in, before the login token is handed out, with the user and the email
 * the provider verified (null when it verified none this time: a returning user found by subject).
 * A verified address of a domain an organization claims makes the user a member of it, with the
 * organization's SSO role; one who is a member already keeps the role they have.
 */
export async function afterSsoSignIn(
  user: UserRow,
  verifiedEmail: string | null,
  repos: Pick<Repositories, 'organizations'>,
): Promise<void> {
  const domain = verifiedEmail?.split('@')[1]?.toLowerCase();
  if (!domain) return;
  const org = await repos.organizations.byDomain(domain);
  if (!org) return;
  await repos.organizations.addMember(org.id, user.id, org.sso_role as 'viewer');
}

/**
 * Asked by POST /api/auth/login once the password is right: SSO_REQUIRED, naming the organization,
 * when one the user belongs to requires single sign-on; null otherwise.
 */
export async function passwordSignInRefusal(
  user: UserRow,
  repos: Pick<Repositories, 'organizations'>,
): Promise<AppError | null> {
  const requiring = await repos.organizations.ssoRequiredBy(user.id);
  if (!requiring) return null;
  return new AppError(
    'SSO_REQUIRED',
    `${requiring} requires its members to sign in with single sign-on: use the single sign-on button instead of a password`,
  );
}
