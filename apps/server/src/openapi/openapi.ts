import {
  AnalyticsSchema,
  ApiTokenCreatedSchema,
  ApiTokenCreateSchema,
  ApiTokenSchema,
  CaseHistorySchema,
  ChangePasswordRequestSchema,
  ChangePasswordResponseSchema,
  ComparisonSummaryListSchema,
  ConversationCreateSchema,
  ConversationMessageCreateSchema,
  ConversationSchema,
  DemoRequestResponseSchema,
  DemoRequestSchema,
  EnvironmentInputSchema,
  EnvironmentSchema,
  EnvironmentUpdateSchema,
  ErrorResponseSchema,
  GenerationRequestSchema,
  GenerationResultSchema,
  HealthResponseSchema,
  HistoryPageSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  ProjectCreateSchema,
  ProjectRunSchema,
  ProjectSchema,
  ProjectSummarySchema,
  ProjectUpdateSchema,
  RegisterRequestSchema,
  RegisterResponseSchema,
  RunComparisonSchema,
  RunReportSchema,
  RunSavedSuiteSchema,
  RunStartedSchema,
  SaveConversationTestResponseSchema,
  SaveConversationTestSchema,
  SavedSuiteInputSchema,
  SavedSuiteSchema,
  ScheduleInputSchema,
  ScheduleSchema,
  ScheduleUpdateSchema,
  SessionCreateSchema,
  SessionSchema,
  SessionUpdateSchema,
  SettingsResponseSchema,
  SettingsUpdateSchema,
  StorageUsageSchema,
  StoredComparisonSchema,
  TestConnectionRequestSchema,
  TestConnectionResponseSchema,
  TestResultRecordSchema,
  TestRunCreateSchema,
  TestRunDetailSchema,
  TestRunListSchema,
  TestRunUpdateSchema,
  UserSchema,
  VariableInputSchema,
  VariableSchema,
  WebhookDeliverySchema,
  WebhookInputSchema,
  WebhookSchema,
  WebhookUpdateSchema,
  WebhookWithSecretSchema,
} from '@argus/protocol';
import { z } from 'zod';

/**
 * The REST API as an OpenAPI 3.1 document (served at GET /api/openapi.json, docs/CI.md#the-run-api),
 * generated from the zod schemas the routes validate with, so its shapes cannot drift from theirs.
 * Every `/api` route has an entry: a test compares this catalogue with the routes the app registers,
 * so a new route without one fails it.
 */
export interface ApiOperation {
  summary: string;
  tag: string;
  /** Who may call it. @default 'user' (a login, or an API token whose scope covers it) */
  auth?: 'none' | 'user' | 'login';
  /** What an API token needs beyond reading (docs/CI.md#api-tokens). */
  scope?: 'run' | 'full';
  body?: z.ZodType;
  /** @default 200 */
  status?: number;
  response?: z.ZodType;
  /** An answer that is not JSON: its media type and what it holds. */
  media?: { type: string; description: string };
}

const listOf = (schema: z.ZodType) => z.array(schema);
const image = (summary: string, tag: string): ApiOperation => ({
  summary,
  tag,
  auth: 'none',
  media: { type: 'image/*', description: 'The image (the link is signed and expires)' },
});

