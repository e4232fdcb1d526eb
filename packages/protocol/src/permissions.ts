import { z } from 'zod';
import type { ClientMessageType } from './ws';

/**
 * Who may do what in an organization: one table, read by the server on every HTTP route and every
 * socket message (docs/ORGANIZATIONS.md). A route or message with no entry here cannot be mounted,
 * and `permissions.test.ts` in the server walks every route and message for every role.
 */

/** The roles of a member, each a strict superset of the one before. */
export const ROLES = ['viewer', 'runner', 'editor', 'admin', 'owner'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/**
 * What a request asks to do, by the least role it needs:
 * - `public`: nothing (no sign-in);
 * - `self`: the caller's own account and personal work (settings, sessions, conversations, design
 *   comparisons, their own API tokens): any signed-in user, whatever their role;
 * - `read`: viewer — projects, suites, runs, history, analytics (never a secret's value);
 * - `run`: runner — starts and cancels runs and generations;
 * - `edit`: editor — suites, variables, secrets, logins, environments, schedules, webhooks;
 * - `manage`: admin — members, invitations, the organization's tokens, its audit log;
 * - `own`: owner — renames or deletes the organization, transfers ownership.
 */
export const ACTION_ROLE = {
  public: null,
  self: null,
  read: 'viewer',
  run: 'runner',
  edit: 'editor',
  manage: 'admin',
  own: 'owner',
} as const satisfies Record<string, Role | null>;
export type Action = keyof typeof ACTION_ROLE;

/** The rank of `role`: a role may do whatever a lower rank may. */
export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** Whether `role` may do `action` (actions that need no role: always). */
export function roleAllows(role: Role, action: Action): boolean {
  const needed = ACTION_ROLE[action];
  return needed === null || roleRank(role) >= roleRank(needed);
}

/** The role `action` needs, or null when it needs none. */
export function roleNeeded(action: Action): Role | null {
  return ACTION_ROLE[action];
}

/**
 * Every HTTP route, as `METHOD /path` in the server's `:param` form, and what it does. The server
 * refuses to mount a route that is missing here.
 */
export const ROUTE_ACTIONS: Record<string, Action> = {
  'GET /api/health': 'public',
  'GET /api/openapi.json': 'public',
  'POST /api/demo-requests': 'public',
  'POST /api/auth/register': 'public',
  'POST /api/auth/login': 'public',
  'GET /api/auth/sso': 'public',
  'GET /api/auth/sso/start': 'public',
  'GET /api/auth/sso/callback': 'public',
  'POST /api/auth/sso/exchange': 'public',
  'GET /api/auth/me': 'self',
  'POST /api/auth/change-password': 'self',

  'GET /api/tokens': 'self',
  'POST /api/tokens': 'self',
  'DELETE /api/tokens/:id': 'self',

  'GET /api/projects': 'read',
  'POST /api/projects': 'edit',
  'GET /api/projects/:id': 'read',
  'PUT /api/projects/:id': 'edit',
  'DELETE /api/projects/:id': 'edit',
  'POST /api/projects/:id/environments': 'edit',
  'PUT /api/projects/:id/environments/:envId': 'edit',
  'DELETE /api/projects/:id/environments/:envId': 'edit',
  'GET /api/projects/:id/variables': 'read',
  'PUT /api/projects/:id/variables': 'edit',
  'DELETE /api/projects/:id/variables/:varId': 'edit',
  'GET /api/projects/:id/suites': 'read',
  'POST /api/projects/:id/suites': 'edit',
  'GET /api/projects/:id/suites/:suiteId': 'read',
  'PUT /api/projects/:id/suites/:suiteId': 'edit',
  'DELETE /api/projects/:id/suites/:suiteId': 'edit',
  'POST /api/projects/:id/suites/:suiteId/runs': 'run',
  'GET /api/projects/:id/runs': 'read',
  'GET /api/projects/:id/suites/:suiteId/export': 'read',
  'POST /api/projects/:id/generations': 'run',
  'POST /api/projects/:id/suites/:suiteId/regenerate': 'edit',
  'GET /api/projects/:id/suites/:suiteId/comparisons/:comparisonId': 'read',
  'POST /api/projects/:id/suites/:suiteId/comparisons/:comparisonId/accept': 'edit',
  'GET /api/projects/:id/schedules': 'read',
  'POST /api/projects/:id/schedules': 'edit',
  'PUT /api/projects/:id/schedules/:scheduleId': 'edit',
  'DELETE /api/projects/:id/schedules/:scheduleId': 'edit',
  'GET /api/projects/:id/webhooks': 'read',
  'POST /api/projects/:id/webhooks': 'edit',
  'GET /api/projects/:id/webhooks/deliveries': 'read',
  'PUT /api/projects/:id/webhooks/:webhookId': 'edit',
  'DELETE /api/projects/:id/webhooks/:webhookId': 'edit',
  'POST /api/projects/:id/webhooks/:webhookId/secret': 'edit',
  'POST /api/projects/:id/webhooks/:webhookId/test': 'edit',

  'GET /api/runs/:id': 'read',
  'GET /api/runs/:id/report.json': 'read',
  'GET /api/runs/:id/report.xml': 'read',
  'POST /api/runs/:id/cancel': 'run',
  'GET /api/runs/:id/events': 'read',
  // A case's trace and video open by signed link (like screenshots); its console and network by login.
  'GET /api/runs/:id/cases/:case/trace.zip': 'public',
  'GET /api/runs/:id/cases/:case/video.webm': 'public',
  'GET /api/runs/:id/cases/:case/diagnostics': 'read',
  'GET /api/runs/:id/cases/:case/network.har': 'read',
  'GET /api/failure-groups': 'read',
  // Repairs (docs/REPAIRS.md): read by anyone who reads runs; decided by whoever may save suites.
  'GET /api/runs/:id/repairs': 'read',
  'GET /api/projects/:id/suites/:suiteId/repairs': 'read',
  'POST /api/projects/:id/suites/:suiteId/repairs/approve': 'edit',
  'POST /api/projects/:id/suites/:suiteId/repairs/:repairId/reject': 'edit',
  // Visual checks (docs/VISUAL-CHECKS.md): read by anyone who reads runs; decided by whoever may save
  // suites. Their pictures open by signed link only.
  'GET /api/runs/:id/visual-checks': 'read',
  'POST /api/runs/:id/visual-checks/approve-all': 'edit',
  'POST /api/runs/:id/visual-checks/:checkId/decision': 'edit',
  'GET /api/visual-checks/:id/:picture': 'public',
  'GET /api/projects/:id/visual-baselines': 'read',
  'POST /api/projects/:id/visual-baselines/promote': 'edit',
  'GET /api/projects/:id/visual-baselines/export': 'read',
  'POST /api/projects/:id/visual-baselines/import': 'edit',
  'GET /api/visual-baselines/:id/history': 'read',
  'POST /api/visual-baselines/:id/restore': 'edit',
  'PUT /api/visual-baselines/:id/settings': 'edit',
  'GET /api/visual-baselines/:id/image.png': 'public',

  'POST /api/automation/test-runs': 'run',
  'GET /api/automation/test-runs': 'read',
  'GET /api/automation/test-runs/:id': 'read',
  'PUT /api/automation/test-runs/:id': 'run',
  'DELETE /api/automation/test-runs/:id': 'edit',
  'POST /api/automation/test-results': 'run',
  'POST /api/screenshots/upload': 'run',
  'GET /api/screenshots/test-run/:id': 'read',
  'GET /api/screenshots/test-case/:id/:name': 'read',
  'GET /api/screenshots/:id': 'read',
  'GET /api/screenshots/:id/image': 'public',

  'POST /api/sessions': 'self',
  'GET /api/sessions': 'self',
  'GET /api/sessions/:id': 'self',
  'PUT /api/sessions/:id': 'self',
  'DELETE /api/sessions/:id': 'self',
  'GET /api/settings': 'self',
  'GET /api/settings/storage': 'self',
  'PUT /api/settings': 'self',
  'POST /api/settings/test-connection': 'self',
  'POST /api/conversations': 'self',
  'GET /api/conversations': 'self',
  'GET /api/conversations/diagnostics': 'self',
  'GET /api/conversations/:id': 'self',
  'POST /api/conversations/:id/messages': 'self',
  'POST /api/conversations/:id/test-case': 'self',
  'GET /api/comparisons/images/:id': 'public',
  'GET /api/comparisons': 'self',
  'GET /api/comparisons/:session_id': 'self',
  'POST /api/uploads': 'self',
  'GET /api/uploads/:id/image': 'public',
  'GET /api/uploads/:id/thumbnail': 'public',

  'GET /api/organizations': 'self',
  'POST /api/organizations': 'self',
  'GET /api/organization': 'read',
  'PUT /api/organization': 'own',
  'DELETE /api/organization': 'own',
  'POST /api/organization/transfer': 'own',
  'POST /api/organization/leave': 'read',
  'GET /api/organization/members': 'read',
  'PUT /api/organization/members/:userId': 'manage',
  'DELETE /api/organization/members/:userId': 'manage',
  'GET /api/organization/invitations': 'manage',
  'POST /api/organization/invitations': 'manage',
  'DELETE /api/organization/invitations/:id': 'manage',
  'GET /api/organization/tokens': 'manage',
  'POST /api/organization/service-tokens': 'manage',
  'DELETE /api/organization/tokens/:id': 'manage',
  'GET /api/invitations/:token': 'public',
  'POST /api/invitations/:token/accept': 'self',

  'GET /api/history': 'read',
  'GET /api/history/runs/:id': 'read',
  'GET /api/history/cases': 'read',
  'GET /api/analytics': 'read',

  'GET /api/audit': 'manage',
  'GET /api/audit/export': 'manage',
};

/** Every socket message a client sends, and what it does. */
export const SOCKET_ACTIONS: Record<ClientMessageType, Action> = {
  auth: 'self',
  generate_test_cases: 'run',
  command_generate_test_cases: 'run',
  run_all_tests: 'run',
  run_single_test: 'run',
  stop_execution: 'run',
  cleanup_session: 'self',
  get_automation_status: 'read',
  automation_video: 'read',
  start_conversation: 'self',
  conversation_message: 'self',
  stop_conversation: 'self',
  cleanup_orphaned_sessions: 'self',
  browser_input: 'self',
  figma_website_comparison: 'self',
  upload_and_compare_image: 'self',
  stop_comparison: 'self',
  get_figma_help: 'self',
};

/** The action of `METHOD path`, or undefined when the table has no entry for it. */
export function routeAction(method: string, path: string): Action | undefined {
  return Object.hasOwn(ROUTE_ACTIONS, `${method} ${path}`) ? ROUTE_ACTIONS[`${method} ${path}`] : undefined;
}
