import { z } from 'zod';
import {
  AllTestsCompletedDataSchema,
  AutomationInProgressSchema,
  AutomationVideoDataSchema,
  CleanupSessionDataSchema,
  CommandGenerateTestCasesDataSchema,
  ExecutionStartedDataSchema,
  ExecutionStoppedDataSchema,
  ExecutionStoppingDataSchema,
  GenerateTestCasesDataSchema,
  GenerationStartedDataSchema,
  GetAutomationStatusDataSchema,
  ProgressUpdateDataSchema,
  RunAllTestsDataSchema,
  RunSingleTestDataSchema,
  StepUpdateDataSchema,
  StopExecutionDataSchema,
  TestCasesGeneratedDataSchema,
  TestCompletedDataSchema,
  TestFailedDataSchema,
  TestProgressDataSchema,
} from './automation';
import { SessionIdSchema, TimestampSchema } from './common';
import {
  FigmaPermissionErrorDataSchema,
  FigmaSharingInstructionsDataSchema,
  FigmaWebsiteComparisonDataSchema,
  GetFigmaHelpDataSchema,
  StopComparisonDataSchema,
  UploadAndCompareImageDataSchema,
  UploadCompletedDataSchema,
  VisionComparisonCompletedDataSchema,
  VisionComparisonErrorDataSchema,
  VisionComparisonProgressDataSchema,
} from './comparison';
import {
  BrowserActionDataSchema,
  BrowserInputDataSchema,
  BrowserStatusDataSchema,
  CleanupOrphanedSessionsDataSchema,
  ConversationMessageDataSchema,
  ConversationResponseDataSchema,
  ConversationStoppedDataSchema,
  StartConversationDataSchema,
  StopConversationDataSchema,
} from './conversations';
import { ErrorCodeSchema } from './errors';

/**
 * The realtime protocol (docs/PRODUCT.md#realtime-messages): one socket per user at `/ws/{userId}`, every message `{type, data}`.
 * Client and server messages are separate unions keyed on `type`.
 *
 * Beyond the spec, so that every screen (automation, conversational, design comparison) and the
 * live video share the user's one socket:
 *   - every server message says the session it concerns, `session_id` beside `type` and `data`
 *     (null when it concerns none: the connection itself, a request that named none);
 *   - a client message may carry a `request_id` of its choosing; the messages that answer it echo it;
 *   - an `error` says which feature it belongs to (`data.feature`), so one screen's failure never
 *     fails another;
 *   - `connection_established` says the protocol version, and a client of another version asks the
 *     user to reload rather than misreading messages;
 *   - a socket is only ever closed with one of the codes and reasons of `WS_CLOSE_REASONS`.
 *
 * This file holds the envelope and the unions; each feature's payloads (`FooDataSchema`, the `data` of
 * message `foo`) live in its own file: automation.ts, conversations.ts, comparison.ts.
 */

/**
 * The version of this protocol. Raise it with any change an older client would misread (a message
 * or field it requires that the server no longer sends, a changed meaning). Version 1 was the original product's
 * `{type, data}` without `session_id` (docs/PRODUCT.md#realtime-messages).
 */
export const PROTOCOL_VERSION = 2;

/** Close codes; 1000/1001 are normal closes the client does not reconnect after. */
export const WS_CLOSE = {
  normal: 1000,
  goingAway: 1001,
  /** The server is shutting down (restarting); the client reconnects. */
  serverShutdown: 1012,
  /** Missing, invalid or expired token, or a token naming another user (docs/ARCHITECTURE.md#departures-from-the-spec-and-why). */
  unauthenticated: 4401,
  /** The socket broke a rule of use (a flood, a reader that stopped reading); the client may reconnect. */
  policyViolation: 1008,
  /** A message larger than the socket may send (before authentication: WS_PREAUTH_MAX_PAYLOAD_BYTES). */
  messageTooBig: 1009,
  /** Too many sockets open already (per user or per address); the client may try again later. */
  tryAgainLater: 1013,
} as const;
export type WsCloseCode = (typeof WS_CLOSE)[keyof typeof WS_CLOSE];

