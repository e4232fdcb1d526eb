import type { UserRow } from '@argus/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import type { AuthService } from '../services/auth-service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by `app.requireUser`. */
    user: UserRow | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a valid `Authorization: Bearer` token. */
    requireUser: (request: FastifyRequest) => Promise<void>;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token.trim() : null;
}

export function registerAuthentication(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('user', null);
  app.decorate('requireUser', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw new AppError('UNAUTHENTICATED', undefined, { 'www-authenticate': 'Bearer' });
    request.user = await auth.userFromToken(token);
  });
}

/** The signed-in user of a route guarded by `requireUser`. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new AppError('UNAUTHENTICATED');
  return request.user;
}
