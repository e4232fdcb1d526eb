import {
  ApiTokenCreatedSchema,
  ApiTokenSchema,
  IdParamsSchema,
  InvitationCreatedSchema,
  InvitationCreateSchema,
  InvitationPreviewSchema,
  InvitationSchema,
  InvitationTokenParamsSchema,
  MemberParamsSchema,
  MemberSchema,
  MemberUpdateSchema,
  OrganizationCreateSchema,
  OrganizationSchema,
  OrganizationTokenSchema,
  OrganizationUpdateSchema,
  ServiceTokenCreateSchema,
  TransferSchema,
} from '@argus/protocol';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { audit } from '../audit/recorder';
import { AppError } from '../errors';
import type { InvitationService } from '../orgs/invitation-service';
import type { OrganizationService } from '../orgs/organization-service';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use: the organization and invitation services (orgs/). */
export interface OrganizationRouteServices {
  organizations: OrganizationService;
  invitations: InvitationService;
  /** PUBLIC_URL: where the screens are reached, for whole invitation links; else the request's origin. */
  publicUrl: string | null;
  /** Whether the server has single sign-on (OIDC_*): an organization may require it only then. */
  ssoConfigured: boolean;
}

function originOf(request: FastifyRequest, publicUrl: string | null): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * The caller's organizations (`/api/organizations`) and the one the request acts in
 * (`/api/organization`, chosen by the X-Argus-Organization header): its settings, members,
 * invitations and tokens (docs/ORGANIZATIONS.md). Who may call each is the permission table's.
 */
const route = routeOf<OrganizationRouteServices>();

export const ORGANIZATIONS_ROUTES = routeGroup('/api/organizations', [
  route({
    method: 'GET',
    path: '/',
    summary: 'The organizations you belong to, your personal one first, with your role in each',
    tag: 'Organizations',
    response: z.array(OrganizationSchema),
    handle: async ({ user }, { organizations }) => organizations.mine(user.id),
  }),
  route({
    method: 'POST',
    path: '/',
    summary: 'Create an organization; you are its owner',
    tag: 'Organizations',
    auth: 'login',
    body: OrganizationCreateSchema,
    status: 201,
    response: OrganizationSchema,
    handle: async ({ request, user, body }, { organizations }) => {
      const created = await organizations.create(user.id, body.name);
      await audit.record(request, {
        action: 'organization_changed',
        orgId: created.id,
        target: created.name,
        detail: { created: true },
      });
      return created;
    },
  }),
]);

