import { ROLES, type Role, roleAllows } from '@argus/protocol';

export const ROLE_NAMES: Record<Role, string> = {
  viewer: 'Viewer',
  runner: 'Runner',
  editor: 'Editor',
  admin: 'Admin',
  owner: 'Owner',
};

/** What each role adds to the one before (docs/ORGANIZATIONS.md), for the role pickers' hints. */
export const ROLE_HINTS: Record<Role, string> = {
  viewer: 'reads projects, runs, history and analytics',
  runner: 'also starts and cancels runs',
  editor: 'also edits suites, variables, secrets, schedules and webhooks',
  admin: 'also manages members, invitations and tokens',
  owner: 'also renames, deletes and hands over the organization',
};

/**
 * Whether `actor` may give or take the owner role: only those who may do the owners' action
 * (`own` in the permission table) make or change owners; the server refuses anyone else.
 */
export function managesOwners(actor: Role | null): boolean {
  return actor !== null && roleAllows(actor, 'own');
}

/** The roles `actor` may give a member (or an invitation): every role, owner only to owners. */
export function assignableRoles(actor: Role | null, { allowOwner = true } = {}): Role[] {
  return ROLES.filter((role) => role !== 'owner' || (allowOwner && managesOwners(actor)));
}

/** Whether `actor` may change or remove a member whose role is `target` (owners only by owners). */
export function mayChangeMember(actor: Role | null, target: Role): boolean {
  return target !== 'owner' || managesOwners(actor);
}

export function roleOptions(roles: readonly Role[]): Array<{ value: Role; label: string }> {
  return roles.map((role) => ({ value: role, label: ROLE_NAMES[role] }));
}
