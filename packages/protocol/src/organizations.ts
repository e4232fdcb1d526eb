import { z } from 'zod';
import { ApiTokenCreateSchema, ApiTokenSchema } from './ci';
import { RoleSchema } from './permissions';

/**
 * Organizations, members, invitations and service tokens (docs/ORGANIZATIONS.md): the shapes of
 * /api/organizations (the caller's) and /api/organization (the one the request acts in).
 */

/** The roles an organization's SSO sign-ins may be given (never owner). */
export const SsoRoleSchema = RoleSchema.exclude(['owner']);

/** An organization as its member sees it. */
export const OrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The member's personal organization, made with their account: it cannot be left or deleted. */
  personal: z.boolean(),
  /** The caller's role in it. */
  role: RoleSchema,
  sso_domain: z.string().nullable(),
  sso_role: SsoRoleSchema,
  sso_required: z.boolean(),
});
export type Organization = z.infer<typeof OrganizationSchema>;

export const OrganizationCreateSchema = z.object({
  name: z.string().trim().min(1, 'Name the organization').max(100),
});

/** Rename (owners), or set the SSO domain and rules (owners). */
export const OrganizationUpdateSchema = z
  .object({
    name: z.string().trim().min(1, 'Name the organization').max(100),
    sso_domain: z
      .string()
      .trim()
      .toLowerCase()
      .max(253)
      .regex(
        /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
        'Enter a domain such as example.com',
      )
      .nullable(),
    sso_role: SsoRoleSchema,
    sso_required: z.boolean(),
  })
  .partial();
export type OrganizationUpdate = z.input<typeof OrganizationUpdateSchema>;

export const MemberSchema = z.object({
  user_id: z.string(),
  username: z.string(),
  email: z.string(),
  full_name: z.string().nullable(),
  /** A service account (its tokens act as it), not a person. */
  service: z.boolean(),
  role: RoleSchema,
  joined_at: z.string(),
});
export type Member = z.infer<typeof MemberSchema>;

export const MemberParamsSchema = z.object({ userId: z.string().max(100) });
export const MemberUpdateSchema = z.object({ role: RoleSchema });

export const TransferSchema = z.object({
  /** The member who becomes an owner; the caller stays an owner unless they then change their role. */
  user_id: z.string().max(100),
});

export const InvitationStateSchema = z.enum(['open', 'accepted', 'revoked', 'expired']);
export type InvitationState = z.infer<typeof InvitationStateSchema>;

export const InvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: RoleSchema,
  state: InvitationStateSchema,
  created_at: z.string(),
  expires_at: z.string(),
  accepted_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type Invitation = z.infer<typeof InvitationSchema>;

export const InvitationCreateSchema = z.object({
  email: z.string().trim().toLowerCase().email('Enter an email address').max(254),
  role: RoleSchema.default('viewer'),
  /** Days the link stays usable. @default 7 */
  expires_in_days: z.number().int().min(1).max(30).default(7),
});
export type InvitationCreate = z.input<typeof InvitationCreateSchema>;

/** The answer to an invitation: the link, given this once (only its hash is kept), and whether it was mailed. */
export const InvitationCreatedSchema = InvitationSchema.extend({
  /** The path of the link on this server (`/invitations/<token>`): the screens show it with their origin. */
  path: z.string(),
  /** The whole link, when the server knows its own address (PUBLIC_URL or the request's). */
  url: z.string(),
  emailed: z.boolean(),
});
export type InvitationCreated = z.infer<typeof InvitationCreatedSchema>;

export const InvitationTokenParamsSchema = z.object({ token: z.string().min(1).max(200) });

/** What an invitation link shows before it is accepted (to anyone holding the link). */
export const InvitationPreviewSchema = z.object({
  organization: z.string(),
  email: z.string(),
  role: RoleSchema,
  state: InvitationStateSchema,
  expires_at: z.string(),
});
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

/** A token of the organization as its admins list them: whose it is, and its role for a service token. */
export const OrganizationTokenSchema = ApiTokenSchema.extend({
  user_id: z.string(),
  /** The member's username, or the service account's name. */
  member: z.string(),
  service: z.boolean(),
});
export type OrganizationToken = z.infer<typeof OrganizationTokenSchema>;

/** A service token: a role of its own (never owner), not tied to a person who may leave. */
export const ServiceTokenCreateSchema = ApiTokenCreateSchema.extend({
  role: RoleSchema.exclude(['owner']).default('runner'),
});
export type ServiceTokenCreate = z.input<typeof ServiceTokenCreateSchema>;
