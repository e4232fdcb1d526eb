import {
  type Action,
  type ClientMessageType,
  type Role,
  roleAllows,
  routeAction,
  SOCKET_ACTIONS,
} from '@argus/protocol';

/** The action of a route (`'DELETE /api/projects/:id'`) or of a socket message type (`'run_all_tests'`). */
function actionOf(what: string): Action | undefined {
  const space = what.indexOf(' ');
  if (space === -1) {
    return Object.hasOwn(SOCKET_ACTIONS, what) ? SOCKET_ACTIONS[what as ClientMessageType] : undefined;
  }
  return routeAction(what.slice(0, space), what.slice(space + 1));
}

/**
 * Whether `role` may call `what`: a route as the permission table names it (`METHOD /path`, e.g.
 * `'DELETE /api/projects/:id'`) or a socket message type (`'run_all_tests'`). The screens show a
 * control only to the roles the server lets through, read from the same table
 * (packages/protocol/src/permissions.ts) rather than lists of roles. A name the table does not hold
 * is a mistake in the screen, so it throws instead of hiding a control quietly. No role yet (the
 * organizations are loading): nothing that needs one.
 */
export function can(role: Role | null, what: string): boolean {
  const action = actionOf(what);
  if (action === undefined) throw new Error(`The permission table has no entry for ${what}`);
  if (role === null) return action === 'public' || action === 'self';
  return roleAllows(role, action);
}
