import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import {
  type EnvironmentRow,
  environments,
  type ProjectLoginRow,
  type ProjectRow,
  type ProjectVariableRow,
  projects,
  projectVariables,
  type SavedSuiteRow,
  savedSuites,
  savedSuiteVersions,
} from './schema';
import { isUuid } from './users';

// What `projects.edit` hands its work: the writes to one locked project and what it holds, one
// builder per kind of row (environments, variables, suites) over one transaction.

export type Transaction = Parameters<Parameters<Drizzle['transaction']>[0]>[0];

export interface NewEnvironment {
  name: string;
  base_url: string;
  is_default: boolean;
}

export interface ProjectPatch {
  name?: string;
  description?: string;
  login?: ProjectLoginRow;
}

/** A variable's value as stored: a secret has only its ciphertext, a plain variable only its value. */
export type VariableValue =
  | { secret: false; value: string; value_enc?: null }
  | { secret: true; value_enc: string; value?: null };

export type NewVariable = VariableValue & { environment_id: string | null; name: string };

/**
 * How a suite runs, not what it tests: its retries, its recording (0018_case_diagnostics.sql) and whether
 * every case ends with a visual check (0022_suite_visual_each_case.sql). Each undefined keeps the
 * suite's (a new suite: 0 retries, traces `on-failure`, no video, no visual check added).
 */
export interface SuiteRunSettings {
  /** Retries per failed case (docs/HISTORY.md#retries). */
  retries?: number;
  /** TRACE_POLICIES (docs/DIAGNOSTICS.md). */
  trace_policy?: string;
  /** Failed cases keep a video. */
  record_video?: boolean;
  /** Each case's run ends with `Verify the page looks as approved` (docs/VISUAL-CHECKS.md). */
  visual_each_case?: boolean;
}

export interface SuiteSave extends SuiteRunSettings {
  name: string;
  test_cases: unknown[];
  /** The saver's username, kept as text: the history reads the same after an account is renamed. */
  saved_by: string;
  change: string;
}

/**
 * What `edit` hands its work: one of the user's projects, its row locked until the work is done, and
 * the queries that change it and what it holds. Every change to a project's environments, variables
 * and suites goes through here, so checks made in the work (the default environment, a free name, a
 * suite's version) still hold when its writes land.
 */
export interface ProjectScope {
  readonly project: ProjectRow;
  /** Marks the project changed (the sidebar lists projects last changed first). */
  touch(): Promise<void>;
  update(patch: ProjectPatch): Promise<ProjectRow>;
  /** Oldest first. */
  environments(): Promise<EnvironmentRow[]>;
  /** Created after every environment the project has (the oldest is the default's successor). */
  addEnvironment(input: NewEnvironment): Promise<EnvironmentRow>;
  updateEnvironment(
    id: string,
    patch: { name?: string; base_url?: string },
  ): Promise<EnvironmentRow | undefined>;
  deleteEnvironment(id: string): Promise<boolean>;
  /** `id` becomes the project's only default. */
  makeDefault(id: string): Promise<void>;
  /** The value of `name` at one scope: an environment's, or the project's own (null). */
  variable(environmentId: string | null, name: string): Promise<ProjectVariableRow | undefined>;
  /** Inserts or replaces the value of (environment_id, name). */
  saveVariable(input: NewVariable): Promise<ProjectVariableRow>;
  deleteVariable(id: string): Promise<boolean>;
  suite(id: string): Promise<SavedSuiteRow | undefined>;
  /** The project's suite of that name, whatever its case. */
  suiteNamed(name: string): Promise<SavedSuiteRow | undefined>;
  /** A new suite at version 1, with its first version row. */
  createSuite(save: SuiteSave): Promise<SavedSuiteRow>;
  /** The suite's next version, with its version row; undefined when it is not the project's. */
  saveSuite(id: string, save: SuiteSave): Promise<SavedSuiteRow | undefined>;
  /**
   * Sets the suite's retries, recording and visual check after every case, and nothing else: no new
   * version (they say how the suite runs, not what it tests); undefined when it is not the project's.
   */
  setSuiteRunSettings(id: string, settings: SuiteRunSettings): Promise<SavedSuiteRow | undefined>;
  deleteSuite(id: string): Promise<boolean>;
}

