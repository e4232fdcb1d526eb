import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { orgOwnerId } from './organizations';
import { savedSuites } from './projects';

// 0020_suite_comparisons (regenerate and compare, docs/REPAIRS.md).

/** A generation's cases matched to a saved suite's by behaviour, kept for review. */
export const suiteComparisons = pgTable(
  'suite_comparisons',
  {
    id: id(),
    user_id: orgOwnerId(),
    project_id: uuid('project_id').notNull(),
    suite_id: uuid('suite_id')
      .notNull()
      .references(() => savedSuites.id, { onDelete: 'cascade' }),
    suite_version: integer('suite_version').notNull(),
    environment_id: uuid('environment_id').notNull(),
    engine: text('engine').notNull(),
    changes: jsonb('changes').$type<unknown[]>().notNull().default([]),
    created_by: text('created_by').notNull(),
    created_at: createdAt(),
    accepted_version: integer('accepted_version'),
  },
  (t) => [
    index('suite_comparisons_suite_idx').on(t.suite_id, t.created_at.desc().nullsFirst()),
    index('suite_comparisons_user_idx').on(t.user_id),
  ],
);

export type SuiteComparisonRow = typeof suiteComparisons.$inferSelect;
