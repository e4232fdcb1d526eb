import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
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

type Transaction = Parameters<Parameters<Drizzle['transaction']>[0]>[0];

export interface NewEnvironment {
  name: string;
  base_url: string;
  is_default: boolean;
}

export interface NewProject {
  name: string;
  description: string;
  kind: string;
  /** In the order they were given; the caller has marked exactly one default. */
  environments: NewEnvironment[];
}

export interface ProjectPatch {
  name?: string;
  description?: string;
  login?: ProjectLoginRow;
}

export interface ProjectWithEnvironments {
  project: ProjectRow;
  /** Oldest first. */
  environments: EnvironmentRow[];
}

/** A variable's value as stored: a secret has only its ciphertext, a plain variable only its value. */
export type VariableValue =
  | { secret: false; value: string; value_enc?: null }
  | { secret: true; value_enc: string; value?: null };

export type NewVariable = VariableValue & { environment_id: string | null; name: string };

/** One save of a suite, without its cases (the history list shows how many there were). */
export interface SuiteVersionSummary {
  version: number;
  saved_by: string;
  saved_at: Date;
  change: string;
  test_count: number;
}

export interface SuiteWithVersions {
  suite: SavedSuiteRow;
  /** Newest first. */
  versions: SuiteVersionSummary[];
}

export interface SuiteSave {
  name: string;
  test_cases: unknown[];
  /** The saver's username, kept as text: the history reads the same after an account is renamed. */
  saved_by: string;
  change: string;
  /** Retries per failed case (docs/HISTORY.md#retries); undefined keeps the suite's (0 for a new one). */
  retries?: number;
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
   * Sets the suite's retries and nothing else: no new version (retries say how the suite runs, not
   * what it tests); undefined when it is not the project's.
   */
  setSuiteRetries(id: string, retries: number): Promise<SavedSuiteRow | undefined>;
  deleteSuite(id: string): Promise<boolean>;
}

/** Whose project, and which: every query of a scope carries both. */
const ofProject = (userId: string, projectId: string) => ({
  environment: and(eq(environments.project_id, projectId), eq(environments.user_id, userId)) as SQL,
  variable: and(eq(projectVariables.project_id, projectId), eq(projectVariables.user_id, userId)) as SQL,
  suite: and(eq(savedSuites.project_id, projectId), eq(savedSuites.user_id, userId)) as SQL,
});

const versionSummary = {
  suite_id: savedSuiteVersions.suite_id,
  version: savedSuiteVersions.version,
  saved_by: savedSuiteVersions.saved_by,
  saved_at: savedSuiteVersions.saved_at,
  change: savedSuiteVersions.change,
  test_count: sql<number>`jsonb_array_length(${savedSuiteVersions.test_cases})::int`,
};

/**
 * Projects, their environments, variables and saved suites. Every query is scoped to the owner: another
 * user's project, environment, variable or suite does not exist for you, and neither does one of your
 * own named under another of your projects.
 */
