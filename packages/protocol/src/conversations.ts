import { z } from 'zod';
import { TestCaseSchema } from './automation';
import { HttpUrlOrEmptySchema, SessionIdSchema, TimestampSchema } from './common';

/** Who said a message of a conversation. */
export const ConversationRoleSchema = z.enum(['user', 'assistant', 'system']);
export type ConversationRole = z.infer<typeof ConversationRoleSchema>;

/** One browser action a turn performed (what `browser_action` said), kept with the assistant's message. */
export const ConversationActionSchema = z.object({
  /** The step-language line performed (`Click link "Pricing"`), or the kind of action. */
  action: z.string().max(4000),
  message: z.string().max(4000).optional(),
  url: z.string().max(4000).optional(),
});
export type ConversationAction = z.infer<typeof ConversationActionSchema>;

export const ConversationMessageRecordSchema = z.object({
  id: z.string(),
  role: ConversationRoleSchema,
  content: z.string(),
  actions: z.array(ConversationActionSchema),
  created_at: TimestampSchema,
});
export type ConversationMessageRecord = z.infer<typeof ConversationMessageRecordSchema>;

export const ConversationSchema = z.object({
  id: z.string(),
  /** The conversational session it belongs to (sessions of type 'conversational'), if any. */
  session_id: z.string().nullable(),
  title: z.string(),
  url: z.string().nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  /** Present on `GET /api/conversations/{id}`, oldest first. */
  messages: z.array(ConversationMessageRecordSchema).optional(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

/** `POST /api/conversations`. */
export const ConversationCreateSchema = z.object({
  session_id: z.string().max(100).nullable().optional(),
  title: z.string().trim().min(1).max(500).default('Video Chat Session'),
  url: HttpUrlOrEmptySchema.nullable().optional(),
});
export type ConversationCreate = z.input<typeof ConversationCreateSchema>;

/** `POST /api/conversations/{id}/messages`. */
export const ConversationMessageCreateSchema = z.object({
  role: ConversationRoleSchema,
  content: z.string().trim().min(1).max(20_000),
  actions: z.array(ConversationActionSchema).max(200).default([]),
});
export type ConversationMessageCreate = z.input<typeof ConversationMessageCreateSchema>;

/**
 * `POST /api/conversations/{id}/test-case` ("Save as test"): the conversation's actions so far become
 * a test case in the step language, added to an automation session (a new one when none is named).
 */
export const SaveConversationTestSchema = z.object({
  test_name: z.string().trim().min(1).max(500).optional(),
  automation_session_id: z.string().max(100).nullable().optional(),
});
export const SaveConversationTestResponseSchema = z.object({
  test_case: TestCaseSchema,
  automation_session_id: z.string(),
});
export type SaveConversationTestResponse = z.infer<typeof SaveConversationTestResponseSchema>;

// ---- socket payloads: the `data` of the conversational messages (ws.ts wraps them in the envelope) ----

export const StartConversationDataSchema = z.object({
  session_id: SessionIdSchema,
  /** Empty or absent: the client's default start page (docs/PRODUCT.md#starting-a-conversation: a search engine's home page). */
  url: HttpUrlOrEmptySchema.optional(),
  video_streaming: z.boolean().default(true),
});
export const ConversationMessageDataSchema = z.object({
  message: z.string().trim().min(1).max(1000),
  session_id: SessionIdSchema,
  /** The page the live browser shows; empty or null before one has loaded. */
  current_url: HttpUrlOrEmptySchema.nullable().optional(),
});
export const StopConversationDataSchema = z.object({
  session_id: SessionIdSchema.nullable().optional(),
  reason: z.string().max(200).optional(),
  forced_cleanup: z.boolean().optional(),
  timestamp: TimestampSchema.optional(),
});
export const CleanupOrphanedSessionsDataSchema = z.object({
  user_id: z.string().max(100).optional(),
  timestamp: TimestampSchema.optional(),
});
/**
 * Takeover (not in the spec): an input event on the live video's canvas, in canvas pixels; the server
 * maps it to the page's viewport (`canvas` is the size the client drew the frame at) and sends it
 * through CDP, so a user can act by hand (sign in, solve a consent banner) and hand back to the chat.
 */
export const BrowserInputDataSchema = z.object({
  session_id: SessionIdSchema,
  canvas: z.object({ width: z.number().positive().max(10_000), height: z.number().positive().max(10_000) }),
  input: z.discriminatedUnion('type', [
    z.object({
      type: z.literal('pointer'),
      action: z.enum(['move', 'down', 'up', 'click']),
      x: z.number().finite(),
      y: z.number().finite(),
      button: z.enum(['left', 'middle', 'right']).default('left'),
    }),
    z.object({
      type: z.literal('wheel'),
      x: z.number().finite(),
      y: z.number().finite(),
      deltaX: z.number().finite().min(-10_000).max(10_000),
      deltaY: z.number().finite().min(-10_000).max(10_000),
    }),
    z.object({
      type: z.literal('key'),
      action: z.enum(['down', 'up', 'press']),
      /** `KeyboardEvent.key` (`a`, `Enter`, `ArrowDown`) or a chord (`Control+A`). */
      key: z.string().min(1).max(40),
    }),
  ]),
});

export const ConversationResponseDataSchema = z.object({
  message: z.string(),
  timestamp: TimestampSchema,
  actions: z.array(z.unknown()).optional(),
  video_streaming: z.boolean().optional(),
});
export const BrowserActionDataSchema = z.object({
  message: z.string().optional(),
  action: z.string(),
  url: z.string().optional(),
  screenshot: z.string().optional(),
  video_streaming: z.boolean().optional(),
});
export const BrowserStatusDataSchema = z.object({
  status: z.enum(['idle', 'loading', 'ready', 'stopping', 'stopped', 'error']),
  /** While loading: why it is taking long (its place in the line for a browser). */
  message: z.string().max(200).optional(),
});
export const ConversationStoppedDataSchema = z.object({ message: z.string(), timestamp: TimestampSchema });