/** Every close either end makes, with its code and its reason (the reason is what the other end reads). */
export const WS_CLOSE_REASONS = {
  // server
  /** No `?token=` and no `auth` message within WS_AUTH_TIMEOUT_MS. */
  authTimeout: { code: WS_CLOSE.unauthenticated, reason: 'Authentication timed out' },
  /** Something other than `auth` arrived before the socket was authenticated. */
  authFirst: { code: WS_CLOSE.unauthenticated, reason: 'Authenticate first' },
  /** The token is malformed, expired, revoked (a password change), or its user is gone. */
  tokenInvalid: { code: WS_CLOSE.unauthenticated, reason: 'Invalid or expired token' },
  /** A valid token of another user than the one in the path. */
  tokenForeign: { code: WS_CLOSE.unauthenticated, reason: 'Token does not belong to this user' },
  /** The token could not be checked (the database failed). */
  authFailed: { code: WS_CLOSE.unauthenticated, reason: 'Authentication failed' },
  /** A `?token=` in the socket URL: proxies log URLs, so the token must come in the `auth` message. */
  tokenInUrl: {
    code: WS_CLOSE.unauthenticated,
    reason: 'A token in the URL is not accepted: send it in an auth message',
  },
  /** A frame larger than WS_PREAUTH_MAX_PAYLOAD_BYTES before authentication; refused at its header. */
  preAuthTooLarge: {
    code: WS_CLOSE.messageTooBig,
    reason: 'Message too large before authentication (WS_PREAUTH_MAX_PAYLOAD_BYTES)',
  },
  /** More than WS_PREAUTH_MAX_PENDING messages while the `auth` message was being checked. */
  preAuthFlood: {
    code: WS_CLOSE.policyViolation,
    reason: 'Too many messages before authentication (WS_PREAUTH_MAX_PENDING)',
  },
  /** A larger frame than WS_MAX_PAYLOAD_BYTES after authentication. */
  tooLarge: { code: WS_CLOSE.messageTooBig, reason: 'Message too large (WS_MAX_PAYLOAD_BYTES)' },
  /** The user was removed from the organization the socket acted in; a new socket acts in their own. */
  memberRemoved: { code: WS_CLOSE.policyViolation, reason: 'You were removed from this organization' },
  /** The user has MAX_SOCKETS_PER_USER sockets open already. */
  tooManySocketsForUser: {
    code: WS_CLOSE.tryAgainLater,
    reason: 'Too many open sockets for this user (MAX_SOCKETS_PER_USER)',
  },
  /** The client address has MAX_SOCKETS_PER_ADDRESS sockets open already. */
  tooManySocketsForAddress: {
    code: WS_CLOSE.tryAgainLater,
    reason: 'Too many open sockets from this address (MAX_SOCKETS_PER_ADDRESS)',
  },
  /** Messages kept coming after WS_MESSAGE_BURST of them were refused (WS_MESSAGES_PER_SECOND). */
  messageFlood: {
    code: WS_CLOSE.policyViolation,
    reason: 'Too many messages: kept sending after refusals (WS_MESSAGES_PER_SECOND)',
  },
  /** More than WS_MAX_BUFFERED_BYTES waited to be sent: the client stopped reading. */
  slowReader: {
    code: WS_CLOSE.policyViolation,
    reason: 'Not reading: too much waiting to be sent (WS_MAX_BUFFERED_BYTES)',
  },
  /** SIGTERM/SIGINT: the server closes every socket as it stops. */
  serverShutdown: { code: WS_CLOSE.serverShutdown, reason: 'Server shutting down' },
  // web client
  /** Sign-out, or the app unmounting. */
  clientDisconnect: { code: WS_CLOSE.normal, reason: 'Client disconnect' },
  /** The client drops its socket to open a new one. */
  reconnecting: { code: WS_CLOSE.normal, reason: 'Reconnecting' },
  /** The server speaks another protocol version: the page must be reloaded. */
  versionMismatch: { code: WS_CLOSE.normal, reason: 'Protocol version mismatch' },
} as const satisfies Record<string, { code: WsCloseCode; reason: string }>;
export type WsCloseReason = keyof typeof WS_CLOSE_REASONS;

/** How long a new socket has to send its `auth` message. */
export const WS_AUTH_TIMEOUT_MS = 5000;
/** Largest message the gateway accepts (an uploaded design travels as a data URL: 10 MB base64 + slack). */
export const WS_MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;
/**
 * Largest message accepted before the socket is authenticated: the `auth` message (a token of at most
 * 4,096 characters) and little else. A larger frame closes the socket as its header arrives.
 */