export function projectsRepository(orm: Drizzle) {
  const owned = (userId: string, id: string) => and(eq(projects.id, id), eq(projects.user_id, userId));

  async function environmentsOf(db: Drizzle | Transaction, userId: string, projectId: string) {
    return db
      .select()
      .from(environments)
      .where(ofProject(userId, projectId).environment)
      .orderBy(asc(environments.created_at), asc(environments.id));
  }

  async function versionsOf(userId: string, suiteIds: string[]): Promise<Map<string, SuiteVersionSummary[]>> {
    const bySuite = new Map<string, SuiteVersionSummary[]>(suiteIds.map((id) => [id, []]));
    if (suiteIds.length === 0) return bySuite;
    // Versions carry no owner of their own: they are reached through their suite's.
    const rows = await orm
      .select(versionSummary)
      .from(savedSuiteVersions)
      .innerJoin(savedSuites, eq(savedSuites.id, savedSuiteVersions.suite_id))
      .where(and(inArray(savedSuiteVersions.suite_id, suiteIds), eq(savedSuites.user_id, userId)))
      .orderBy(asc(savedSuiteVersions.suite_id), desc(savedSuiteVersions.version));
    for (const { suite_id, ...summary } of rows) bySuite.get(suite_id)?.push(summary);
    return bySuite;
  }

  function scope(tx: Transaction, userId: string, project: ProjectRow): ProjectScope {
    const where = ofProject(userId, project.id);
    const touch = async () => {
      await tx.update(projects).set({ updated_at: new Date() }).where(owned(userId, project.id));
    };
    const addVersion = (suiteId: string, version: number, save: SuiteSave) =>
      tx.insert(savedSuiteVersions).values({
        suite_id: suiteId,
        version,
        test_cases: save.test_cases,
        saved_by: save.saved_by,
        change: save.change,
      });
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
      project,
      touch,
      async update(patch) {
        const [row] = await tx
          .update(projects)
          .set({ ...patch, updated_at: new Date() })
          .where(owned(userId, project.id))
          .returning();
        return row;
      },
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
            ...(save.retries === undefined ? {} : { retries: save.retries }),
            version: sql`${savedSuites.version} + 1`,
            updated_at: new Date(),
          })
          .where(and(where.suite, eq(savedSuites.id, id)))
          .returning();
        if (!row) return undefined;
        await addVersion(row.id, row.version, save);
        return row;
      },
      async setSuiteRetries(id, retries) {
        if (!isUuid(id)) return undefined;
        const [row] = await tx
          .update(savedSuites)
          .set({ retries, updated_at: new Date() })
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

  return {
    /** The user's projects, last changed first. */
    async list(userId: string): Promise<ProjectRow[]> {
      return orm
        .select()
        .from(projects)
        .where(eq(projects.user_id, userId))
        .orderBy(desc(projects.updated_at), desc(projects.created_at), desc(projects.id));
    },
    async get(userId: string, id: string): Promise<ProjectWithEnvironments | undefined> {
      if (!isUuid(id)) return undefined;
      const [project] = await orm.select().from(projects).where(owned(userId, id));
      if (!project) return undefined;
      return { project, environments: await environmentsOf(orm, userId, id) };
    },
    /** The project with its environments, in one transaction. */
    async create(userId: string, input: NewProject): Promise<ProjectWithEnvironments> {
      return orm.transaction(async (tx) => {
        const [project] = await tx
          .insert(projects)
          .values({
            id: randomUUID(),
            user_id: userId,
            name: input.name,
            description: input.description,
            kind: input.kind,
          })
          .returning();
        // A millisecond apart, in the order given: the first is the oldest.
        const start = Date.now();
        const rows = await tx
          .insert(environments)
          .values(
            input.environments.map((environment, index) => ({
              ...environment,
              id: randomUUID(),
              project_id: project.id,
              user_id: userId,
              created_at: new Date(start + index),
            })),
          )
          .returning();
        rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
        return { project, environments: rows };
      });
    },
    /** Deletes the project with everything it holds; its runs stay, no longer linked to it. */
    async delete(userId: string, id: string): Promise<boolean> {
      if (!isUuid(id)) return false;
      const rows = await orm.delete(projects).where(owned(userId, id)).returning({ id: projects.id });
      return rows.length > 0;
    },
    /**
     * Runs `work` in one transaction on the user's project `id`, its row locked (`FOR UPDATE`) so
     * changes to one project happen one after another; an error thrown by `work` undoes its writes.
     * Undefined when the project is not the user's; `work` must therefore not answer undefined itself.
     */
    async edit<T extends NonNullable<unknown> | null>(
      userId: string,
      id: string,
      work: (scope: ProjectScope) => Promise<T>,
    ): Promise<T | undefined> {
      if (!isUuid(id)) return undefined;
      return orm.transaction(async (tx) => {
        const [project] = await tx.select().from(projects).where(owned(userId, id)).for('update');
        if (!project) return undefined;
        return work(scope(tx, userId, project));
      });
    },
    async environment(userId: string, projectId: string, id: string): Promise<EnvironmentRow | undefined> {
      if (!isUuid(projectId) || !isUuid(id)) return undefined;
      const [row] = await orm
        .select()
        .from(environments)
        .where(and(ofProject(userId, projectId).environment, eq(environments.id, id)));
      return row;
    },
    /** The project's variables and secrets: its own first, then each environment's, by name. */
    async variables(userId: string, projectId: string): Promise<ProjectVariableRow[]> {
      if (!isUuid(projectId)) return [];
      return orm
        .select()
        .from(projectVariables)
        .where(ofProject(userId, projectId).variable)
        .orderBy(
          sql`${projectVariables.environment_id} IS NOT NULL`,
          asc(projectVariables.environment_id),
          asc(projectVariables.name),
        );
    },
    /** The project's saved suites, by name, each with its history. */
    async suites(userId: string, projectId: string): Promise<SuiteWithVersions[]> {
      if (!isUuid(projectId)) return [];
      const rows = await orm
        .select()
        .from(savedSuites)
        .where(ofProject(userId, projectId).suite)
        .orderBy(sql`lower(${savedSuites.name})`, asc(savedSuites.id));
      const versions = await versionsOf(
        userId,
        rows.map((row) => row.id),
      );
      return rows.map((suite) => ({ suite, versions: versions.get(suite.id) ?? [] }));
    },
    async suite(userId: string, projectId: string, id: string): Promise<SuiteWithVersions | undefined> {
      if (!isUuid(projectId) || !isUuid(id)) return undefined;
      const [suite] = await orm
        .select()
        .from(savedSuites)
        .where(and(ofProject(userId, projectId).suite, eq(savedSuites.id, id)));
      if (!suite) return undefined;
      return { suite, versions: (await versionsOf(userId, [id])).get(id) ?? [] };
    },
  };
}
export type ProjectsRepository = ReturnType<typeof projectsRepository>;
