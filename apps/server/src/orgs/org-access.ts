import type { OrganizationsRepository, OrgOfMember, UserRow } from '@argus/db';
import { type Action, roleAllows, roleNeeded } from '@argus/protocol';
import { AppError } from '../errors';
import type { OrgContext } from './org-context';

/** The header the screens send naming the organization chosen in the sidebar. */
export const ORG_HEADER = 'x-argus-organization';

function contextOf({ org, role }: OrgOfMember): OrgContext {
  return { id: org.id, name: org.name, role, personal: org.personal };
}

/**
 * Which organization a request acts in, and whether the caller's role there allows what it asks
 * (packages/protocol/src/permissions.ts). One indexed lookup of the membership per request.
 */
export class OrgAccess {
  constructor(private readonly organizations: Pick<OrganizationsRepository, 'membership'>) {}

  /**
   * A signed-in person: the organization named by `wanted` (the header), else their personal one.
   * Another organization's id answers 404 like a missing one, except for `self` actions, which
   * concern the caller alone and fall back to the personal organization (a stale choice in a browser
   * must not lock its user out of their own account).
   */
  async forLogin(user: UserRow, wanted: string | undefined, action: Action): Promise<OrgContext> {
    const orgId = wanted?.trim() || user.id;
    return this.resolved(user, await this.organizations.membership(orgId, user.id), action);
  }

  /**
   * `forLogin` with the membership read already (with the user, in one statement:
   * `auth.memberFromToken`): only a stale choice on a `self` route reads again.
   */
  async resolved(user: UserRow, found: OrgOfMember | undefined, action: Action): Promise<OrgContext> {
    if (found) return contextOf(found);
    if (action === 'self' || action === 'public') {
      const personal = await this.organizations.membership(user.id, user.id);
      if (personal) return contextOf(personal);
    }
    throw new AppError('ORGANIZATION_NOT_FOUND');
  }

  /**
   * An API token: its own organization, whatever the header says (`found`: the membership read with
   * the token); a member removed since answers 401.
   */
  forToken(found: OrgOfMember | undefined): OrgContext {
    if (!found) {
      throw new AppError(
        'INVALID_TOKEN',
        'This API token acts as someone who is no longer a member of its organization',
      );
    }
    return contextOf(found);
  }
}

/** 403 FORBIDDEN_ROLE, naming the role needed, unless the caller's role allows `action`. */
export function checkRole(org: OrgContext, action: Action): void {
  if (roleAllows(org.role, action)) return;
  const needed = roleNeeded(action);
  throw new AppError(
    'FORBIDDEN_ROLE',
    `This needs the ${needed} role in ${org.name}; you are ${/^[aeiou]/.test(org.role) ? 'an' : 'a'} ${org.role} there`,
  );
}