export const WS_PREAUTH_MAX_PAYLOAD_BYTES = 8 * 1024;
/** Messages that may wait while the `auth` message is being checked; one more closes the socket. */
export const WS_PREAUTH_MAX_PENDING = 16;

/** Which screen a message belongs to; `connection` is the socket itself (authentication, unreadable frames). */
export const FeatureSchema = z.enum(['automation', 'conversational', 'design', 'connection']);
export type Feature = z.infer<typeof FeatureSchema>;

/** Chosen by the client; echoed by the messages that answer its message. */
export const RequestIdSchema = z.string().min(1).max(100);

const msg = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({ type: z.literal(type), data, request_id: RequestIdSchema.optional() });

// ---- client → server -------------------------------------------------------------------------

/**
 * `organization_id`: the organization the socket acts in (the sidebar's choice); absent, or one the
 * user is not a member of: their personal organization.
 */
export const AuthMessageSchema = msg(
  'auth',
  z.object({ token: z.string().max(4096), organization_id: z.string().max(100).optional() }),
);

export const GenerateTestCasesSchema = msg('generate_test_cases', GenerateTestCasesDataSchema);
export const CommandGenerateTestCasesSchema = msg(
  'command_generate_test_cases',
  CommandGenerateTestCasesDataSchema,
);
export const RunAllTestsSchema = msg('run_all_tests', RunAllTestsDataSchema);
export const RunSingleTestSchema = msg('run_single_test', RunSingleTestDataSchema);
export const StopExecutionSchema = msg('stop_execution', StopExecutionDataSchema);
export const CleanupSessionSchema = msg('cleanup_session', CleanupSessionDataSchema);
export const StartConversationSchema = msg('start_conversation', StartConversationDataSchema);
export const ConversationMessageSchema = msg('conversation_message', ConversationMessageDataSchema);
export const StopConversationSchema = msg('stop_conversation', StopConversationDataSchema);
/** Takeover of the live browser (not in the spec): see BrowserInputDataSchema. */
export const BrowserInputSchema = msg('browser_input', BrowserInputDataSchema);
/** A run's live video on request (not in the spec): see AutomationVideoDataSchema. */
export const AutomationVideoSchema = msg('automation_video', AutomationVideoDataSchema);
export const CleanupOrphanedSessionsSchema = msg(
  'cleanup_orphaned_sessions',
  CleanupOrphanedSessionsDataSchema,
);
export const FigmaWebsiteComparisonSchema = msg('figma_website_comparison', FigmaWebsiteComparisonDataSchema);
export const UploadAndCompareImageSchema = msg('upload_and_compare_image', UploadAndCompareImageDataSchema);
/** Whether work is under way, after a reload or in a second tab (not in the spec): see GetAutomationStatusDataSchema. */
export const GetAutomationStatusSchema = msg('get_automation_status', GetAutomationStatusDataSchema);
export const StopComparisonSchema = msg('stop_comparison', StopComparisonDataSchema);
export const GetFigmaHelpSchema = msg('get_figma_help', GetFigmaHelpDataSchema);

/**
 * `POST /cleanup`, the page-unload beacon (docs/PRODUCT.md#stopping-a-conversation): a `stop_conversation` or `cleanup_session`
 * message with the user's token beside it, since a beacon cannot set headers (docs/ARCHITECTURE.md#departures-from-the-spec-and-why).
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
  BrowserInputSchema,
  AutomationVideoSchema,
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

/** The feature each client message belongs to: an error answering it says so. */
export const CLIENT_MESSAGE_FEATURE: Record<ClientMessageType, Feature> = {
  auth: 'connection',
  generate_test_cases: 'automation',
  command_generate_test_cases: 'automation',
  run_all_tests: 'automation',
  run_single_test: 'automation',
  stop_execution: 'automation',
  cleanup_session: 'automation',
  get_automation_status: 'automation',
  start_conversation: 'conversational',
  conversation_message: 'conversational',
  stop_conversation: 'conversational',
  cleanup_orphaned_sessions: 'conversational',
  browser_input: 'conversational',
  automation_video: 'automation',
  figma_website_comparison: 'design',
  upload_and_compare_image: 'design',
  stop_comparison: 'design',
  get_figma_help: 'design',
};

