import { createHash, randomBytes } from 'node:crypto';
import type { InvitationRefusal, InvitationRow, Repositories, UserRow } from '@argus/db';
import type { Invitation, InvitationCreate, InvitationCreated, InvitationPreview } from '@argus/protocol';
import { InvitationCreateSchema } from '@argus/protocol';
import { AppError } from '../errors';
import type { OrgContext } from './org-context';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Open invitations an organization may hold at once. */
export const MAX_OPEN_INVITATIONS = 200;

/** Sends an invitation's link by email, when the server has a mail server (SMTP_URL). */
export interface InvitationMailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function stateOf(row: InvitationRow, now: Date): Invitation['state'] {
  if (row.accepted_at) return 'accepted';
  if (row.revoked_at) return 'revoked';
  return row.expires_at.getTime() <= now.getTime() ? 'expired' : 'open';
}

const REFUSALS: Record<InvitationRefusal, string> = {
  unknown: 'This invitation link is not valid: ask for a new one',
  revoked: 'This invitation was revoked: ask an admin of the organization for a new one',
  used: 'This invitation has already been used: each link joins one person, once',
  expired: 'This invitation has expired: ask an admin of the organization for a new one',
};

/**
 * Invitations (docs/ORGANIZATIONS.md#invitations): an admin invites by email and role; the answer
 * holds a one-time link (only its hash is kept), also emailed when the server has SMTP_URL.
 */
export class InvitationService {
  constructor(
    private readonly repos: Pick<Repositories, 'invitations' | 'organizations'>,
    private readonly mailer: InvitationMailer | null,
    private readonly now: () => Date = () => new Date(),
  ) {}

  view(row: InvitationRow): Invitation {
    return {
      id: row.id,
      email: row.email,
      role: row.role as Invitation['role'],
      state: stateOf(row, this.now()),
      created_at: row.created_at.toISOString(),
      expires_at: row.expires_at.toISOString(),
      accepted_at: row.accepted_at?.toISOString() ?? null,
      revoked_at: row.revoked_at?.toISOString() ?? null,
    };
  }

  async list(org: OrgContext): Promise<Invitation[]> {
    return (await this.repos.invitations.list(org.id)).map((row) => this.view(row));
  }

  /** `origin`: where the server is reached (PUBLIC_URL, else the request's), for the whole link. */
  async create(
    org: OrgContext,
    inviter: UserRow,
    input: InvitationCreate,
    origin: string,
  ): Promise<InvitationCreated> {
    if (org.personal) {
      throw new AppError(
        'BAD_REQUEST',
        'A personal organization is yours alone: create an organization to invite people',
      );
    }
    const { email, role, expires_in_days } = InvitationCreateSchema.parse(input);
    if (role === 'owner' && org.role !== 'owner') {
      throw new AppError('FORBIDDEN_ROLE', `Only an owner of ${org.name} can invite an owner`);
    }
    const open = (await this.repos.invitations.list(org.id)).filter((r) => stateOf(r, this.now()) === 'open');
    if (open.length >= MAX_OPEN_INVITATIONS) {
      throw new AppError(
        'BAD_REQUEST',
        `${org.name} has ${MAX_OPEN_INVITATIONS} open invitations: revoke some first`,
      );
    }
    const token = randomBytes(32).toString('base64url');
    const row = await this.repos.invitations.create({
      org_id: org.id,
      email,
      role,
      token_hash: hashOf(token),
      invited_by: inviter.id,
      expires_at: new Date(this.now().getTime() + expires_in_days * DAY_MS),
    });
    const path = `/invitations/${token}`;
    const url = `${origin.replace(/\/$/, '')}${path}`;
    let emailed = false;
    if (this.mailer) {
      await this.mailer.send({
        to: email,
        subject: `${inviter.username} invited you to ${org.name} on Argus`,
        text: `${inviter.username} invited you to join ${org.name} on Argus as ${role}.\n\nOpen this link to accept (it works once, until ${row.expires_at.toUTCString()}):\n${url}\n`,
      });
      emailed = true;
    }
    return { ...this.view(row), path, url, emailed };
  }

  async revoke(org: OrgContext, id: string): Promise<Invitation> {
    const row = await this.repos.invitations.revoke(org.id, id);
    if (!row) throw new AppError('INVITATION_NOT_FOUND');
    if (row.accepted_at) throw new AppError('INVITATION_INVALID', 'This invitation was already accepted');
    return this.view(row);
  }

  /** What the link shows before it is accepted. */
  async preview(token: string): Promise<InvitationPreview> {
    const row = await this.repos.invitations.findByHash(hashOf(token));
    if (!row) throw new AppError('INVITATION_NOT_FOUND', REFUSALS.unknown);
    const org = await this.repos.organizations.get(row.org_id);
    if (!org) throw new AppError('INVITATION_NOT_FOUND', REFUSALS.unknown);
    return {
      organization: org.name,
      email: row.email,
      role: row.role as InvitationPreview['role'],
      state: stateOf(row, this.now()),
      expires_at: row.expires_at.toISOString(),
    };
  }

  /** The signed-in user joins, once; a revoked, used or expired link is refused saying which. */
  async accept(token: string, user: UserRow): Promise<{ orgId: string; role: string }> {
    const result = await this.repos.invitations.accept(hashOf(token), user.id, this.now());
    if ('refused' in result) {
      if (result.refused === 'unknown') throw new AppError('INVITATION_NOT_FOUND', REFUSALS.unknown);
      throw new AppError('INVITATION_INVALID', REFUSALS[result.refused]);
    }
    return { orgId: result.invitation.org_id, role: result.invitation.role };
  }
}