/** Whose project, and which: every query of a scope carries both. */
export const ofProject = (userId: string, projectId: string) => ({
  environment: and(eq(environments.project_id, projectId), eq(environments.user_id, userId)) as SQL,
  variable: and(eq(projectVariables.project_id, projectId), eq(projectVariables.user_id, userId)) as SQL,
  suite: and(eq(savedSuites.project_id, projectId), eq(savedSuites.user_id, userId)) as SQL,
});

/** The project's environments, oldest first. */
export function environmentsOf(db: Drizzle | Transaction, userId: string, projectId: string) {
  return db
    .select()
    .from(environments)
    .where(ofProject(userId, projectId).environment)
    .orderBy(asc(environments.created_at), asc(environments.id));
}

/** One builder's view: the transaction, whose project, and the conditions that scope it. */
interface Scoped {
  tx: Transaction;
  userId: string;
  project: ProjectRow;
  where: ReturnType<typeof ofProject>;
}

/** `edit`'s scope on the user's `project`, locked by the caller for the length of `tx`. */
export function projectScope(tx: Transaction, userId: string, project: ProjectRow): ProjectScope {
  const scoped: Scoped = { tx, userId, project, where: ofProject(userId, project.id) };
  const owned = and(eq(projects.id, project.id), eq(projects.user_id, userId));
  return {
    project,
    async touch() {
      await tx.update(projects).set({ updated_at: new Date() }).where(owned);
    },
    async update(patch) {
      const [row] = await tx
        .update(projects)
        .set({ ...patch, updated_at: new Date() })
        .where(owned)
        .returning();
      return row;
    },
    ...environmentWrites(scoped),
    ...variableWrites(scoped),
    ...suiteWrites(scoped),
  };
}

type EnvironmentWrites = Pick<
  ProjectScope,
  'environments' | 'addEnvironment' | 'updateEnvironment' | 'deleteEnvironment' | 'makeDefault'
>;
function environmentWrites({ tx, userId, project, where }: Scoped): EnvironmentWrites {
  return {
    environments: () => environmentsOf(tx, userId, project.id),
    async addEnvironment(input) {
      const [last] = await tx
        .select({ created_at: environments.created_at })
        .from(environments)
        .where(where.environment)
        .orderBy(desc(environments.created_at))
        .limit(1);
      // Two environments made within one millisecond would leave "the oldest" to chance.
      const now = Date.now();
      const created_at = new Date(last ? Math.max(now, last.created_at.getTime() + 1) : now);
      const [row] = await tx
        .insert(environments)
        .values({ ...input, id: randomUUID(), project_id: project.id, user_id: userId, created_at })
        .returning();
      return row;
    },
    async updateEnvironment(id, patch) {
      if (!isUuid(id)) return undefined;
      const [row] = await tx
        .update(environments)
        .set(patch)
        .where(and(where.environment, eq(environments.id, id)))
        .returning();
      return row;
    },
    async deleteEnvironment(id) {
      if (!isUuid(id)) return false;
      const rows = await tx
        .delete(environments)
        .where(and(where.environment, eq(environments.id, id)))
        .returning({ id: environments.id });
      return rows.length > 0;
    },
    async makeDefault(id) {
      // Unmarked first: the index allows one default per project at every moment.
      await tx
        .update(environments)
        .set({ is_default: false })
        .where(and(where.environment, ne(environments.id, id), eq(environments.is_default, true)));
      await tx
        .update(environments)
        .set({ is_default: true })
        .where(and(where.environment, eq(environments.id, id)));
    },
  };
}