/** The session a client message names, or null. */
export function sessionIdOf(message: ClientMessage): string | null {
  const data = message.data as { session_id?: string | null };
  return data.session_id || null;
}

/**
 * What can be told of a frame that did not parse, to address the error about it: its feature (from a
 * known `type`, else `connection`), the `session_id` in its data and its `request_id`, where present
 * and plausible.
 */
export function describeClientFrame(raw: string): {
  /** The message's type, when it names one a client may send. */
  type?: ClientMessageType;
  feature: Feature;
  session_id: string | null;
  request_id?: string;
} {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { feature: 'connection', session_id: null };
  }
  const frame = (json && typeof json === 'object' ? json : {}) as {
    type?: unknown;
    data?: unknown;
    request_id?: unknown;
  };
  const type = typeof frame.type === 'string' ? frame.type : '';
  const feature = Object.hasOwn(CLIENT_MESSAGE_FEATURE, type)
    ? CLIENT_MESSAGE_FEATURE[type as ClientMessageType]
    : 'connection';
  const data = (frame.data && typeof frame.data === 'object' ? frame.data : {}) as { session_id?: unknown };
  const session = SessionIdSchema.min(1).safeParse(data.session_id);
  const request = RequestIdSchema.safeParse(frame.request_id);
  return {
    ...(Object.hasOwn(CLIENT_MESSAGE_FEATURE, type) ? { type: type as ClientMessageType } : {}),
    feature,
    session_id: session.success ? session.data : null,
    ...(request.success ? { request_id: request.data } : {}),
  };
}

// ---- server → client -------------------------------------------------------------------------

/** A server message: `session_id` beside `type` and `data`, and the `request_id` it answers, if any. */
const serverMsg = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({
    type: z.literal(type),
    /** The session the message concerns; null when it concerns none. */
    session_id: z.string().nullable(),
    /** The `request_id` of the client message this one answers, when that message carried one. */
    request_id: RequestIdSchema.optional(),
    data,
  });

/**
 * A socket `error`: the text to show, its code from the catalogue (`ERRORS`; the server always sends
 * one), and the feature it belongs to, so that only that feature's screen (for that session) fails.
 */
export const SocketErrorSchema = z.object({
  message: z.string(),
  code: ErrorCodeSchema.optional(),
  feature: FeatureSchema,
});
export type SocketError = z.infer<typeof SocketErrorSchema>;

/**
 * `automation_queued`: a generation or run waits its turn (its organization's ORG_MAX_CONCURRENT_RUNS
 * or the server's browsers are all in use) and is never refused; sent when it enters the line and
 * each time its place changes. `ahead`: how many start before it. It starts with `generation_started`
 * or `execution_started` as usual.
 */
export const AutomationQueuedDataSchema = z.object({
  kind: z.enum(['generating', 'running']),
  ahead: z.number().int().min(0),
  /** The run's row when it has one already (a saved suite's run). */
  test_run_id: z.string().nullable().optional(),
});
export type AutomationQueuedData = z.infer<typeof AutomationQueuedDataSchema>;