export const ORGANIZATION_ROUTES = routeGroup('/api/organization', [
  route({
    method: 'GET',
    path: '/',
    summary: 'The organization this request acts in, and your role there',
    tag: 'Organizations',
    response: OrganizationSchema,
    handle: async ({ org }, { organizations }) => organizations.current(org),
  }),
  route({
    method: 'PUT',
    path: '/',
    summary: 'Rename the organization, or set its SSO domain and rules (owners)',
    tag: 'Organizations',
    auth: 'login',
    body: OrganizationUpdateSchema,
    response: OrganizationSchema,
    handle: async ({ request, org, body }, { organizations, ssoConfigured }) => {
      if (body.sso_required && !ssoConfigured) {
        throw new AppError(
          'BAD_REQUEST',
          'This server has no single sign-on configured (OIDC_ISSUER and the rest): requiring it would lock every member out',
        );
      }
      const updated = await organizations.update(org, body);
      const sso =
        body.sso_domain !== undefined || body.sso_role !== undefined || body.sso_required !== undefined;
      await audit.record(request, {
        action: sso ? 'sso_changed' : 'organization_changed',
        target: updated.name,
        detail: { ...body },
      });
      return updated;
    },
  }),
  route({
    method: 'DELETE',
    path: '/',
    summary: 'Delete the organization and everything it owns (owners; never a personal one)',
    tag: 'Organizations',
    auth: 'login',
    status: 204,
    handle: async ({ request, org }, { organizations }) => {
      await organizations.delete(org);
      await audit.record(request, {
        action: 'organization_changed',
        target: org.name,
        detail: { deleted: true },
      });
    },
  }),
  route({
    method: 'POST',
    path: '/transfer',
    summary: 'Make another member an owner; you become an admin (owners)',
    tag: 'Organizations',
    auth: 'login',
    body: TransferSchema,
    response: MemberSchema,
    handle: async ({ request, user, org, body }, { organizations }) => {
      const member = await organizations.transfer(org, user.id, body.user_id);
      await audit.record(request, {
        action: 'ownership_transferred',
        target: member.username,
        detail: { user_id: member.user_id },
      });
      return member;
    },
  }),
  route({
    method: 'POST',
    path: '/leave',
    summary: 'Leave the organization (not your personal one; the last owner cannot)',
    tag: 'Organizations',
    auth: 'login',
    status: 204,
    handle: async ({ request, user, org }, { organizations }) => {
      await organizations.leave(org, user.id);
      await audit.record(request, {
        action: 'member_removed',
        target: user.username,
        detail: { user_id: user.id, left: true },
      });
    },
  }),
  route({
    method: 'GET',
    path: '/members',
    summary: "The organization's members and service accounts, with their roles",
    tag: 'Organizations',
    response: z.array(MemberSchema),
    handle: async ({ org }, { organizations }) => organizations.members(org),
  }),
  route({
    method: 'PUT',
    path: '/members/:userId',
    summary: "Change a member's role (admins; only owners make or change owners)",
    tag: 'Organizations',
    auth: 'login',
    params: MemberParamsSchema,
    body: MemberUpdateSchema,
    response: MemberSchema,
    handle: async ({ request, org, params, body }, { organizations }) => {
      const { member, from } = await organizations.setRole(org, params.userId, body.role);
      await audit.record(request, {
        action: 'member_role_changed',
        target: member.username,
        detail: { user_id: member.user_id, from, to: member.role },
      });
      return member;
    },
  }),
  route({
    method: 'DELETE',
    path: '/members/:userId',
    summary: 'Remove a member: their sockets close and their tokens stop working at once (admins)',
    tag: 'Organizations',
    auth: 'login',
    params: MemberParamsSchema,
    status: 204,
    handle: async ({ request, org, params }, { organizations }) => {
      const member = await organizations.remove(org, params.userId);
      await audit.record(request, {
        action: 'member_removed',
        target: member.username,
        detail: { user_id: member.user_id, role: member.role },
      });
    },
  }),
  route({
    method: 'GET',
    path: '/invitations',
    summary: "The organization's invitations, open, accepted, revoked and expired (admins)",
    tag: 'Organizations',
    response: z.array(InvitationSchema),
    handle: async ({ org }, { invitations }) => invitations.list(org),
  }),
  route({
    method: 'POST',
    path: '/invitations',
    summary: 'Invite someone by email with a role: the answer holds the one-time link (admins)',
    tag: 'Organizations',
    auth: 'login',
    body: InvitationCreateSchema,
    status: 201,
    response: InvitationCreatedSchema,
    handle: async ({ request, user, org, body }, { invitations, publicUrl }) => {
      const created = await invitations.create(org, user, body, originOf(request, publicUrl));
      await audit.record(request, {
        action: 'invitation_created',
        target: created.email,
        detail: { role: created.role, emailed: created.emailed },
      });
      return created;
    },
  }),
  route({
    method: 'DELETE',
    path: '/invitations/:id',
    summary: 'Revoke an open invitation (admins)',
    tag: 'Organizations',
    auth: 'login',
    params: IdParamsSchema,
    response: InvitationSchema,
    handle: async ({ request, org, params }, { invitations }) => {
      const revoked = await invitations.revoke(org, params.id);
      await audit.record(request, {
        action: 'invitation_revoked',
        target: revoked.email,
        detail: { role: revoked.role },
      });
      return revoked;
    },
  }),
  route({
    method: 'GET',
    path: '/tokens',
    summary: "Every API token of the organization: members' and service tokens (admins)",
    tag: 'Organizations',
    response: z.array(OrganizationTokenSchema),
    handle: async ({ org }, { organizations }) => organizations.tokens(org),
  }),
  route({
    method: 'POST',
    path: '/service-tokens',
    summary:
      'Make a service token: a role of its own, tied to no person (admins); its value is in this answer only',
    tag: 'Organizations',
    auth: 'login',
    body: ServiceTokenCreateSchema,
    status: 201,
    response: ApiTokenCreatedSchema,
    handle: async ({ request, org, body }, { organizations }) => {
      const created = await organizations.createServiceToken(org, body);
      await audit.record(request, {
        action: 'token_created',
        target: created.name,
        detail: { scope: created.scope, service: true, role: body.role ?? 'runner' },
      });
      return created;
    },
  }),
  route({
    method: 'DELETE',
    path: '/tokens/:id',
    summary: 'Revoke any token of the organization (admins)',
    tag: 'Organizations',
    auth: 'login',
    params: IdParamsSchema,
    response: ApiTokenSchema,
    handle: async ({ request, org, params }, { organizations }) => {
      const revoked = await organizations.revokeToken(org, params.id);
      await audit.record(request, { action: 'token_revoked', target: revoked.name });
      return revoked;
    },
  }),
]);

export const INVITATION_ROUTES = routeGroup('/api/invitations', [
  route({
    method: 'GET',
    path: '/:token',
    summary: 'What an invitation link offers, before it is accepted (anyone holding the link)',
    tag: 'Organizations',
    auth: 'none',
    params: InvitationTokenParamsSchema,
    response: InvitationPreviewSchema,
    handle: async ({ params }, { invitations }) => invitations.preview(params.token),
  }),
  route({
    method: 'POST',
    path: '/:token/accept',
    summary: 'Join the organization of an invitation link, once (signed in)',
    tag: 'Organizations',
    auth: 'login',
    params: InvitationTokenParamsSchema,
    response: OrganizationSchema,
    handle: async ({ request, user, params }, { invitations, organizations }) => {
      const joined = await invitations.accept(params.token, user);
      await audit.record(request, {
        action: 'invitation_accepted',
        orgId: joined.orgId,
        target: user.username,
        detail: { role: joined.role },
      });
      const mine = await organizations.mine(user.id);
      const org = mine.find((o) => o.id === joined.orgId);
      if (!org) throw new Error('The organization joined is not among the member’s');
      return org;
    },
  }),
]);

export const organizationsRoutes = routePlugin(ORGANIZATIONS_ROUTES);
export const organizationRoutes = routePlugin(ORGANIZATION_ROUTES);
export const invitationRoutes = routePlugin(INVITATION_ROUTES);
