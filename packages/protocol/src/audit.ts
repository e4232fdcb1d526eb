import { z } from 'zod';

// The audit log (docs/ORGANIZATIONS.md#audit-log): an append-only record of who did what in an
// organization, when and from where. Shapes shared by the server's recorder and routes and the web's
// Audit screen.

/**
 * What a row records: the one vocabulary, declared here only. Adding an action is adding it here
 * (the database stores the text, so older rows keep reading after a rename is avoided: never rename).
 */
export const AUDIT_ACTIONS = [
  // Accounts
  'sign_in',
  'sign_in_failed',
  'password_changed',
  // Organizations (recorded by the organizations code through the same recorder)
  'organization_changed',
  'ownership_transferred',
  'member_added',
  'member_role_changed',
  'member_removed',
  'invitation_created',
  'invitation_revoked',
  'invitation_accepted',
  'sso_changed',
  // API tokens
  'token_created',
  'token_revoked',
  // Projects and what they hold (a secret by its name only, never its value)
  'project_created',
  'project_changed',
  'project_deleted',
  'login_changed',
  'environment_changed',
  'variable_set',
  'variable_deleted',
  'secret_set',
  'secret_deleted',
  'suite_saved',
  'suite_deleted',
  'repair_rejected',
  // Visual checks' baselines (docs/VISUAL-CHECKS.md): who approved, rejected, restored, promoted or
  // imported them
  'visual_approved',
  'visual_rejected',
  'visual_restored',
  'visual_promoted',
  'visual_imported',
  'schedule_changed',
  'webhook_changed',
  // Data leaving the server
  'export_downloaded',
] as const;
export const AuditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditActionSchema>;

/** A row's `detail`: a few small facts (never a secret's value), at most this many bytes as JSON. */
export const AUDIT_DETAIL_MAX_BYTES = 2000;
export const AuditDetailSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);
export type AuditDetail = z.infer<typeof AuditDetailSchema>;

const Id = z.string().max(100);
/** A day or an instant (ISO 8601): `2026-11-01` or `2026-11-01T08:00:00Z`. */
const DateParam = z.iso.date().or(z.iso.datetime({ offset: true }));

/** The filters of `GET /api/audit` and its export. */
export const AuditFilterSchema = z.object({
  /** The person who acted (a user id). */
  actor: Id.optional(),
  action: AuditActionSchema.optional(),
  project_id: Id.optional(),
  /** Inclusive; a bare date is that day's start (UTC). */
  from: DateParam.optional(),
  /** Exclusive for an instant; a bare date includes that whole day (UTC). */
  to: DateParam.optional(),
});

/** `GET /api/audit`: newest first, a page at a time after `cursor`. */
export const AuditQuerySchema = AuditFilterSchema.extend({
  /** The `next_cursor` of the page before. */
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.input<typeof AuditQuerySchema>;

export const AUDIT_EXPORT_FORMATS = ['csv', 'json'] as const;
/** `GET /api/audit/export`: every row the filters pick, newest first. */
export const AuditExportQuerySchema = AuditFilterSchema.extend({
  format: z.enum(AUDIT_EXPORT_FORMATS).default('csv'),
});
export type AuditExportQuery = z.input<typeof AuditExportQuerySchema>;

/** One row of the audit log. */
export const AuditEntrySchema = z.object({
  id: z.string(),
  created_at: z.string(),
  /** The user who acted; null for a failed sign-in of an unknown name or a service token. */
  actor: z.string().nullable(),
  /** Their name (and email) as they were then. */
  actor_label: z.string(),
  action: AuditActionSchema,
  project_id: z.string().nullable(),
  /** What it acted on, by name (a suite's, a secret's, a token's). */
  target: z.string().nullable(),
  detail: AuditDetailSchema,
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditPageSchema = z.object({
  items: z.array(AuditEntrySchema),
  /** Pass as `cursor` for the next page; null on the last. */
  next_cursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

/** The export's columns, in order (CSV header and JSON keys alike). */
export const AUDIT_EXPORT_COLUMNS = [
  'created_at',
  'actor',
  'actor_label',
  'action',
  'project_id',
  'target',
  'detail',
  'ip',
  'user_agent',
  'id',
] as const;
