import {
  BrowserInputDataSchema,
  ConversationMessageDataSchema,
  SessionIdSchema,
  StartConversationDataSchema,
} from '@argus/protocol';
import { z } from 'zod';

// What travels through Redis for conversational mode (docs/DEPLOYMENT.md#conversations-on-workers),
// parsed by the worker before anything runs.

const id = z.string().max(100);

/** A live browser to open: the job lasts as long as the browser does. */
export const ConversationJobSchema = z.object({ user_id: id, data: StartConversationDataSchema });
export type ConversationJob = z.infer<typeof ConversationJobSchema>;

/** Requests from a web process to every worker; only the worker holding the user's live browser acts. */
export const ConversationControlSchema = z.discriminatedUnion('type', [
  /** A start for a session already live there (a reconnected tab): its status and latest frame again. */
  z.object({ type: z.literal('resume'), user_id: id, data: StartConversationDataSchema }),
  z.object({ type: z.literal('message'), user_id: id, data: ConversationMessageDataSchema }),
  z.object({ type: z.literal('input'), user_id: id, data: BrowserInputDataSchema }),
  z.object({ type: z.literal('stop'), user_id: id, session_id: SessionIdSchema.nullable() }),
  z.object({ type: z.literal('cleanup'), user_id: id }),
]);
export type ConversationControl = z.infer<typeof ConversationControlSchema>;
