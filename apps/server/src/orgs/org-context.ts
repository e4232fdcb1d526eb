import type { Role } from '@argus/protocol';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors';

/**
 * The organization a request acts in, and the caller's role there. Resolved by `app.requireUser`
 * from the `X-Argus-Organization` header (the screens send the one chosen in the sidebar), the API
 * token's organization, or else the user's personal organization (whose id is the user's own id).
 */
export interface OrgContext {
  readonly id: string;
  readonly name: string;
  readonly role: Role;
  /** A user's personal organization, made at registration. */
  readonly personal: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization the request acts in, set by `app.requireUser`. */
    org: OrgContext | null;
  }
}

/** The organization of a route guarded by `requireUser`. */
export function currentOrg(request: FastifyRequest): OrgContext {
  if (!request.org) throw new AppError('UNAUTHENTICATED');
  return request.org;
}
