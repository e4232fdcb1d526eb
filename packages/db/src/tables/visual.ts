import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns';
import { orgOwnerId } from './organizations';
import { environments, projects } from './projects';
import { testRuns } from './runs';

// 0021_visual_checks: approved baselines of visual checks, kept per key (project, environment, branch,
// case, check, viewport, browser) as a history whose newest row is compared with, and each run's checks.

/** A box masked out of a comparison, in the capture's coordinates. */
export interface VisualMaskRow {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A mask named by what it covers: the elements with this text, or of this role (both: both). */
export interface VisualElementMaskRow {
  text?: string;
  role?: string;
}

export const visualBaselines = pgTable(
  'visual_baselines',
  {
    id: id(),
    user_id: orgOwnerId(),
    project_id: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    environment_id: uuid('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    branch: text('branch').notNull().default(''),
    case_name: text('case_name').notNull(),
    check_name: text('check_name').notNull(),
    viewport_width: integer('viewport_width').notNull(),
    viewport_height: integer('viewport_height').notNull(),
    browser: text('browser').notNull(),
    sha256: text('sha256').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull().default(0),
    moving_masks: jsonb('moving_masks').$type<VisualMaskRow[]>().notNull().default([]),
    user_masks: jsonb('user_masks').$type<VisualMaskRow[]>().notNull().default([]),
    element_masks: jsonb('element_masks').$type<VisualElementMaskRow[]>().notNull().default([]),
    threshold: doublePrecision('threshold').notNull().default(0),
    approved_by: text('approved_by').notNull(),
    source_run_id: uuid('source_run_id').references(() => testRuns.id, { onDelete: 'set null' }),
    copied_from: uuid('copied_from').references((): AnyPgColumn => visualBaselines.id, {
      onDelete: 'set null',
    }),
    created_at: createdAt(),
  },
  (t) => [
    index('visual_baselines_key_idx').on(
      t.project_id,
      t.environment_id,
      t.branch,
      t.case_name,
      t.check_name,
      t.viewport_width,
      t.viewport_height,
      t.browser,
      t.created_at.desc().nullsFirst(),
    ),
    index('visual_baselines_user_idx').on(t.user_id),
    index('visual_baselines_environment_idx').on(t.environment_id),
    index('visual_baselines_run_idx').on(t.source_run_id).where(sql`${t.source_run_id} IS NOT NULL`),
    index('visual_baselines_copied_idx').on(t.copied_from).where(sql`${t.copied_from} IS NOT NULL`),
    index('visual_baselines_sha_idx').on(t.sha256),
  ],
);

export const visualChecks = pgTable(
  'visual_checks',
  {
    id: id(),
    user_id: orgOwnerId(),
    test_run_id: uuid('test_run_id')
      .notNull()
      .references(() => testRuns.id, { onDelete: 'cascade' }),
    // No foreign keys: the key is kept after its environment or project goes, like the run's ids.
    project_id: uuid('project_id').notNull(),
    environment_id: uuid('environment_id').notNull(),
    branch: text('branch').notNull().default(''),
    case_name: text('case_name').notNull(),
    check_name: text('check_name').notNull(),
    viewport_width: integer('viewport_width').notNull(),
    viewport_height: integer('viewport_height').notNull(),
    browser: text('browser').notNull(),
    case_index: integer('case_index').notNull().default(0),
    region: text('region'),
    step_index: integer('step_index').notNull(),
    status: text('status').notNull(),
    issues: jsonb('issues').$type<unknown[]>().notNull().default([]),
    message: text('message').notNull(),
    sha256: text('sha256').notNull(),
    diff_sha256: text('diff_sha256'),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull().default(0),
    diff_bytes: integer('diff_bytes').notNull().default(0),
    moving_masks: jsonb('moving_masks').$type<VisualMaskRow[]>().notNull().default([]),
    url: text('url').notNull().default(''),
    baseline_id: uuid('baseline_id').references(() => visualBaselines.id, { onDelete: 'set null' }),
    review: text('review').notNull(),
    decided_by: text('decided_by'),
    decided_at: at('decided_at'),
    decision_reason: text('decision_reason'),
    made_baseline_id: uuid('made_baseline_id').references(() => visualBaselines.id, { onDelete: 'set null' }),
    created_at: createdAt(),
  },
  (t) => [
    index('visual_checks_run_idx').on(t.test_run_id, t.created_at),
    index('visual_checks_user_idx').on(t.user_id),
    index('visual_checks_baseline_idx').on(t.baseline_id).where(sql`${t.baseline_id} IS NOT NULL`),
    index('visual_checks_made_idx').on(t.made_baseline_id).where(sql`${t.made_baseline_id} IS NOT NULL`),
    index('visual_checks_sha_idx').on(t.sha256),
    index('visual_checks_diff_sha_idx').on(t.diff_sha256).where(sql`${t.diff_sha256} IS NOT NULL`),
    check('visual_checks_status_check', sql`${t.status} IN ('same', 'changed', 'new')`),
    check('visual_checks_review_check', sql`${t.review} IN ('none', 'pending', 'approved', 'rejected')`),
  ],
);

/** An approved capture of a visual check under its key; the key's newest row is the one compared with. */
export type VisualBaselineRow = typeof visualBaselines.$inferSelect;
/** A run's visual check: its capture, verdict and review. */
export type VisualCheckRow = typeof visualChecks.$inferSelect;
