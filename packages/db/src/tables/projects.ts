import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  type PgColumn,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns';
import { orgOwnerId } from './organizations';

// 0008_projects, 0011_history. A project's child rows carry its owner in a (project_id, user_id) key to
// the project, so no row can name one owner's project and carry another owner's id.

/** ProjectLoginSchema's shape as stored (the column is checked by the schema before every write). */
export type ProjectLoginRow =
  | { mode: 'none' }
  | {
      mode: 'credentials';
      login_url: string;
      username_variable: string;
      password_secret: string;
      totp_secret?: string | null;
    }
  | { mode: 'steps'; steps: string[] };

export const projects = pgTable(
  'projects',
  {
    id: id(),
    user_id: orgOwnerId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind').notNull().default('web'),
    login: jsonb('login').$type<ProjectLoginRow>().notNull().default({ mode: 'none' }),
    ...timestamps(),
  },
  (t) => [
    unique().on(t.id, t.user_id),
    index('projects_user_updated_idx').on(t.user_id, t.updated_at.desc().nullsFirst()),
  ],
);

/** The project a child row belongs to, and its owner's id with it; deleting the project deletes the row. */
const ofProject = (t: { project_id: PgColumn; user_id: PgColumn }) =>
  foreignKey({
    columns: [t.project_id, t.user_id],
    foreignColumns: [projects.id, projects.user_id],
  }).onDelete('cascade');

export const environments = pgTable(
  'environments',
  {
    id: id(),
    project_id: uuid('project_id').notNull(),
    user_id: uuid('user_id').notNull(),
    name: text('name').notNull(),
    base_url: text('base_url').notNull(),
    is_default: boolean('is_default').notNull().default(false),
    created_at: createdAt(),
  },
  (t) => [
    ofProject(t),
    unique().on(t.id, t.project_id),
    uniqueIndex('environments_project_name_key').on(t.project_id, sql`lower(${t.name})`),
    uniqueIndex('environments_project_default_key').on(t.project_id).where(sql`${t.is_default}`),
  ],
);

export const projectVariables = pgTable(
  'project_variables',
  {
    id: id(),
    project_id: uuid('project_id').notNull(),
    user_id: uuid('user_id').notNull(),
    environment_id: uuid('environment_id'),
    name: text('name').notNull(),
    secret: boolean('secret').notNull().default(false),
    value: text('value'),
    value_enc: text('value_enc'),
    updated_at: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    ofProject(t),
    foreignKey({
      columns: [t.environment_id, t.project_id],
      foreignColumns: [environments.id, environments.project_id],
    }).onDelete('cascade'),
    check(
      'project_variables_check',
      sql`(${t.secret} AND ${t.value} IS NULL AND ${t.value_enc} IS NOT NULL)
        OR (NOT ${t.secret} AND ${t.value} IS NOT NULL AND ${t.value_enc} IS NULL)`,
    ),
    uniqueIndex('project_variables_scope_name_key').on(
      t.project_id,
      sql`coalesce(${t.environment_id}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      t.name,
    ),
  ],
);

export const savedSuites = pgTable(
  'saved_suites',
  {
    id: id(),
    project_id: uuid('project_id').notNull(),
    user_id: uuid('user_id').notNull(),
    name: text('name').notNull(),
    version: integer('version').notNull().default(1),
    test_cases: jsonb('test_cases').$type<unknown[]>().notNull().default([]),
    // Retries per case (0011_history.sql).
    retries: integer('retries').notNull().default(0),
    // TRACE_POLICIES and failed cases' video (0018_case_diagnostics.sql).
    trace_policy: text('trace_policy').notNull().default('on-failure'),
    record_video: boolean('record_video').notNull().default(false),
    // A visual check at the end of every case's run (0022_suite_visual_each_case.sql).
    visual_each_case: boolean('visual_each_case').notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    ofProject(t),
    uniqueIndex('saved_suites_project_name_key').on(t.project_id, sql`lower(${t.name})`),
    check('saved_suites_trace_policy_check', sql`${t.trace_policy} IN ('on-failure', 'always', 'off')`),
  ],
);

export const savedSuiteVersions = pgTable(
  'saved_suite_versions',
  {
    suite_id: uuid('suite_id')
      .notNull()
      .references(() => savedSuites.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    test_cases: jsonb('test_cases').$type<unknown[]>().notNull(),
    saved_by: text('saved_by').notNull(),
    change: text('change').notNull(),
    saved_at: at('saved_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.suite_id, t.version] })],
);

export type ProjectRow = typeof projects.$inferSelect;
export type EnvironmentRow = typeof environments.$inferSelect;
export type ProjectVariableRow = typeof projectVariables.$inferSelect;
export type SavedSuiteRow = typeof savedSuites.$inferSelect;
export type SavedSuiteVersionRow = typeof savedSuiteVersions.$inferSelect;
