import { ANALYTICS_ROUTES } from '../routes/analytics';
import { AUDIT_ROUTES } from '../routes/audit';
import { AUTH_ROUTES } from '../routes/auth';
import { AUTOMATION_ROUTES } from '../routes/automation';
import { CASE_FILE_ROUTES } from '../routes/case-files';
import { COMPARISON_ROUTES } from '../routes/comparisons';
import { CONVERSATION_ROUTES } from '../routes/conversations';
import { DEMO_REQUEST_ROUTES } from '../routes/demo-requests';
import { EXPORT_ROUTES } from '../routes/exports';
import { FAILURE_GROUP_ROUTES } from '../routes/failure-groups';
import { GENERATION_ROUTES } from '../routes/generations';
import { HEALTH_ROUTES } from '../routes/health';
import { HISTORY_ROUTES } from '../routes/history';
import { INVITATION_ROUTES, ORGANIZATION_ROUTES, ORGANIZATIONS_ROUTES } from '../routes/organizations';
import { PROJECT_ROUTES } from '../routes/projects';
import { REPAIR_ROUTES } from '../routes/repairs';
import { type RouteGroup, routeGroup, routeOf } from '../routes/route-group';
import { RUN_ROUTES } from '../routes/runs';
import { SCHEDULE_ROUTES } from '../routes/schedules';
import { SCREENSHOT_ROUTES } from '../routes/screenshots';
import { SESSION_ROUTES } from '../routes/sessions';
import { SETTINGS_ROUTES } from '../routes/settings';
import { SSO_ROUTES } from '../routes/sso';
import { SUITE_COMPARISON_ROUTES } from '../routes/suite-comparisons';
import { TOKEN_ROUTES } from '../routes/tokens';
import { UPLOAD_ROUTES } from '../routes/uploads';
import { VISUAL_ROUTES } from '../routes/visual';
import { WEBHOOK_ROUTES } from '../routes/webhooks';

/**
 * GET /api/openapi.json, declared here beside the catalogue it documents (a route module listing it
 * would import itself through the catalogue); `openapi-route.ts` mounts it.
 */
const route = routeOf<{ document: Record<string, unknown> }>();

export const OPENAPI_ROUTES = routeGroup('/api/openapi.json', [
  route({
    method: 'GET',
    path: '/',
    summary: 'This document',
    tag: 'System',
    auth: 'none',
    handle: async (_input, { document }) => document,
  }),
]);

/**
 * Every route group of the REST API, in the order the document lists them. A group missing here is
 * missing from the document, which `openapi.api.test.ts` catches against the routes the app registers.
 */
export const API_ROUTE_GROUPS: readonly RouteGroup<never>[] = [
  HEALTH_ROUTES,
  OPENAPI_ROUTES,
  DEMO_REQUEST_ROUTES,
  AUTH_ROUTES,
  SSO_ROUTES,
  TOKEN_ROUTES,
  ORGANIZATIONS_ROUTES,
  ORGANIZATION_ROUTES,
  INVITATION_ROUTES,
  PROJECT_ROUTES,
  EXPORT_ROUTES,
  GENERATION_ROUTES,
  SUITE_COMPARISON_ROUTES,
  SCHEDULE_ROUTES,
  WEBHOOK_ROUTES,
  RUN_ROUTES,
  CASE_FILE_ROUTES,
  AUTOMATION_ROUTES,
  SCREENSHOT_ROUTES,
  SESSION_ROUTES,
  SETTINGS_ROUTES,
  CONVERSATION_ROUTES,
  COMPARISON_ROUTES,
  UPLOAD_ROUTES,
  HISTORY_ROUTES,
  FAILURE_GROUP_ROUTES,
  REPAIR_ROUTES,
  VISUAL_ROUTES,
  ANALYTICS_ROUTES,
  AUDIT_ROUTES,
];
