import { z } from 'zod';
import { HttpUrlOrEmptySchema, JsonObjectSchema } from './common';

/** The design screen stores its sessions as 'figma-comparison' (docs/PRODUCT.md#sessions). */
export const SessionTypeSchema = z.enum(['conversational', 'automation', 'figma-comparison']);
export type SessionType = z.infer<typeof SessionTypeSchema>;

/**
 * docs/PRODUCT.md#sessions: a session the server could not create lives in the browser only, its id prefixed `local_`.
 * Such an id names no server session (server ids are UUIDs), so it can never be another user's; the
 * server accepts it on a run as the client's label and checks every other session id for ownership.
 */
export const LOCAL_SESSION_ID_PREFIX = 'local_';

export function isLocalSessionId(id: string): boolean {
  return id.startsWith(LOCAL_SESSION_ID_PREFIX);
}

export const SESSION_STATUSES = ['ACTIVE', 'CLOSED', 'CANCELLED', 'COMPLETED', 'ERROR'] as const;
/** Server-side status: upper case (docs/PRODUCT.md#sessions). Input in any case is accepted and normalised. */
export const SessionStatusSchema = z
  .string()
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(SESSION_STATUSES));
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export type ClientSessionStatus = Lowercase<SessionStatus>;

const TitleSchema = z.string().trim().min(1, 'Title is required').max(500);
const DescriptionSchema = z.string().max(20_000).nullable();
/**
 * A session's URL as a client sends it: an absolute http(s) URL, or null or empty when the session has
 * none yet (docs/PRODUCT.md#sessions: the conversational screen's URL may be left empty).
 */
const SessionUrlSchema = HttpUrlOrEmptySchema.nullable();

export const SessionCreateSchema = z.object({
  title: TitleSchema,
  session_type: SessionTypeSchema,
  description: DescriptionSchema.optional(),
  url: SessionUrlSchema.optional(),
  status: SessionStatusSchema.optional(),
  settings: JsonObjectSchema.optional(),
});
export type SessionCreate = z.input<typeof SessionCreateSchema>;

export const SessionUpdateSchema = SessionCreateSchema.partial();
export type SessionUpdate = z.input<typeof SessionUpdateSchema>;

/** A session as the server answers it; `url` is not checked here, so a row stored before the URL rule still loads. */
export const SessionSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  session_type: SessionTypeSchema,
  title: z.string(),
  url: z.string().nullable(),
  status: z.enum(SESSION_STATUSES),
  description: z.string().nullable(),
  settings: JsonObjectSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Session = z.infer<typeof SessionSchema>;

export const SessionListQuerySchema = z.object({
  session_type: SessionTypeSchema.optional(),
  status: SessionStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export type SessionListQuery = z.input<typeof SessionListQuerySchema>;
