import type { ProjectScope, Repositories } from '@argus/db';
import type { TargetPolicy } from '@argus/engine';
import type {
  Environment,
  Project,
  ProjectKind,
  ProjectRun,
  ProjectSummary,
  SavedSuite,
  Variable,
} from '@argus/protocol';
import { AppError } from '../errors';
import type { Secrets } from '../security/secrets';
import { addEnvironment, deleteEnvironment, updateEnvironment } from './environments';
import { checkBaseUrl, environmentOf, fieldError, sameName } from './project-checks';
import type {
  EnvironmentInputBody,
  EnvironmentUpdateBody,
  ProjectCreateBody,
  ProjectTarget,
  ProjectUpdateBody,
  SavedSuiteInputBody,
  SuiteAuthor,
  VariableInputBody,
} from './project-inputs';
import { toApiEnvironment, toApiProject, toApiSuite, toApiVariable, toProjectRun } from './project-views';
import { createSuite, saveSuiteVersion } from './saved-suites';
import { saveVariable, targetValues } from './variables';

export { MAX_ENVIRONMENTS } from './environments';
export { environmentOf } from './project-checks';
export type * from './project-inputs';
export * from './project-views';
export { describeChange } from './saved-suites';
export { secretContext } from './variables';

/** A project's page lists this many of its latest runs. */
export const PROJECT_RUNS_LISTED = 50;

export interface ProjectServiceDeps {
  repos: Pick<Repositories, 'projects' | 'testRuns'>;
  /** Encrypts secrets at rest, each bound to its project, environment and name. */
  secrets: Secrets;
  /**
   * The browser's target policy (ALLOWED_TARGETS): an environment's base URL is held to it when saved,
   * so a refused address is said then, not at its first run. Absent: not checked on save.
   */
  policy?: Pick<TargetPolicy, 'check'>;
}

/**
 * Projects (docs/PROJECTS.md): their environments, variables and secrets and saved suites, for one
 * user at a time. Every id of another user's answers as a missing one does (PROJECT_NOT_FOUND,
 * ENVIRONMENT_NOT_FOUND, VARIABLE_NOT_FOUND, SUITE_NOT_FOUND), and so does an id of the user's that
 * belongs to another of their projects. A project always has exactly one default environment.
 *
 * It orchestrates; each job is a file of this folder: environments.ts, variables.ts (secrets and the
 * values a target runs with), saved-suites.ts (versions and what each changed), project-checks.ts
 * (names, ids, base URLs), project-views.ts (rows as the API shows them), project-inputs.ts (the
 * bodies it takes).
 */
export class ProjectService {
  constructor(private readonly deps: ProjectServiceDeps) {}

  private get store() {
    return this.deps.repos.projects;
  }

