import { z } from 'zod';
import { TestCaseSchema } from './automation';
import { HttpUrlOrEmptySchema, TimestampSchema } from './common';

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