function variableWrites({
  tx,
  userId,
  project,
  where,
}: Scoped): Pick<ProjectScope, 'variable' | 'saveVariable' | 'deleteVariable'> {
  const variable = async (environmentId: string | null, name: string) => {
    if (environmentId !== null && !isUuid(environmentId)) return undefined;
    const [row] = await tx
      .select()
      .from(projectVariables)
      .where(
        and(
          where.variable,
          environmentId === null
            ? isNull(projectVariables.environment_id)
            : eq(projectVariables.environment_id, environmentId),
          eq(projectVariables.name, name),
        ),
      );
    return row;
  };
  return {
    variable,
    async saveVariable(input) {
      const values = {
        secret: input.secret,
        value: input.secret ? null : input.value,
        value_enc: input.secret ? input.value_enc : null,
        updated_at: new Date(),
      };
      // The project's row is locked: nobody else can insert this name between the read and the write.
      const existing = await variable(input.environment_id, input.name);
      if (existing) {
        const [row] = await tx
          .update(projectVariables)
          .set(values)
          .where(and(where.variable, eq(projectVariables.id, existing.id)))
          .returning();
        return row;
      }
      const [row] = await tx
        .insert(projectVariables)
        .values({
          ...values,
          id: randomUUID(),
          project_id: project.id,
          user_id: userId,
          environment_id: input.environment_id,
          name: input.name,
        })
        .returning();
      return row;
    },
    async deleteVariable(id) {
      if (!isUuid(id)) return false;
      const rows = await tx
        .delete(projectVariables)
        .where(and(where.variable, eq(projectVariables.id, id)))
        .returning({ id: projectVariables.id });
      return rows.length > 0;
    },
  };
}

type SuiteWrites = Pick<
  ProjectScope,
  'suite' | 'suiteNamed' | 'createSuite' | 'saveSuite' | 'setSuiteRunSettings' | 'deleteSuite'
>;
function suiteWrites({ tx, userId, project, where }: Scoped): SuiteWrites {
  const addVersion = (suiteId: string, version: number, save: SuiteSave) =>
    tx.insert(savedSuiteVersions).values({
      suite_id: suiteId,
      version,
      test_cases: save.test_cases,
      saved_by: save.saved_by,
      change: save.change,
    });
  return {
    async suite(id) {
      if (!isUuid(id)) return undefined;
      const [row] = await tx
        .select()
        .from(savedSuites)
        .where(and(where.suite, eq(savedSuites.id, id)));
      return row;
    },
    async suiteNamed(name) {
      const [row] = await tx
        .select()
        .from(savedSuites)
        .where(and(where.suite, sql`lower(${savedSuites.name}) = lower(${name})`));
      return row;
    },
    async createSuite(save) {
      const [row] = await tx
        .insert(savedSuites)
        .values({
          id: randomUUID(),
          project_id: project.id,
          user_id: userId,
          name: save.name,
          version: 1,
          test_cases: save.test_cases,
          retries: save.retries ?? 0,
          ...runSettings(save),
        })
        .returning();
      await addVersion(row.id, 1, save);
      return row;
    },
    async saveSuite(id, save) {
      if (!isUuid(id)) return undefined;
      const [row] = await tx
        .update(savedSuites)
        .set({
          name: save.name,
          test_cases: save.test_cases,
          ...runSettings(save),
          version: sql`${savedSuites.version} + 1`,
          updated_at: new Date(),
        })
        .where(and(where.suite, eq(savedSuites.id, id)))
        .returning();
      if (!row) return undefined;
      await addVersion(row.id, row.version, save);
      return row;
    },
    async setSuiteRunSettings(id, settings) {
      if (!isUuid(id)) return undefined;
      const [row] = await tx
        .update(savedSuites)
        .set({ ...runSettings(settings), updated_at: new Date() })
        .where(and(where.suite, eq(savedSuites.id, id)))
        .returning();
      return row;
    },
    async deleteSuite(id) {
      if (!isUuid(id)) return false;
      const rows = await tx
        .delete(savedSuites)
        .where(and(where.suite, eq(savedSuites.id, id)))
        .returning({ id: savedSuites.id });
      return rows.length > 0;
    },
  };
}

/** The run settings a save gives, as columns: those it leaves undefined are not written. */
function runSettings(settings: SuiteRunSettings): SuiteRunSettings {
  const { retries, trace_policy, record_video, visual_each_case } = settings;
  return {
    ...(retries === undefined ? {} : { retries }),
    ...(trace_policy === undefined ? {} : { trace_policy }),
    ...(record_video === undefined ? {} : { record_video }),
    ...(visual_each_case === undefined ? {} : { visual_each_case }),
  };
}
