import { UniqueViolation, type UserRow } from '@argus/db';
import {
  ChangePasswordRequestSchema,
  ChangePasswordResponseSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  RegisterRequestSchema,
  RegisterResponseSchema,
  UserSchema,
} from '@argus/protocol';
import type { Services } from '../app-services';
import { audit } from '../audit/recorder';
import { toPublicUser } from '../auth/auth-service';
import { AppError } from '../errors';
import type { RateLimit } from '../limits/rate-limiter';
import { passwordSignInRefusal } from '../sso/org-policy';
import { routeGroup, routeOf, routePlugin } from './route-group';

async function enforce(limiter: RateLimit, key: string): Promise<void> {
  const { allowed, retryAfterSeconds } = await limiter.hit(key);
  if (!allowed) throw new AppError('RATE_LIMITED', undefined, { 'retry-after': String(retryAfterSeconds) });
}

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type AuthRouteServices = Pick<Services, 'auth' | 'repos'> & {
  config: Pick<Services['config'], 'registration'>;
  limits: Pick<Services['limits'], 'registrationsPerIp' | 'loginPerIp' | 'loginFailuresPerUser'>;
};

/** Mounted at /api/auth and, for the other client docs/PRODUCT.md#http-api names, at /auth. */
const route = routeOf<AuthRouteServices>();

export const AUTH_ROUTES = routeGroup(
  '/api/auth',
  [
    route({
      method: 'POST',
      path: '/register',
      summary: 'Create an account',
      tag: 'Auth',
      auth: 'none',
      body: RegisterRequestSchema,
      lazyBody: true,
      status: 201,
      response: RegisterResponseSchema,
      handle: async (input, { auth, repos, limits, config }) => {
        // REGISTRATION=closed: accounts come from an administrator (`npm run user:add`).
        if (config.registration === 'closed') throw new AppError('REGISTRATION_CLOSED');
        await enforce(limits.registrationsPerIp, input.request.ip);
        const body = input.body;
        if (await repos.users.exists('username', body.username)) throw new AppError('USERNAME_TAKEN');
        if (await repos.users.exists('email', body.email)) throw new AppError('EMAIL_TAKEN');
        try {
          const user = await repos.users.create({
            username: body.username,
            email: body.email,
            full_name: body.full_name || null,
            password_hash: await auth.hashPassword(body.password),
          });
          return { message: 'User registered successfully', user: toPublicUser(user) };
        } catch (error) {
          // Two registrations racing for one name: the database's unique index decides.
          if (error instanceof UniqueViolation) {
            throw new AppError(error.field === 'email' ? 'EMAIL_TAKEN' : 'USERNAME_TAKEN');
          }
          throw error;
        }
      },
    }),
    route({
      method: 'POST',
      path: '/login',
      summary: 'Sign in (JSON or form body): answers a login token for the screens',
      tag: 'Auth',
      auth: 'none',
      body: LoginRequestSchema,
      lazyBody: true,
      response: LoginResponseSchema,
      handle: async (input, { auth, limits, repos }) => {
        await enforce(limits.loginPerIp, input.request.ip);
        const body = input.body;
        // One budget per account, however it is named (username or email); unknown logins by their text.
        // Counted before the password is verified, so concurrent guesses cannot all slip past the check.
        let accountKey = `login:${body.username.trim().toLowerCase()}`;
        let named: UserRow | undefined;
        const user = await auth
          .authenticate(body.username, body.password, async (account) => {
            named = account;
            if (account) accountKey = `user:${account.id}`;
            await enforce(limits.loginFailuresPerUser, accountKey);
          })
          .catch(async (error: unknown) => {
            if (error instanceof AppError && error.code === 'INVALID_CREDENTIALS') {
              // An unknown name is kept as typed (actor_label), in no organization's log.
              await audit.record(input.request, {
                action: 'sign_in_failed',
                actor: named ?? { unknown: body.username },
              });
            }
            throw error;
          });
        await limits.loginFailuresPerUser.reset(accountKey);
        // An organization may require single sign-on of its members (sso/org-policy.ts).
        const refusal = await passwordSignInRefusal(user, repos);
        if (refusal) throw refusal;
        const { token, expiresIn } = await auth.issueToken(user);
        await audit.record(input.request, { action: 'sign_in', actor: user });
        return {
          access_token: token,
          token_type: 'bearer' as const,
          expires_in: expiresIn,
          user: toPublicUser(user),
        };
      },
    }),
    route({
      method: 'GET',
      path: '/me',
      summary: 'The signed-in user',
      tag: 'Auth',
      response: UserSchema,
      handle: async ({ user }) => toPublicUser(user),
    }),
    // A person's own act: an API token, whatever its scope, cannot change the password.
    route({
      method: 'POST',
      path: '/change-password',
      summary: 'Change the password (signs other devices out)',
      tag: 'Auth',
      auth: 'login',
      body: ChangePasswordRequestSchema,
      response: ChangePasswordResponseSchema,
      handle: async ({ request, user, body }, { auth, repos }) => {
        if (!(await auth.verifyPassword(user.password_hash, body.current_password))) {
          throw new AppError('WRONG_PASSWORD');
        }
        await repos.users.setPassword(user.id, await auth.hashPassword(body.new_password));
        await audit.record(request, { action: 'password_changed' });
        // Tokens issued before the change stop working; the caller gets a fresh one.
        const fresh = (await repos.users.findById(user.id))!;
        const { token, expiresIn } = await auth.issueToken(fresh);
        return {
          message: 'Password changed successfully',
          access_token: token,
          token_type: 'bearer' as const,
          expires_in: expiresIn,
          user: toPublicUser(fresh),
        };
      },
    }),
  ],
  ['/auth'],
);

export const authRoutes = routePlugin(AUTH_ROUTES);