/** Every `/api` route, as `METHOD path` in Fastify's `:param` form. */
export const API_ROUTES: Record<string, ApiOperation> = {
  'GET /api/health': {
    summary: 'Health and version',
    tag: 'System',
    auth: 'none',
    response: HealthResponseSchema,
  },
  'GET /api/openapi.json': { summary: 'This document', tag: 'System', auth: 'none' },
  'POST /api/demo-requests': {
    summary: 'Request a demo (landing page)',
    tag: 'System',
    auth: 'none',
    body: DemoRequestSchema,
    status: 201,
    response: DemoRequestResponseSchema,
  },

  'POST /api/auth/register': {
    summary: 'Create an account',
    tag: 'Auth',
    auth: 'none',
    body: RegisterRequestSchema,
    status: 201,
    response: RegisterResponseSchema,
  },
  'POST /api/auth/login': {
    summary: 'Sign in (JSON or form body): answers a login token for the screens',
    tag: 'Auth',
    auth: 'none',
    body: LoginRequestSchema,
    response: LoginResponseSchema,
  },
  'GET /api/auth/me': { summary: 'The signed-in user', tag: 'Auth', response: UserSchema },
  'POST /api/auth/change-password': {
    summary: 'Change the password (signs other devices out)',
    tag: 'Auth',
    auth: 'login',
    body: ChangePasswordRequestSchema,
    response: ChangePasswordResponseSchema,
  },

  'GET /api/tokens': {
    summary: 'List API tokens (never their values)',
    tag: 'API tokens',
    auth: 'login',
    response: listOf(ApiTokenSchema),
  },
  'POST /api/tokens': {
    summary: 'Create an API token: the answer holds its value, the only time it is given',
    tag: 'API tokens',
    auth: 'login',
    body: ApiTokenCreateSchema,
    status: 201,
    response: ApiTokenCreatedSchema,
  },
  'DELETE /api/tokens/:id': {
    summary: 'Revoke an API token',
    tag: 'API tokens',
    auth: 'login',
    response: ApiTokenSchema,
  },

  'GET /api/projects': {
    summary: "The user's projects",
    tag: 'Projects',
    response: listOf(ProjectSummarySchema),
  },
  'POST /api/projects': {
    summary: 'Create a project with its environments',
    tag: 'Projects',
    scope: 'full',
    body: ProjectCreateSchema,
    status: 201,
    response: ProjectSchema,
  },
  'GET /api/projects/:id': {
    summary: 'A project with its environments and login',
    tag: 'Projects',
    response: ProjectSchema,
  },
  'PUT /api/projects/:id': {
    summary: 'Change a project',
    tag: 'Projects',
    scope: 'full',
    body: ProjectUpdateSchema,
    response: ProjectSchema,
  },
  'DELETE /api/projects/:id': {
    summary: 'Delete a project and all it holds',
    tag: 'Projects',
    scope: 'full',
    status: 204,
  },
  'POST /api/projects/:id/environments': {
    summary: 'Add an environment',
    tag: 'Projects',
    scope: 'full',
    body: EnvironmentInputSchema,
    status: 201,
    response: EnvironmentSchema,
  },
  'PUT /api/projects/:id/environments/:envId': {
    summary: 'Change an environment',
    tag: 'Projects',
    scope: 'full',
    body: EnvironmentUpdateSchema,
    response: EnvironmentSchema,
  },
  'DELETE /api/projects/:id/environments/:envId': {
    summary: 'Delete an environment',
    tag: 'Projects',
    scope: 'full',
    status: 204,
  },
  'GET /api/projects/:id/variables': {
    summary: 'Variables and secrets (a secret value is never answered)',
    tag: 'Projects',
    response: listOf(VariableSchema),
  },
  'PUT /api/projects/:id/variables': {
    summary: 'Set a variable or secret',
    tag: 'Projects',
    scope: 'full',
    body: VariableInputSchema,
    response: VariableSchema,
  },
  'DELETE /api/projects/:id/variables/:varId': {
    summary: 'Delete a variable or secret',
    tag: 'Projects',
    scope: 'full',
    status: 204,
  },
  'GET /api/projects/:id/suites': {
    summary: 'Saved suites',
    tag: 'Suites',
    response: listOf(SavedSuiteSchema),
  },
  'POST /api/projects/:id/suites': {
    summary: 'Save a new suite',
    tag: 'Suites',
    scope: 'full',
    body: SavedSuiteInputSchema,
    status: 201,
    response: SavedSuiteSchema,
  },
  'GET /api/projects/:id/suites/:suiteId': {
    summary: 'A saved suite with its versions',
    tag: 'Suites',
    response: SavedSuiteSchema,
  },
  'PUT /api/projects/:id/suites/:suiteId': {
    summary: 'Save a new version of a suite (409 when it changed since base_version)',
    tag: 'Suites',
    scope: 'full',
    body: SavedSuiteInputSchema,
    response: SavedSuiteSchema,
  },
  'DELETE /api/projects/:id/suites/:suiteId': {
    summary: 'Delete a saved suite',
    tag: 'Suites',
    scope: 'full',
    status: 204,
  },
  'POST /api/projects/:id/suites/:suiteId/runs': {
    summary:
      'Run a saved suite on an environment (the default when none is named): answers the run id at once',
    tag: 'Runs',
    scope: 'run',
    body: RunSavedSuiteSchema,
    status: 202,
    response: RunStartedSchema,
  },
  'GET /api/projects/:id/suites/:suiteId/export': {
    summary:
      'Export a saved suite as a Playwright Test project, for an environment (?environment_id=, else the default); X-Argus-Export-Todo says how many lines were left as TODO comments',
    tag: 'Suites',
    media: { type: 'application/zip', description: 'The Playwright Test project (docs/EXPORT.md)' },
  },
  'POST /api/projects/:id/generations': {
    summary:
      'Generate a suite on an environment and save it under a name (new, or its next version): answers when the generation is over (minutes)',
    tag: 'Suites',
    scope: 'run',
    body: GenerationRequestSchema,
    status: 201,
    response: GenerationResultSchema,
  },
  'GET /api/projects/:id/runs': {
    summary: "The project's recent runs",
    tag: 'Runs',
    response: listOf(ProjectRunSchema),
  },
  // Schedules and webhooks (docs/SCHEDULES.md).
  'GET /api/projects/:id/schedules': {
    summary: "The project's schedules, with their next and last due times",
    tag: 'Schedules',
    response: listOf(ScheduleSchema),
  },
  'POST /api/projects/:id/schedules': {
    summary: 'Schedule a saved suite on an environment (a preset or a cron expression, in a time zone)',
    tag: 'Schedules',
    scope: 'full',
    body: ScheduleInputSchema,
    status: 201,
    response: ScheduleSchema,
  },
  'PUT /api/projects/:id/schedules/:scheduleId': {
    summary: "Change a schedule's times, zone, environment, or pause it",
    tag: 'Schedules',
    scope: 'full',
    body: ScheduleUpdateSchema,
    response: ScheduleSchema,
  },
  'DELETE /api/projects/:id/schedules/:scheduleId': {
    summary: 'Delete a schedule',
    tag: 'Schedules',
    scope: 'full',
    status: 204,
  },
  'GET /api/projects/:id/webhooks': {
    summary: "The project's webhooks (never their secrets)",
    tag: 'Schedules',
    response: listOf(WebhookSchema),
  },
  'POST /api/projects/:id/webhooks': {
    summary: 'Add a webhook (its URL held to the target policy); answers its signing secret, this once',
    tag: 'Schedules',
    scope: 'full',
    body: WebhookInputSchema,
    status: 201,
    response: WebhookWithSecretSchema,
  },
  'GET /api/projects/:id/webhooks/deliveries': {
    summary: "The latest deliveries of the project's webhooks (?webhook_id=), with their status",
    tag: 'Schedules',
    response: listOf(WebhookDeliverySchema),
  },
  'PUT /api/projects/:id/webhooks/:webhookId': {
    summary: "Change a webhook's name, URL, format, events, or pause it",
    tag: 'Schedules',
    scope: 'full',
    body: WebhookUpdateSchema,
    response: WebhookSchema,
  },
  'DELETE /api/projects/:id/webhooks/:webhookId': {
    summary: 'Delete a webhook and its deliveries',
    tag: 'Schedules',
    scope: 'full',
    status: 204,
  },
  'POST /api/projects/:id/webhooks/:webhookId/secret': {
    summary: "Rotate a webhook's signing secret; answers the new one, this once",
    tag: 'Schedules',
    scope: 'full',
    response: WebhookWithSecretSchema,
  },
  'POST /api/projects/:id/webhooks/:webhookId/test': {
    summary: 'Send a signed test delivery (202, the delivery)',
    tag: 'Schedules',
    scope: 'full',
    status: 202,
    response: WebhookDeliverySchema,
  },

  'GET /api/runs/:id': { summary: "A run's status and results", tag: 'Runs', response: RunReportSchema },
  'GET /api/runs/:id/events': {
    summary:
      "A run's progress as server-sent events: `run`, then `case_finished` per case, then `run_finished`",
    tag: 'Runs',
    media: {
      type: 'text/event-stream',
      description: 'One RunEvent (JSON) per event; the stream ends with the run',
    },
  },
  'POST /api/runs/:id/cancel': {
    summary: 'Stop a run (202); a run already over is answered as it is (200, its report)',
    tag: 'Runs',
    scope: 'run',
    status: 202,
    response: z.object({ test_run_id: z.string(), status: z.literal('stopping') }),
  },
  'GET /api/runs/:id/report.json': {
    summary: "The run's report as JSON",
    tag: 'Runs',
    response: RunReportSchema,
  },
  'GET /api/runs/:id/report.xml': {
    summary: "The run's report as JUnit XML",
    tag: 'Runs',
    media: { type: 'application/xml', description: 'JUnit XML: one testsuite, one testcase per case' },
  },

  'POST /api/automation/test-runs': {
    summary: 'Record a test run',
    tag: 'Automation',
    scope: 'full',
    body: TestRunCreateSchema,
    status: 201,
    response: TestRunDetailSchema,
  },
  'GET /api/automation/test-runs': {
    summary: 'Recorded test runs',
    tag: 'Automation',
    response: TestRunListSchema,
  },
  'GET /api/automation/test-runs/:id': {
    summary: 'A recorded test run',
    tag: 'Automation',
    response: TestRunDetailSchema,
  },
  'PUT /api/automation/test-runs/:id': {
    summary: 'Change a recorded test run',
    tag: 'Automation',
    scope: 'full',
    body: TestRunUpdateSchema,
    response: TestRunDetailSchema,
  },
  'DELETE /api/automation/test-runs/:id': {
    summary: 'Delete a recorded test run',
    tag: 'Automation',
    scope: 'full',
    status: 204,
  },
  'POST /api/automation/test-results': {
    summary: 'Record a test result',
    tag: 'Automation',
    scope: 'full',
    body: TestResultRecordSchema,
    status: 201,
  },
  'POST /api/screenshots/upload': {
    summary: 'Store a screenshot of a run',
    tag: 'Automation',
    scope: 'full',
    status: 201,
  },
  'GET /api/screenshots/test-run/:id': { summary: "Signed links to a run's screenshots", tag: 'Automation' },
  'GET /api/screenshots/test-case/:id/:name': {
    summary: "Signed links to a case's screenshots",
    tag: 'Automation',
  },
  'GET /api/screenshots/:id/image': image('A screenshot', 'Automation'),

  'POST /api/sessions': {
    summary: 'Create a session',
    tag: 'Sessions',
    scope: 'full',
    body: SessionCreateSchema,
    status: 201,
    response: SessionSchema,
  },
  'GET /api/sessions': { summary: 'Sessions', tag: 'Sessions', response: listOf(SessionSchema) },
  'GET /api/sessions/:id': { summary: 'A session', tag: 'Sessions', response: SessionSchema },
  'PUT /api/sessions/:id': {
    summary: 'Change a session',
    tag: 'Sessions',
    scope: 'full',
    body: SessionUpdateSchema,
    response: SessionSchema,
  },
  'DELETE /api/sessions/:id': {
    summary: 'Delete a session',
    tag: 'Sessions',
    scope: 'full',
    response: SessionSchema,
  },

  'GET /api/settings': {
    summary: 'Model, Figma token (masked), budget and usage',
    tag: 'Settings',
    response: SettingsResponseSchema,
  },
  'PUT /api/settings': {
    summary: 'Change settings',
    tag: 'Settings',
    scope: 'full',
    body: SettingsUpdateSchema,
    response: SettingsResponseSchema,
  },
  'GET /api/settings/storage': {
    summary: 'Stored bytes and history kept, against the quota and retention',
    tag: 'Settings',
    response: StorageUsageSchema,
  },
  'POST /api/settings/test-connection': {
    summary: 'Test a model connection',
    tag: 'Settings',
    scope: 'full',
    body: TestConnectionRequestSchema,
    response: TestConnectionResponseSchema,
  },

  'POST /api/conversations': {
    summary: 'Start a conversation record',
    tag: 'Conversations',
    scope: 'full',
    body: ConversationCreateSchema,
    status: 201,
    response: ConversationSchema,
  },
  'GET /api/conversations': {
    summary: 'Conversations',
    tag: 'Conversations',
    response: listOf(ConversationSchema),
  },
  'GET /api/conversations/diagnostics': {
    summary: 'Live-browser diagnostics (test servers only)',
    tag: 'Conversations',
  },
  'GET /api/conversations/:id': {
    summary: 'A conversation',
    tag: 'Conversations',
    response: ConversationSchema,
  },
  'POST /api/conversations/:id/messages': {
    summary: 'Add a message to a conversation record',
    tag: 'Conversations',
    scope: 'full',
    body: ConversationMessageCreateSchema,
    status: 201,
  },
  'POST /api/conversations/:id/test-case': {
    summary: 'Save a conversation as a test case',
    tag: 'Conversations',
    scope: 'full',
    body: SaveConversationTestSchema,
    status: 201,
    response: SaveConversationTestResponseSchema,
  },

  'GET /api/comparisons': {
    summary: 'Design comparisons',
    tag: 'Design comparison',
    response: ComparisonSummaryListSchema,
  },
  'GET /api/comparisons/images/:id': image("A comparison's image", 'Design comparison'),
  'GET /api/comparisons/:session_id': {
    summary: "A session's comparison",
    tag: 'Design comparison',
    response: StoredComparisonSchema,
  },
  'POST /api/uploads': {
    summary: 'Upload a design image (multipart)',
    tag: 'Design comparison',
    scope: 'full',
    status: 201,
  },
  'GET /api/uploads/:id/image': image('An uploaded design', 'Design comparison'),
  'GET /api/uploads/:id/thumbnail': image("An uploaded design's thumbnail", 'Design comparison'),

  'GET /api/history': {
    summary: 'Test history: runs, design comparisons and conversations, newest first (keyset pages)',
    tag: 'History',
    response: HistoryPageSchema,
  },
  'GET /api/history/runs/:id': {
    summary: 'A run compared with the previous run of its suite',
    tag: 'History',
    response: RunComparisonSchema,
  },
  'GET /api/history/cases': {
    summary: "A test case's recent results, grouped failures and last change",
    tag: 'History',
    response: CaseHistorySchema,
  },
  'GET /api/analytics': {
    summary:
      'Pass rate, durations, slowest tests, failing steps, flaky tests, model cost and design scores over a range',
    tag: 'History',
    response: AnalyticsSchema,
  },
};

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;