  /** The user's projects, last changed first. */
  async list(userId: string): Promise<ProjectSummary[]> {
    const rows = await this.store.list(userId);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      kind: row.kind as ProjectKind,
      updated_at: row.updated_at.toISOString(),
    }));
  }

  /** A new project with its environments: the first marked default is the default, else the first. */
  async create(userId: string, input: ProjectCreateBody): Promise<Project> {
    input.environments.forEach((environment, index) => {
      if (input.environments.slice(0, index).some((other) => sameName(other.name, environment.name)))
        throw fieldError(
          ['body', 'environments', index, 'name'],
          `Another environment is already named "${environment.name}"`,
        );
    });
    for (const [index, environment] of input.environments.entries())
      await checkBaseUrl(this.deps.policy, ['body', 'environments', index, 'base_url'], environment.base_url);
    const marked = Math.max(
      input.environments.findIndex((environment) => environment.is_default),
      0,
    );
    const { project, environments } = await this.store.create(userId, {
      name: input.name,
      description: input.description,
      kind: input.kind,
      environments: input.environments.map((environment, index) => ({
        name: environment.name,
        base_url: environment.base_url,
        is_default: index === marked,
      })),
    });
    return toApiProject(project, environments);
  }

  async get(userId: string, projectId: string): Promise<Project> {
    const found = await this.store.get(userId, projectId);
    if (!found) throw new AppError('PROJECT_NOT_FOUND');
    return toApiProject(found.project, found.environments);
  }

  async update(userId: string, projectId: string, patch: ProjectUpdateBody): Promise<Project> {
    const project = await this.edit(userId, projectId, async (scope) => ({
      row: await scope.update(patch),
      environments: await scope.environments(),
    }));
    return toApiProject(project.row, project.environments);
  }

  /** Deletes the project and all it holds; its runs stay, no longer linked to it. */
  async delete(userId: string, projectId: string): Promise<void> {
    if (!(await this.store.delete(userId, projectId))) throw new AppError('PROJECT_NOT_FOUND');
  }

  async addEnvironment(userId: string, projectId: string, input: EnvironmentInputBody): Promise<Environment> {
    await checkBaseUrl(this.deps.policy, ['body', 'base_url'], input.base_url);
    const row = await this.edit(userId, projectId, (scope) => addEnvironment(scope, input));
    return toApiEnvironment(row);
  }

  /** Renames, re-points or makes an environment the default (environments.ts). */
  async updateEnvironment(
    userId: string,
    projectId: string,
    environmentId: string,
    patch: EnvironmentUpdateBody,
  ): Promise<Environment> {
    if (patch.base_url !== undefined)
      await checkBaseUrl(this.deps.policy, ['body', 'base_url'], patch.base_url);
    const row = await this.edit(userId, projectId, (scope) => updateEnvironment(scope, environmentId, patch));
    return toApiEnvironment(row);
  }

  /** Deletes an environment with its own variables and secrets (environments.ts). */
  async deleteEnvironment(userId: string, projectId: string, environmentId: string): Promise<void> {
    await this.edit(userId, projectId, (scope) => deleteEnvironment(scope, environmentId));
  }

  /** The project's variables and secrets (secrets without their values): its own first, then each environment's. */
  async variables(userId: string, projectId: string): Promise<Variable[]> {
    await this.get(userId, projectId);
    return (await this.store.variables(userId, projectId)).map(toApiVariable);
  }

  /**
   * Sets the value of a name at one scope (the project's own, or one of its environments'), replacing
   * what was there, a secret by a variable and the other way round included. A secret is stored
   * encrypted and bound to where it belongs; the answer never carries it.
   */
  async setVariable(userId: string, projectId: string, input: VariableInputBody): Promise<Variable> {
    const row = await this.edit(userId, projectId, (scope) => saveVariable(scope, this.deps.secrets, input));
    return toApiVariable(row);
  }

  async deleteVariable(userId: string, projectId: string, variableId: string): Promise<void> {
    await this.edit(userId, projectId, async (scope) => {
      if (!(await scope.deleteVariable(variableId))) throw new AppError('VARIABLE_NOT_FOUND');
      await scope.touch();
      return true;
    });
  }

  /** The project's saved suites, by name, each with its history (newest version first). */
  async suites(userId: string, projectId: string): Promise<SavedSuite[]> {
    await this.get(userId, projectId);
    return (await this.store.suites(userId, projectId)).map(toApiSuite);
  }

  async getSuite(userId: string, projectId: string, suiteId: string): Promise<SavedSuite> {
    const found = await this.store.suite(userId, projectId, suiteId);
    if (found) return toApiSuite(found);
    // The project's own absence is told apart from the suite's.
    await this.get(userId, projectId);
    throw new AppError('SUITE_NOT_FOUND');
  }

  /** A new suite, version 1; with `source_url`, its URLs stored relative to the environment they are on. */
  async createSuite(
    orgId: string,
    author: SuiteAuthor,
    projectId: string,
    input: SavedSuiteInputBody,
  ): Promise<SavedSuite> {
    const suiteId = await this.edit(orgId, projectId, (scope) => createSuite(scope, author, input));
    return this.getSuite(orgId, projectId, suiteId);
  }

  /**
   * Saves a suite's next version. With `base_version`, a suite saved by someone (or somewhere) else
   * since that version is refused (SUITE_VERSION_CONFLICT) rather than overwritten.
   */
  async updateSuite(
    orgId: string,
    author: SuiteAuthor,
    projectId: string,
    suiteId: string,
    input: SavedSuiteInputBody,
  ): Promise<SavedSuite> {
    await this.edit(orgId, projectId, (scope) => saveSuiteVersion(scope, author, suiteId, input));
    return this.getSuite(orgId, projectId, suiteId);
  }

  async deleteSuite(userId: string, projectId: string, suiteId: string): Promise<void> {
    await this.edit(userId, projectId, async (scope) => {
      if (!(await scope.deleteSuite(suiteId))) throw new AppError('SUITE_NOT_FOUND');
      await scope.touch();
      return true;
    });
  }

  /** The latest runs recorded on the project, newest first. */
  async runs(userId: string, projectId: string, limit = PROJECT_RUNS_LISTED): Promise<ProjectRun[]> {
    await this.get(userId, projectId);
    return (await this.deps.repos.testRuns.listForProject(userId, projectId, limit)).map(toProjectRun);
  }

  /**
   * What a run or generation on a project's environment needs: values merged project-level first,
   * then the environment's own (which win). Throws AppError PROJECT_NOT_FOUND / ENVIRONMENT_NOT_FOUND
   * for ids that are not the user's. environmentId undefined/null → the default environment. A secret
   * this server's key cannot open (SECRETS_KEY changed) throws BAD_REQUEST naming it.
   */
  async target(userId: string, projectId: string, environmentId?: string | null): Promise<ProjectTarget> {
    const project = await this.get(userId, projectId);
    const environment = environmentOf(project, environmentId);
    const rows = await this.store.variables(userId, projectId);
    return { project, environment, values: targetValues(rows, project, environment, this.deps.secrets) };
  }

  /** `work` on the user's project, its row locked; PROJECT_NOT_FOUND when it is not theirs. */
  private async edit<T extends NonNullable<unknown>>(
    userId: string,
    projectId: string,
    work: (scope: ProjectScope) => Promise<T>,
  ): Promise<T> {
    const result = await this.store.edit(userId, projectId, work);
    if (result === undefined) throw new AppError('PROJECT_NOT_FOUND');
    return result;
  }
}