export const ServerMessageSchema = z.discriminatedUnion('type', [
  /** Sent once a socket is authenticated. Not in the spec: lets a client know it may send. */
  serverMsg(
    'connection_established',
    z.object({
      user_id: z.string(),
      server_time: TimestampSchema,
      /** PROTOCOL_VERSION of the server: a client of another version asks the user to reload. */
      protocol_version: z.number().int().positive(),
    }),
  ),
  // automation
  serverMsg('generation_started', GenerationStartedDataSchema),
  serverMsg('progress_update', ProgressUpdateDataSchema),
  serverMsg('test_cases_generated', TestCasesGeneratedDataSchema),
  serverMsg('execution_started', ExecutionStartedDataSchema),
  serverMsg('execution_stopping', ExecutionStoppingDataSchema),
  /** Not in the spec: the answer to get_automation_status when something is under way. */
  serverMsg('automation_in_progress', AutomationInProgressSchema),
  /** Not in the spec: the work waits its turn, `ahead` start before it (docs/CI.md#runs-wait-their-turn). */
  serverMsg('automation_queued', AutomationQueuedDataSchema),
  serverMsg('test_progress', TestProgressDataSchema),
  serverMsg('step_update', StepUpdateDataSchema),
  serverMsg('test_completed', TestCompletedDataSchema),
  serverMsg('test_failed', TestFailedDataSchema),
  serverMsg('all_tests_completed', AllTestsCompletedDataSchema),
  serverMsg('execution_stopped', ExecutionStoppedDataSchema),
  serverMsg('error', SocketErrorSchema),
  /**
   * A live browser's frame: always about one session (the conversational screen's, or the automation
   * session whose run streams). It stays here, beside the envelope, since both features send it.
   */
  serverMsg(
    'video_frame',
    z.object({ frame: z.string(), timestamp: z.union([TimestampSchema, z.number()]) }),
  ).extend({ session_id: z.string() }),
  // conversational
  serverMsg('conversation_response', ConversationResponseDataSchema),
  serverMsg('browser_action', BrowserActionDataSchema),
  serverMsg('browser_status', BrowserStatusDataSchema),
  serverMsg('conversation_stopped', ConversationStoppedDataSchema),
  // design comparison
  serverMsg('figma_permission_error', FigmaPermissionErrorDataSchema),
  serverMsg('vision_comparison_progress', VisionComparisonProgressDataSchema),
  serverMsg('vision_comparison_completed', VisionComparisonCompletedDataSchema),
  serverMsg('vision_comparison_error', VisionComparisonErrorDataSchema),
  serverMsg('upload_completed', UploadCompletedDataSchema),
  serverMsg('figma_sharing_instructions', FigmaSharingInstructionsDataSchema),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
export type ServerMessageInput = z.input<typeof ServerMessageSchema>;
export type ServerMessageType = ServerMessage['type'];
export type ServerMessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;
export const SERVER_MESSAGE_TYPES = ServerMessageSchema.options.map((o) => o.shape.type.value);

/** The feature each server message belongs to (an `error` says its own). */
export const SERVER_MESSAGE_FEATURE: Record<Exclude<ServerMessageType, 'error'>, Feature> = {
  connection_established: 'connection',
  generation_started: 'automation',
  progress_update: 'automation',
  test_cases_generated: 'automation',
  execution_started: 'automation',
  execution_stopping: 'automation',
  automation_in_progress: 'automation',
  automation_queued: 'automation',
  test_progress: 'automation',
  step_update: 'automation',
  test_completed: 'automation',
  test_failed: 'automation',
  all_tests_completed: 'automation',
  execution_stopped: 'automation',
  video_frame: 'conversational',
  conversation_response: 'conversational',
  browser_action: 'conversational',
  browser_status: 'conversational',
  conversation_stopped: 'conversational',
  figma_permission_error: 'design',
  vision_comparison_progress: 'design',
  vision_comparison_completed: 'design',
  vision_comparison_error: 'design',
  upload_completed: 'design',
  figma_sharing_instructions: 'design',
};

/** Which feature's screen a server message is for. */
export function featureOf(message: Pick<ServerMessage, 'type' | 'data'>): Feature {
  if (message.type === 'error') return (message.data as SocketError).feature;
  return SERVER_MESSAGE_FEATURE[message.type];
}

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
  const read = readServerMessage(raw);
  return read.ok ? read.message : null;
}

/**
 * Parses a server frame; on failure says why, and what it could still tell: its `type` and, for a
 * `connection_established` the client cannot read, the server's protocol version.
 */
export function readServerMessage(
  raw: string,
):
  | { ok: true; message: ServerMessage }
  | { ok: false; reason: string; type: string | null; protocolVersion: number | null } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'Message is not valid JSON', type: null, protocolVersion: null };
  }
  const parsed = ServerMessageSchema.safeParse(json);
  if (parsed.success) return { ok: true, message: parsed.data };
  const frame = (json && typeof json === 'object' ? json : {}) as { type?: unknown; data?: unknown };
  const type = typeof frame.type === 'string' ? frame.type : null;
  const version =
    type === 'connection_established' && frame.data && typeof frame.data === 'object'
      ? (frame.data as { protocol_version?: unknown }).protocol_version
      : undefined;
  const first = parsed.error.issues[0];
  const where = first?.path.length ? ` at ${first.path.join('.')}` : '';
  return {
    ok: false,
    reason: `Invalid message${where}: ${first?.message ?? 'unknown error'}`,
    type,
    // A server that does not say its version speaks version 1.
    protocolVersion: type !== 'connection_established' ? null : typeof version === 'number' ? version : 1,
  };
}
