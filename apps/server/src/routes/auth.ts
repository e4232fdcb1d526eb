import { UniqueViolation } from '@argus/db';
import {
  ChangePasswordRequestSchema,
  LoginRequestSchema,
  type LoginResponse,
  type MessageResponse,
  RegisterRequestSchema,
  type User,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import { toPublicUser } from '../auth/auth-service';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import type { RateLimit } from '../limits/rate-limiter';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

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
export async function authRoutes(app: FastifyInstance, services: AuthRouteServices) {
  const { auth, repos, limits } = services;

  app.post('/register', async (request, reply) => {
    // REGISTRATION=closed: accounts come from an administrator (`npm run user:add`).
    if (services.config.registration === 'closed') throw new AppError('REGISTRATION_CLOSED');
    await enforce(limits.registrationsPerIp, request.ip);
    const body = parseWith(RegisterRequestSchema, request.body, 'body');
    if (await repos.users.exists('username', body.username)) throw new AppError('USERNAME_TAKEN');
    if (await repos.users.exists('email', body.email)) throw new AppError('EMAIL_TAKEN');
    try {
      const user = await repos.users.create({
        username: body.username,
        email: body.email,
        full_name: body.full_name || null,
        password_hash: await auth.hashPassword(body.password),
      });
      return reply.code(201).send({ message: 'User registered successfully', user: toPublicUser(user) });
    } catch (error) {
      // Two registrations racing for one name: the database's unique index decides.
      if (error instanceof UniqueViolation) {
        throw new AppError(error.field === 'email' ? 'EMAIL_TAKEN' : 'USERNAME_TAKEN');
      }
      throw error;
    }
  });

  app.post('/login', async (request): Promise<LoginResponse> => {
    await enforce(limits.loginPerIp, request.ip);
    const body = parseWith(LoginRequestSchema, request.body, 'body');
    // One budget per account, however it is named (username or email); unknown logins by their text.
    // Counted before the password is verified, so concurrent guesses cannot all slip past the check.
    let accountKey = `login:${body.username.trim().toLowerCase()}`;
    const user = await auth.authenticate(body.username, body.password, async (account) => {
      if (account) accountKey = `user:${account.id}`;
      await enforce(limits.loginFailuresPerUser, accountKey);
    });
    await limits.loginFailuresPerUser.reset(accountKey);
    const { token, expiresIn } = await auth.issueToken(user);
    return { access_token: token, token_type: 'bearer', expires_in: expiresIn, user: toPublicUser(user) };
  });

  app.get(
    '/me',
    { preHandler: app.requireUser },
    async (request): Promise<User> => toPublicUser(currentUser(request)),
  );

  // A person's own act: an API token, whatever its scope, cannot change the password.
  app.post(
    '/change-password',
    { preHandler: app.requireUser, config: { tokenScope: 'login' } },
    async (request): Promise<MessageResponse & Partial<LoginResponse>> => {
      const user = currentUser(request);
      const body = parseWith(ChangePasswordRequestSchema, request.body, 'body');
      if (!(await auth.verifyPassword(user.password_hash, body.current_password))) {
        throw new AppError('WRONG_PASSWORD');
      }
      await repos.users.setPassword(user.id, await auth.hashPassword(body.new_password));
      // Tokens issued before the change stop working; the caller gets a fresh one.
      const fresh = (await repos.users.findById(user.id))!;
      const { token, expiresIn } = await auth.issueToken(fresh);
      return {
        message: 'Password changed successfully',
        access_token: token,
        token_type: 'bearer',
        expires_in: expiresIn,
        user: toPublicUser(fresh),
      };
    },
  );
}
