import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at, id, timestamps } from './columns';
import { orgOwnerId } from './organizations';
import { environments, projects, savedSuites } from './projects';
import { testRuns } from './runs';

// 0010_schedules_webhooks (docs/SCHEDULES.md), 0013_cascade_indexes.

const projectId = () =>
  uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' });

/** Schedules of saved suites. */
export const schedules = pgTable(
  'schedules',
  {
    id: id(),
    user_id: orgOwnerId(),
    project_id: projectId(),
    suite_id: uuid('suite_id')
      .notNull()
      .references(() => savedSuites.id, { onDelete: 'cascade' }),
    environment_id: uuid('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    cron: text('cron').notNull(),
    timezone: text('timezone').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    next_run_at: at('next_run_at'),
    retry_at: at('retry_at'),
    retry_until: at('retry_until'),
    last_run_at: at('last_run_at'),
    last_run_id: uuid('last_run_id').references(() => testRuns.id, { onDelete: 'set null' }),
    last_outcome: text('last_outcome'),
    last_message: text('last_message'),
    ...timestamps(),
  },
  (t) => [
    index('schedules_project_idx').on(t.user_id, t.project_id, t.created_at),
    index('schedules_due_idx').on(t.next_run_at).where(sql`${t.enabled}`),
    index('schedules_retry_idx').on(t.retry_at).where(sql`${t.retry_at} IS NOT NULL`),
    // Deleting a run sets last_run_id to NULL (0013_cascade_indexes.sql).
    index('schedules_last_run_idx').on(t.last_run_id).where(sql`${t.last_run_id} IS NOT NULL`),
  ],
);

/** A project's webhooks: the signing secret is stored encrypted. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: id(),
    user_id: orgOwnerId(),
    project_id: projectId(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    format: text('format').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    secret_enc: text('secret_enc').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    ...timestamps(),
  },
  (t) => [index('webhooks_project_idx').on(t.user_id, t.project_id, t.created_at)],
);

/** Each notification to a webhook and where its attempts stand. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    webhook_id: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    user_id: orgOwnerId(),
    project_id: projectId(),
    test_run_id: uuid('test_run_id').references(() => testRuns.id, { onDelete: 'set null' }),
    event: text('event').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    response_code: integer('response_code'),
    last_error: text('last_error'),
    next_attempt_at: at('next_attempt_at'),
    delivered_at: at('delivered_at'),
    ...timestamps(),
  },
  (t) => [
    index('webhook_deliveries_project_idx').on(t.user_id, t.project_id, t.created_at.desc().nullsFirst()),
    index('webhook_deliveries_due_idx')
      .on(t.next_attempt_at)
      .where(sql`${t.status} IN ('pending', 'delivering')`),
    // Deleting a run sets test_run_id to NULL (0013_cascade_indexes.sql).
    index('webhook_deliveries_run_idx').on(t.test_run_id).where(sql`${t.test_run_id} IS NOT NULL`),
  ],
);

export type ScheduleRow = typeof schedules.$inferSelect;
export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
