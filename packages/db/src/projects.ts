import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import {
  environmentsOf,
  type NewEnvironment,
  ofProject,
  type ProjectScope,
  projectScope,
} from './project-scope';
import {
  type EnvironmentRow,
  environments,
  type ProjectRow,
  type ProjectVariableRow,
  projects,
  projectVariables,
  type SavedSuiteRow,
  savedSuites,
  savedSuiteVersions,
} from './schema';
import { isUuid } from './users';

export type {
  NewEnvironment,
  NewVariable,
  ProjectPatch,
  ProjectScope,
  SuiteRunSettings,
  SuiteSave,
  VariableValue,
} from './project-scope';

export interface NewProject {
  name: string;
  description: string;
  kind: string;
  /** In the order they were given; the caller has marked exactly one default. */
  environments: NewEnvironment[];
}

export interface ProjectWithEnvironments {
  project: ProjectRow;
  /** Oldest first. */
  environments: EnvironmentRow[];
}

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
  return { ...projectRows(orm), ...projectContents(orm) };
}

/** The projects themselves: listed, read, made, deleted, and edited under their row's lock. */
function projectRows(orm: Drizzle) {
  const owned = (userId: string, id: string) => and(eq(projects.id, id), eq(projects.user_id, userId));
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
        return work(projectScope(tx, userId, project));
      });
    },
  };
}

/** What a project holds, read outside an edit: an environment, the variables, the suites and their versions. */
function projectContents(orm: Drizzle) {
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

  return {
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