function accessNote(op: ApiOperation): string | undefined {
  if (op.auth === 'none') return undefined;
  if (op.auth === 'login') return 'A login token only: API tokens are refused.';
  if (op.scope === 'run') return 'A login, or an API token with scope `run` or `full`.';
  if (op.scope === 'full') return 'A login, or an API token with scope `full`.';
  return 'A login, or an API token of any scope.';
}

/** The OpenAPI 3.1 document of this server's REST API. */
export function openApiDocument(version: string): Record<string, unknown> {
  const error = {
    description: 'An error: `{detail, code}`',
    content: { 'application/json': { schema: jsonSchema(ErrorResponseSchema, 'output') } },
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, op] of Object.entries(API_ROUTES)) {
    const [method, path] = key.split(' ') as [string, string];
    const names = [...path.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => name);
    const success = op.media
      ? { description: op.media.description, content: { [op.media.type]: {} } }
      : op.response
        ? {
            description: op.summary,
            content: { 'application/json': { schema: jsonSchema(op.response, 'output') } },
          }
        : { description: op.summary };
    const note = accessNote(op);
    const openPath = path.replace(/:([A-Za-z_]+)/g, '{$1}');
    paths[openPath] ??= {};
    paths[openPath][method.toLowerCase()] = {
      summary: op.summary,
      tags: [op.tag],
      ...(note && { description: note }),
      ...(names.length > 0 && {
        parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      }),
      ...(op.body && {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: jsonSchema(op.body, 'input') } },
        },
      }),
      ...(op.auth === 'none' && { security: [] }),
      responses: { [String(op.status ?? 200)]: success, '4XX': error, '5XX': error },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Argus API',
      version,
      description:
        'The REST API of Argus. Send `Authorization: Bearer <token>`: a login token (POST /api/auth/login) or a personal API token made in Settings (`argus_…`). Tokens never go in a URL. Errors are `{detail, code}`, with the codes of one catalogue.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths,
  };
}
