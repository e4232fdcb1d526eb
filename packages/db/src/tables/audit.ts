import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

// 0017_audit_log (docs/ORGANIZATIONS.md#audit-log). No foreign keys: a row outlives what it names.
// `DESC` in SQL sorts nulls first, which Drizzle spells out (`nullsFirst`).
// The migration also makes UPDATE and TRUNCATE raise (a trigger, which Drizzle does not declare).

/** Who did what in an organization, when and from where: append-only. */
export const auditLog = pgTable(
  'audit_log',
  {
    // Ever increasing: the list's order and keyset.
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    org_id: uuid('org_id'),
    actor: uuid('actor'),
    actor_label: text('actor_label').notNull(),
    action: text('action').notNull(),
    project_id: uuid('project_id'),
    target: text('target'),
    detail: jsonb('detail')
      .$type<Record<string, string | number | boolean | null>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: createdAt(),
  },
  (t) => [
    index('audit_log_org_idx').on(t.org_id, t.id.desc().nullsFirst()),
    index('audit_log_actor_idx').on(t.org_id, t.actor, t.id.desc().nullsFirst()),
    index('audit_log_action_idx').on(t.org_id, t.action, t.id.desc().nullsFirst()),
    index('audit_log_project_idx')
      .on(t.org_id, t.project_id, t.id.desc().nullsFirst())
      .where(sql`${t.project_id} IS NOT NULL`),
    index('audit_log_created_idx').on(t.org_id, t.created_at),
    index('audit_log_retention_idx').on(t.created_at),
  ],
);

export type AuditLogRow = typeof auditLog.$inferSelect;
