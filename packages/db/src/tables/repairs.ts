import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns';
import { orgOwnerId } from './organizations';
import { savedSuites } from './projects';
import { screenshots, testRuns } from './runs';

// 0019_repairs: a failed case's repair verdict (docs/REPAIRS.md), going with its run and its suite.

export const caseRepairs = pgTable(
  'case_repairs',
  {
    id: id(),
    user_id: orgOwnerId(),
    test_run_id: uuid('test_run_id')
      .notNull()
      .references(() => testRuns.id, { onDelete: 'cascade' }),
    project_id: uuid('project_id').notNull(),
    suite_id: uuid('suite_id')
      .notNull()
      .references(() => savedSuites.id, { onDelete: 'cascade' }),
    suite_version: integer('suite_version').notNull(),
    case_name: text('case_name').notNull(),
    case_index: integer('case_index').notNull(),
    result_id: uuid('result_id'),
    verdict: text('verdict').notNull(),
    status: text('status').notNull(),
    step_index: integer('step_index'),
    steps_before: jsonb('steps_before').$type<string[]>().notNull().default([]),
    steps_after: jsonb('steps_after').$type<string[]>().notNull().default([]),
    diff: jsonb('diff').$type<unknown[]>().notNull().default([]),
    weakenings: jsonb('weakenings').$type<unknown[]>().notNull().default([]),
    evidence: jsonb('evidence').$type<Record<string, unknown>>().notNull(),
    page_state: text('page_state'),
    before_screenshot_id: uuid('before_screenshot_id').references(() => screenshots.id, {
      onDelete: 'set null',
    }),
    after_screenshot_id: uuid('after_screenshot_id').references(() => screenshots.id, {
      onDelete: 'set null',
    }),
    created_at: createdAt(),
    decided_by: text('decided_by'),
    decided_at: at('decided_at'),
    decision_reason: text('decision_reason'),
    saved_version: integer('saved_version'),
  },
  (t) => [
    index('case_repairs_run_idx').on(t.test_run_id, t.case_index),
    index('case_repairs_suite_idx').on(t.suite_id, t.case_name, t.created_at.desc().nullsFirst()),
    index('case_repairs_before_shot_idx')
      .on(t.before_screenshot_id)
      .where(sql`${t.before_screenshot_id} IS NOT NULL`),
    index('case_repairs_after_shot_idx')
      .on(t.after_screenshot_id)
      .where(sql`${t.after_screenshot_id} IS NOT NULL`),
    index('case_repairs_user_idx').on(t.user_id),
    check('case_repairs_verdict_check', sql`${t.verdict} IN ('repair', 'weakens', 'bug')`),
    check(
      'case_repairs_status_check',
      sql`${t.status} IN ('proposed', 'approved', 'rejected', 'superseded', 'none')`,
    ),
  ],
);

/** A failed case's repair verdict (docs/REPAIRS.md). */
export type CaseRepairRow = typeof caseRepairs.$inferSelect;
