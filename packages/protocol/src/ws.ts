import { z } from 'zod';
import {
  StepUpdateSchema,
  TestCaseListSchema,
  TestCaseSchema,
  TestModeSchema,
  TestResultSchema,
} from './automation';
import { HttpUrlOrEmptySchema, HttpUrlSchema, JsonObjectSchema, TimestampSchema } from './common';
import { ComparisonOptionsSchema, ComparisonResultsSchema, ViewportSchema } from './comparison';
import { ErrorCodeSchema } from './errors';

/**
 * The realtime protocol (spec §7): one socket per user at `/ws/{userId}`, every message `{type, data}`.
 * Client and server messages are separate unions keyed on `type`.
 */

/** Close codes the gateway uses; 1000/1001 are normal closes the client does not reconnect after. */
export const WS_CLOSE = {
  normal: 1000,
  goingAway: 1001,
  /** Missing, invalid or expired token, or a token naming another user (DESIGN.md §5). */
  unauthenticated: 4401,
  /** The server is shutting down; the client reconnects. */
  serverShutdown: 1012,
} as const;

/** How long a socket without a `token` query parameter has to send its `auth` message. */
export const WS_AUTH_TIMEOUT_MS = 5000;
/** Largest message the gateway accepts (an uploaded design travels as a data URL: 10 MB base64 + slack). */
export const WS_MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

const msg = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({ type: z.literal(type), data });

const SessionIdSchema = z.string().max(100);

// ---- client → server -------------------------------------------------------------------------

export const AuthMessageSchema = msg('auth', z.object({ token: z.string().max(4096) }));

export const GenerateTestCasesSchema = msg(
  'generate_test_cases',
  z.object({ url: HttpUrlSchema, session_id: SessionIdSchema.nullable().optional() }),
);
export const CommandGenerateTestCasesSchema = msg(
  'command_generate_test_cases',
  z.object({
    url: HttpUrlSchema,
    command: z.string().trim().min(1).max(4000),
    session_id: SessionIdSchema.nullable().optional(),
  }),
);
export const RunAllTestsSchema = msg(
  'run_all_tests',
  z.object({
    url: HttpUrlSchema,
    test_cases: TestCaseListSchema,
    test_mode: TestModeSchema.default('full'),
    command: z.string().max(4000).nullable().optional(),
    session_id: SessionIdSchema.nullable().optional(),
    test_run_id: z.string().max(100).nullable().optional(),
  }),
);
export const RunSingleTestSchema = msg(
  'run_single_test',
  z.object({
    url: HttpUrlSchema,
    test_case: TestCaseSchema,
    test_mode: TestModeSchema.default('full'),
    command: z.string().max(4000).nullable().optional(),
    session_id: SessionIdSchema.nullable().optional(),
    test_run_id: z.string().max(100).nullable().optional(),
  }),
);
export const StopExecutionSchema = msg(
  'stop_execution',
  z.object({
    stopId: z.string().max(100).optional(),
    force: z.boolean().default(false),
    session_id: SessionIdSchema.nullable().optional(),
    user_id: z.string().max(100).optional(),
    timestamp: TimestampSchema.optional(),
  }),
);
export const CleanupSessionSchema = msg(
  'cleanup_session',
  z.object({
    session_id: SessionIdSchema.nullable().optional(),
    reason: z.string().max(200).optional(),
    timestamp: TimestampSchema.optional(),
  }),
);
export const StartConversationSchema = msg(
  'start_conversation',
  z.object({
    session_id: SessionIdSchema,
    /** Empty or absent: the client's default start page (spec §2: a search engine's home page). */
    url: HttpUrlOrEmptySchema.optional(),
    video_streaming: z.boolean().default(true),
  }),
);
export const ConversationMessageSchema = msg(
  'conversation_message',
  z.object({
    message: z.string().trim().min(1).max(1000),
    session_id: SessionIdSchema,
    /** The page the live browser shows; empty or null before one has loaded. */
    current_url: HttpUrlOrEmptySchema.nullable().optional(),
  }),
);
export const StopConversationSchema = msg(
  'stop_conversation',
  z.object({
    session_id: SessionIdSchema.nullable().optional(),
    reason: z.string().max(200).optional(),
    forced_cleanup: z.boolean().optional(),
    timestamp: TimestampSchema.optional(),
  }),
);
export const CleanupOrphanedSessionsSchema = msg(
  'cleanup_orphaned_sessions',
  z.object({ user_id: z.string().max(100).optional(), timestamp: TimestampSchema.optional() }),
);
export const FigmaWebsiteComparisonSchema = msg(
  'figma_website_comparison',
  z.discriminatedUnion('comparison_type', [
    z.object({
      comparison_type: z.literal('figma'),
      figma_url: HttpUrlSchema,
      website_url: HttpUrlSchema,
      options: ComparisonOptionsSchema.optional(),
      viewports: z.record(z.string(), ViewportSchema).optional(),
    }),
    z.object({
      comparison_type: z.literal('image'),
      file_id: z.string().max(200),
      website_url: HttpUrlSchema,
      options: ComparisonOptionsSchema.optional(),
      viewports: z.record(z.string(), ViewportSchema).optional(),
    }),
  ]),
);
export const UploadAndCompareImageSchema = msg(
  'upload_and_compare_image',
  z.object({
    image_data: z.string().startsWith('data:image/'),
    filename: z.string().max(255).default('uploaded-design.png'),
    website_url: HttpUrlSchema.optional(),
  }),
);
/**
 * Not in the spec: the automation screen asks, once it listens, whether a generation or run of the
 * user's is already under way (after a reload, in a second tab, after a reconnect). The answer is
 * `automation_in_progress`, or nothing when the user has nothing under way.
 */
