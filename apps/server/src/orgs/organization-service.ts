import { LastOwnerError, type MemberRole, type MemberRow, type Repositories } from '@argus/db';
import type {
  ApiTokenCreated,
  Member,
  Organization,
  OrganizationToken,
  OrganizationUpdate,
  Role,
  ServiceTokenCreate,
} from '@argus/protocol';
import { ServiceTokenCreateSchema } from '@argus/protocol';
import type { ApiTokenService } from '../auth/api-tokens';
import { AppError } from '../errors';
import type { OrgContext } from './org-context';

/** What removing someone from an organization must also end at once (sockets, live work there). */
export interface MemberDeparture {
  /** Closes the user's sockets acting in the organization. */
  closeSockets(orgId: string, userId: string): void;
}

export function memberView(row: MemberRow): Member {
  return {
    user_id: row.user.id,
    username: row.user.service ? (row.user.full_name ?? row.user.username) : row.user.username,
    email: row.user.service ? '' : row.user.email,
    full_name: row.user.full_name,
    service: row.user.service,
    role: row.role,
    joined_at: row.joined_at.toISOString(),
  };
}

function conflict(error: unknown): never {
  if (error instanceof LastOwnerError) {
    throw new AppError(
      'ORGANIZATION_CONFLICT',
      'An organization must keep at least one owner: make another member an owner first',
    );
  }
  throw error;
}

/**
 * Organizations and their members (docs/ORGANIZATIONS.md): what the organization routes do once the
 * permission table has let the caller in. The rules the table cannot say are here: only owners make
 * or unmake owners, a personal organization is its user's alone, and the last owner stays.
 */
export class OrganizationService {
  constructor(
    private readonly repos: Pick<Repositories, 'organizations' | 'apiTokens'>,
    private readonly apiTokens: ApiTokenService,
    private readonly departure: MemberDeparture,
  ) {}

  async mine(userId: string): Promise<Organization[]> {
    return (await this.repos.organizations.forUser(userId)).map(({ org, role }) => ({
      id: org.id,
      name: org.name,
      personal: org.personal,
      role,
      sso_domain: org.sso_domain,
      sso_role: org.sso_role as Organization['sso_role'],
      sso_required: org.sso_required,
    }));
  }

  async current(org: OrgContext): Promise<Organization> {
    const row = await this.repos.organizations.get(org.id);
    if (!row) throw new AppError('ORGANIZATION_NOT_FOUND');
    return {
      id: row.id,
      name: row.name,
      personal: row.personal,
      role: org.role,
      sso_domain: row.sso_domain,
      sso_role: row.sso_role as Organization['sso_role'],
      sso_required: row.sso_required,
    };
  }

  async create(userId: string, name: string): Promise<Organization> {
    const org = await this.repos.organizations.create(name, userId);
    return this.current({ id: org.id, name: org.name, role: 'owner', personal: false });
  }

  async update(org: OrgContext, patch: OrganizationUpdate): Promise<Organization> {
    if (org.personal && (patch.sso_domain || patch.sso_required)) {
      throw new AppError(
        'BAD_REQUEST',
        'A personal organization cannot claim a domain: create an organization first',
      );
    }
    try {
      await this.repos.organizations.update(
        org.id,
        patch as Parameters<Repositories['organizations']['update']>[1],
      );
    } catch (error) {
      if (String((error as { code?: string }).code) === '23505') {
        throw new AppError(
          'ORGANIZATION_CONFLICT',
          `Another organization already claims ${patch.sso_domain}`,
        );
      }
      throw error;
    }
    return this.current({ ...org, name: patch.name ?? org.name });
  }

  async delete(org: OrgContext): Promise<void> {
    if (org.personal)
      throw new AppError('ORGANIZATION_CONFLICT', 'A personal organization cannot be deleted');
    await this.repos.organizations.delete(org.id);
  }

  async members(org: OrgContext): Promise<Member[]> {
    return (await this.repos.organizations.members(org.id)).map(memberView);
  }

  private async member(org: OrgContext, userId: string): Promise<MemberRow> {
    const found = (await this.repos.organizations.members(org.id)).find((m) => m.user.id === userId);
    if (!found) throw new AppError('MEMBER_NOT_FOUND');
    return found;
  }