export const GetAutomationStatusSchema = msg('get_automation_status', z.object({}).passthrough().default({}));
export const StopComparisonSchema = msg('stop_comparison', z.object({}).passthrough().default({}));
export const GetFigmaHelpSchema = msg(
  'get_figma_help',
  z.object({
    /** The file the user asks about; empty when none was typed yet. */
    figma_url: HttpUrlOrEmptySchema.optional(),
    error_context: z.string().max(100).default('general'),
  }),
);

/**
 * `POST /cleanup`, the page-unload beacon (spec §7): a `stop_conversation` or `cleanup_session`
 * message with the user's token beside it, since a beacon cannot set headers (DESIGN.md §5).
 */
export const CleanupBeaconSchema = z.discriminatedUnion('type', [
  StopConversationSchema.extend({ token: z.string().min(1).max(4096) }),
  CleanupSessionSchema.extend({ token: z.string().min(1).max(4096) }),
]);
export type CleanupBeacon = z.input<typeof CleanupBeaconSchema>;

export const ClientMessageSchema = z.discriminatedUnion('type', [
  AuthMessageSchema,
  GenerateTestCasesSchema,
  CommandGenerateTestCasesSchema,
  RunAllTestsSchema,
  RunSingleTestSchema,
  StopExecutionSchema,
  CleanupSessionSchema,
  GetAutomationStatusSchema,
  StartConversationSchema,
  ConversationMessageSchema,
  StopConversationSchema,
  CleanupOrphanedSessionsSchema,
  FigmaWebsiteComparisonSchema,
  UploadAndCompareImageSchema,
  StopComparisonSchema,
  GetFigmaHelpSchema,
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;
export type ClientMessageInput = z.input<typeof ClientMessageSchema>;
export type ClientMessageType = ClientMessage['type'];
export type ClientMessageOf<T extends ClientMessageType> = Extract<ClientMessage, { type: T }>;
export const CLIENT_MESSAGE_TYPES = ClientMessageSchema.options.map((o) => o.shape.type.value);

// ---- server → client -------------------------------------------------------------------------
// URLs here are the server's own (checked as they came in, or links it made, some relative such as
// `/api/screenshots/…`), so they are plain strings: an answer about an older record must not fail.

const empty = z.object({}).passthrough().default({});

/** What automation_in_progress says of a generation and a run alike. */
const WorkUnderWaySchema = z.object({
  url: z.string(),
  test_mode: TestModeSchema,
  command: z.string().nullable(),
  session_id: z.string().nullable(),
});

/**
 * Not in the spec: the answer to get_automation_status when a generation or run of the user's is
 * under way, so a late tab (a reload, a second tab, a reconnect) shows it as if it had been there.
 */
export const AutomationInProgressSchema = z.discriminatedUnion('kind', [
  WorkUnderWaySchema.extend({ kind: z.literal('generating'), messages: z.array(z.string()) }),
  WorkUnderWaySchema.extend({
    kind: z.literal('running'),
    test_run_id: z.string(),
    test_cases: z.array(TestCaseSchema),
    total_tests: z.number().int(),
    /** Tests that have finished, in the order they finished. */
    results: z.array(
      z.object({
        test_name: z.string(),
        status: z.enum(['passed', 'failed']),
        execution_time: z.number(),
        error: z.string().nullable(),
      }),
    ),
    /** Tests started and not finished yet. */
    active_tests: z.array(z.string()),
    /** Each step so far in its latest state, without its image; `screenshot_url` once it is stored. */
    steps: z
      .array(
        z.object({
          test_name: z.string(),
          step_data: StepUpdateSchema,
          screenshot_url: z.string().nullable(),
        }),
      )
      .default([]),
    /** Seconds since the run started. */
    elapsed: z.number(),
  }),
]);
export type AutomationInProgress = z.output<typeof AutomationInProgressSchema>;
export type AutomationInProgressInput = z.input<typeof AutomationInProgressSchema>;

/** A socket `error`: the text to show and its code from the catalogue (`ERRORS`; the server always sends one). */
export const SocketErrorSchema = z.object({ message: z.string(), code: ErrorCodeSchema.optional() });
export type SocketError = z.infer<typeof SocketErrorSchema>;

export const ServerMessageSchema = z.discriminatedUnion('type', [
  /** Sent once a socket is authenticated. Not in the spec: lets a client know it may send. */
  msg('connection_established', z.object({ user_id: z.string(), server_time: TimestampSchema })),
  // automation
  msg('generation_started', z.object({ message: z.string().optional(), url: z.string().optional() })),
  msg('progress_update', z.object({ message: z.string() })),
  msg(
    'test_cases_generated',
    z.object({
      test_cases: z.array(TestCaseSchema),
      /** Which engine wrote them (the built-in one says it is rule-based). */
      engine: z.string().optional(),
      /** The test run the server recorded for this suite; send it back with run_all_tests. */
      test_run_id: z.string().optional(),
    }),
  ),
  msg('execution_started', z.object({ total_tests: z.number().int(), test_run_id: z.string().optional() })),
  msg('execution_stopping', empty),
  /** Not in the spec: the answer to get_automation_status when something is under way. */
  msg('automation_in_progress', AutomationInProgressSchema),
  msg(
    'test_progress',
    z.object({ current_test: z.number().int(), total_tests: z.number().int(), test_name: z.string() }),
  ),
  msg('step_update', z.object({ step_data: StepUpdateSchema, test_name: z.string().optional() })),
  msg('test_completed', z.object({ test_name: z.string(), result: TestResultSchema })),
  msg(
    'test_failed',
    z.object({
      test_name: z.string(),
      error: z.string(),
      execution_time: z.number(),
      screenshots: z.array(z.unknown()).default([]),
      logs: z.array(z.unknown()).default([]),
    }),
  ),
  msg(
    'all_tests_completed',
    z.object({ total_tests: z.number().int(), passed: z.number().int(), execution_time: z.number() }),
  ),
  msg('execution_stopped', z.object({ execution_time: z.number() })),
  msg('error', SocketErrorSchema),
  msg('video_frame', z.object({ frame: z.string(), timestamp: z.union([TimestampSchema, z.number()]) })),
  // conversational
  msg(
    'conversation_response',
    z.object({
      message: z.string(),
      timestamp: TimestampSchema,
      actions: z.array(z.unknown()).optional(),
      video_streaming: z.boolean().optional(),
    }),
  ),
  msg(
    'browser_action',
    z.object({
      message: z.string().optional(),
      action: z.string(),
      url: z.string().optional(),
      screenshot: z.string().optional(),
      video_streaming: z.boolean().optional(),
    }),
  ),
  msg(
    'browser_status',
    z.object({ status: z.enum(['idle', 'loading', 'ready', 'stopping', 'stopped', 'error']) }),
  ),
  msg('conversation_stopped', z.object({ message: z.string(), timestamp: TimestampSchema })),
  // design comparison
  msg('figma_permission_error', JsonObjectSchema.default({})),
  msg(
    'vision_comparison_progress',
    z.object({ message: z.string(), progress_percentage: z.number().min(0).max(100) }),
  ),
  msg('vision_comparison_completed', z.object({ results: ComparisonResultsSchema })),
  msg('vision_comparison_error', z.object({ error: z.string() })),
  msg(
    'upload_completed',
    z.object({
      file_id: z.string(),
      filename: z.string(),
      url: z.string(),
      thumbnail_url: z.string().optional(),
    }),
  ),
  msg('figma_sharing_instructions', JsonObjectSchema.default({})),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
export type ServerMessageInput = z.input<typeof ServerMessageSchema>;
export type ServerMessageType = ServerMessage['type'];
export type ServerMessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;
export const SERVER_MESSAGE_TYPES = ServerMessageSchema.options.map((o) => o.shape.type.value);

/** Parses a raw frame; returns a readable reason instead of throwing. */
export function parseClientMessage(
  raw: string,
): { ok: true; message: ClientMessage } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'Message is not valid JSON' };
  }
  const parsed = ClientMessageSchema.safeParse(json);
  if (parsed.success) return { ok: true, message: parsed.data };
  const first = parsed.error.issues[0];
  const where = first?.path.length ? ` at ${first.path.join('.')}` : '';
  return { ok: false, reason: `Invalid message${where}: ${first?.message ?? 'unknown error'}` };
}

export function parseServerMessage(raw: string): ServerMessage | null {
  try {
    const parsed = ServerMessageSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