  /** Only an owner makes someone an owner or changes an owner's role. */
  private checkOwnerRule(org: OrgContext, from: MemberRole, to: MemberRole | null): void {
    if (org.role === 'owner') return;
    if (from === 'owner' || to === 'owner') {
      throw new AppError('FORBIDDEN_ROLE', `Only an owner of ${org.name} can make or change an owner`);
    }
  }

  async setRole(org: OrgContext, userId: string, role: Role): Promise<{ member: Member; from: MemberRole }> {
    const target = await this.member(org, userId);
    this.checkOwnerRule(org, target.role, role);
    const updated = await this.repos.organizations.setRole(org.id, userId, role).catch(conflict);
    if (!updated) throw new AppError('MEMBER_NOT_FOUND');
    return { member: memberView({ ...target, role }), from: target.role };
  }

  /**
   * Removes a member: at once their sockets there close and their tokens there stop working; runs
   * they started finish and stay in the history with their name.
   */
  async remove(org: OrgContext, userId: string): Promise<Member> {
    if (org.personal)
      throw new AppError('ORGANIZATION_CONFLICT', 'A personal organization has only its owner');
    const target = await this.member(org, userId);
    this.checkOwnerRule(org, target.role, null);
    if (!(await this.repos.organizations.removeMember(org.id, userId).catch(conflict))) {
      throw new AppError('MEMBER_NOT_FOUND');
    }
    await this.repos.apiTokens.revokeMember(org.id, userId);
    this.departure.closeSockets(org.id, userId);
    return memberView(target);
  }

  /** The caller leaves (never their personal organization; the last owner cannot). */
  async leave(org: OrgContext, userId: string): Promise<void> {
    if (org.personal)
      throw new AppError('ORGANIZATION_CONFLICT', 'You cannot leave your personal organization');
    if (!(await this.repos.organizations.removeMember(org.id, userId).catch(conflict))) {
      throw new AppError('MEMBER_NOT_FOUND');
    }
    await this.repos.apiTokens.revokeMember(org.id, userId);
    this.departure.closeSockets(org.id, userId);
  }

  /** The member becomes an owner and the caller an admin. */
  async transfer(org: OrgContext, callerId: string, toUserId: string): Promise<Member> {
    if (org.personal)
      throw new AppError('ORGANIZATION_CONFLICT', 'A personal organization has only its owner');
    if (toUserId === callerId) throw new AppError('BAD_REQUEST', 'You are already an owner');
    const target = await this.member(org, toUserId);
    if (target.user.service)
      throw new AppError('BAD_REQUEST', 'A service account cannot own an organization');
    await this.repos.organizations.setRole(org.id, toUserId, 'owner');
    await this.repos.organizations.setRole(org.id, callerId, 'admin').catch(conflict);
    return memberView({ ...target, role: 'owner' });
  }

  /** Every token of the organization: members' and service accounts'. */
  async tokens(org: OrgContext): Promise<OrganizationToken[]> {
    const members = new Map((await this.repos.organizations.members(org.id)).map((m) => [m.user.id, m]));
    const rows = await this.repos.apiTokens.list(org.id);
    return rows.map((row) => {
      const member = members.get(row.user_id);
      return {
        id: row.id,
        name: row.name,
        scope: row.scope as OrganizationToken['scope'],
        hint: `${row.hint}…`,
        created_at: row.created_at.toISOString(),
        expires_at: row.expires_at?.toISOString() ?? null,
        last_used_at: row.last_used_at?.toISOString() ?? null,
        revoked_at: row.revoked_at?.toISOString() ?? null,
        user_id: row.user_id,
        member: member ? memberView(member).username : 'a former member',
        service: member?.user.service ?? false,
      };
    });
  }

  /** A service account with `role` and its first token (shown once). */
  async createServiceToken(org: OrgContext, input: ServiceTokenCreate): Promise<ApiTokenCreated> {
    if (org.personal) {
      throw new AppError('BAD_REQUEST', 'Service tokens belong to an organization: create one first');
    }
    const { role, ...token } = ServiceTokenCreateSchema.parse(input);
    const account = await this.repos.organizations.createServiceAccount(org.id, token.name, role);
    return this.apiTokens.create(org.id, account.id, token);
  }

  /** Revokes any token of the organization (an admin's right). */
  async revokeToken(org: OrgContext, id: string) {
    return this.apiTokens.revoke(org.id, id);
  }
}
