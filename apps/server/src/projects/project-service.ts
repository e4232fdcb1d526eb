import type {
  EnvironmentRow,
  ProjectRow,
  ProjectScope,
  ProjectVariableRow,
  Repositories,
  SuiteWithVersions,
  TestRunRow,
} from '@argus/db';
import type { TargetPolicy } from '@argus/engine';
import {
  type Environment,
  type EnvironmentInputSchema,
  type EnvironmentUpdateSchema,
  type Project,
  type ProjectCreateSchema,
  type ProjectKind,
  type ProjectLogin,
  type ProjectRun,
  type ProjectSummary,
  type ProjectUpdateSchema,
  relativeToEnvironment,
  type SavedSuite,
  type SavedSuiteInputSchema,
  type TestCase,
  type ValidationIssue,
  type Variable,
  type VariableInputSchema,
} from '@argus/protocol';
import type { z } from 'zod';
import { AppError } from '../errors';
import { type Secrets, SecretUnreadableError } from '../security/secrets';

// The bodies as the routes hand them over: parsed by the shared schemas, defaults filled in.
export type ProjectCreateBody = z.output<typeof ProjectCreateSchema>;
export type ProjectUpdateBody = z.output<typeof ProjectUpdateSchema>;
export type EnvironmentInputBody = z.output<typeof EnvironmentInputSchema>;
export type EnvironmentUpdateBody = z.output<typeof EnvironmentUpdateSchema>;
export type VariableInputBody = z.output<typeof VariableInputSchema>;
export type SavedSuiteInputBody = z.output<typeof SavedSuiteInputSchema>;

/** As many as a new project may list (ProjectCreateSchema): adding one later is held to it too. */
export const MAX_ENVIRONMENTS = 20;
/** A project's page lists this many of its latest runs. */
export const PROJECT_RUNS_LISTED = 50;

/** Who saves a suite: the version history names them. */
export interface SuiteAuthor {
  id: string;
  username: string;
}

/** What a run or a generation on one of a project's environments starts from (ProjectService.target). */
export interface ProjectTarget {
  project: Project;
  environment: Environment;
  /** name → value, secrets decrypted: server-internal only, never sent anywhere. */
  values: Map<string, { value: string; secret: boolean }>;
}

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

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toApiEnvironment(row: EnvironmentRow): Environment {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    base_url: row.base_url,
    is_default: row.is_default,
    created_at: row.created_at.toISOString(),
  };
}

export function toApiProject(row: ProjectRow, environments: EnvironmentRow[]): Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    kind: row.kind as ProjectKind,
    login: row.login as ProjectLogin,
    environments: environments.map(toApiEnvironment),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A variable as the API shows it: a secret's value is never answered, whoever asks. */
export function toApiVariable(row: ProjectVariableRow): Variable {
  return {
    id: row.id,
    project_id: row.project_id,
    environment_id: row.environment_id,
    name: row.name,
    secret: row.secret,
    value: row.secret ? null : row.value,
    updated_at: row.updated_at.toISOString(),
  };
}

export function toApiSuite({ suite, versions }: SuiteWithVersions): SavedSuite {
  return {
    id: suite.id,
    project_id: suite.project_id,
    name: suite.name,
    version: suite.version,
    test_cases: suite.test_cases as TestCase[],
    retries: suite.retries,
    versions: versions.map((version) => ({
      version: version.version,
      saved_by: version.saved_by,
      saved_at: version.saved_at.toISOString(),
      change: version.change,
      test_count: version.test_count,
    })),
    created_at: suite.created_at.toISOString(),
    updated_at: suite.updated_at.toISOString(),
  };
}

export function toProjectRun(row: TestRunRow): ProjectRun {
  return {
    id: row.id,
    status: row.status,
    test_suite_name: row.test_suite_name,
    environment_id: row.environment_id,
    environment_name: row.environment_name,
    suite_id: row.suite_id,
    suite_version: row.suite_version,
    total_tests: row.total_tests,
    passed_tests: row.passed_tests,
    failed_tests: row.failed_tests,
    flaky_tests: row.flaky_tests,
    trigger: row.trigger,
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    created_at: row.created_at.toISOString(),
  };
}

/**
 * What a secret's ciphertext is bound to: a value copied into another project's, environment's or
 * name's row does not decrypt there.
 */
export function secretContext(projectId: string, environmentId: string | null, name: string): string {
  return `project_secret:${projectId}:${environmentId ?? '*'}:${name}`;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
/** Ids as a client may write them: PostgreSQL reads a uuid in either case. */
const sameId = sameName;

/**
 * The project's environment with this id, or its default one when none is named; ENVIRONMENT_NOT_FOUND
 * for an id that is not one of them. Runs, generations and exports pick their environment with it.
 */
export function environmentOf(project: Project, environmentId?: string | null): Environment {
  const environment =
    environmentId === undefined || environmentId === null
      ? (project.environments.find((one) => one.is_default) ?? project.environments[0])
      : project.environments.find((one) => sameId(one.id, environmentId));
  if (!environment) throw new AppError('ENVIRONMENT_NOT_FOUND');
  return environment;
}

/** A 422 on one field, worded for the form that sent it. */
const fieldError = (loc: (string | number)[], msg: string) =>
  new AppError('VALIDATION', [{ loc, msg, type: 'value_error' }] satisfies ValidationIssue[]);

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** JSON with object keys sorted: jsonb hands objects back with its own key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/**
 * What a save changed, for the history when the saver wrote nothing: cases are matched by id, else by
 * name, each old case at most once.
 */
export function describeChange(
  before: { name: string; test_cases: TestCase[] },
  after: { name: string; test_cases: TestCase[] },
): string {
  const keyOf = (testCase: TestCase) => (testCase.id ? `id:${testCase.id}` : `name:${testCase.test_name}`);
  const unmatched = new Map<string, string[]>();
  for (const testCase of before.test_cases) {
    const key = keyOf(testCase);
    unmatched.set(key, [...(unmatched.get(key) ?? []), canonical(testCase)]);
  }
  let added = 0;
  let changed = 0;
  let removed = before.test_cases.length;
  for (const testCase of after.test_cases) {
    const old = unmatched.get(keyOf(testCase))?.shift();
    if (old === undefined) {
      added++;
      continue;
    }
    removed--;
    if (old !== canonical(testCase)) changed++;
  }
  const renamed = before.name === after.name ? '' : `Renamed from "${before.name}"`;
  if (added + changed + removed === 0) return renamed || 'Saved with no changes';
  const cases = `Added ${plural(added, 'test case', 'test cases')}, changed ${changed}, removed ${removed}`;
  return renamed ? `${renamed}; ${cases.charAt(0).toLowerCase()}${cases.slice(1)}` : cases;
}

/**
 * Projects (docs/PROJECTS.md): their environments, variables and secrets and saved suites, for one
 * user at a time. Every id of another user's answers as a missing one does (PROJECT_NOT_FOUND,
 * ENVIRONMENT_NOT_FOUND, VARIABLE_NOT_FOUND, SUITE_NOT_FOUND), and so does an id of the user's that
 * belongs to another of their projects. A project always has exactly one default environment.
 */
export class ProjectService {
  constructor(private readonly deps: ProjectServiceDeps) {}

  private get store() {
    return this.deps.repos.projects;
  }

  /**
   * Refuses (422, at `loc`) a base URL the browser's target policy refuses: a private, loopback or
   * link-local address not in ALLOWED_TARGETS, the Argus server itself. A host name that does not
   * resolve now is kept: it may be a staging host set up later, and its runs say so if it still does not.
   */
  private async checkBaseUrl(loc: (string | number)[], baseUrl: string): Promise<void> {
    if (!this.deps.policy) return;
    const decision = await this.deps.policy.check(baseUrl);
    if (!decision.allowed && !decision.unresolved)
      throw fieldError(loc, `This server may not test this address: ${decision.reason}`);
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
      await this.checkBaseUrl(['body', 'environments', index, 'base_url'], environment.base_url);
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
    await this.checkBaseUrl(['body', 'base_url'], input.base_url);
    const row = await this.edit(userId, projectId, async (scope) => {
      const existing = await scope.environments();
      if (existing.length >= MAX_ENVIRONMENTS)
        throw new AppError('BAD_REQUEST', `A project has at most ${MAX_ENVIRONMENTS} environments`);
      this.checkEnvironmentName(existing, input.name);
      // Added unmarked, then made the default: the database allows one default at every moment.
      const added = await scope.addEnvironment({
        name: input.name,
        base_url: input.base_url,
        is_default: false,
      });
      if (input.is_default) await scope.makeDefault(added.id);
      await scope.touch();
      return input.is_default ? { ...added, is_default: true } : added;
    });
    return toApiEnvironment(row);
  }

  /**
   * Renames, re-points or makes an environment the default (which unmarks the others). The default
   * cannot be unmarked as such: another is made the default instead.
   */
  async updateEnvironment(
    userId: string,
    projectId: string,
    environmentId: string,
    patch: EnvironmentUpdateBody,
  ): Promise<Environment> {
    if (patch.base_url !== undefined) await this.checkBaseUrl(['body', 'base_url'], patch.base_url);
    const row = await this.edit(userId, projectId, async (scope) => {
      const existing = await scope.environments();
      const environment = existing.find((one) => sameId(one.id, environmentId));
      if (!environment) throw new AppError('ENVIRONMENT_NOT_FOUND');
      if (patch.is_default === false && environment.is_default)
        throw new AppError(
          'BAD_REQUEST',
          'A project always has one default environment: make another environment the default instead',
        );
      if (patch.name !== undefined)
        this.checkEnvironmentName(
          existing.filter((one) => one.id !== environment.id),
          patch.name,
        );
      const changes = {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.base_url !== undefined && { base_url: patch.base_url }),
      };
      let updated = environment;
      if (Object.keys(changes).length > 0)
        updated = (await scope.updateEnvironment(environment.id, changes)) ?? environment;
      if (patch.is_default && !environment.is_default) {
        await scope.makeDefault(environment.id);
        updated = { ...updated, is_default: true };
      }
      await scope.touch();
      return updated;
    });
    return toApiEnvironment(row);
  }

  /**
   * Deletes an environment with its own variables and secrets (its runs keep its name). The last one
   * is refused; deleting the default makes the oldest remaining one the default.
   */
  async deleteEnvironment(userId: string, projectId: string, environmentId: string): Promise<void> {
    await this.edit(userId, projectId, async (scope) => {
      const existing = await scope.environments();
      const environment = existing.find((one) => sameId(one.id, environmentId));
      if (!environment) throw new AppError('ENVIRONMENT_NOT_FOUND');
      if (existing.length === 1)
        throw new AppError('BAD_REQUEST', 'A project keeps at least one environment');
      await scope.deleteEnvironment(environment.id);
      const oldest = existing.find((one) => one.id !== environment.id);
      if (environment.is_default && oldest) await scope.makeDefault(oldest.id);
      await scope.touch();
      return true;
    });
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
    const row = await this.edit(userId, projectId, async (scope) => {
      let environmentId: string | null = null;
      if (input.environment_id !== null) {
        const wanted = input.environment_id;
        const environment = (await scope.environments()).find((one) => sameId(one.id, wanted));
        if (!environment) throw new AppError('ENVIRONMENT_NOT_FOUND');
        environmentId = environment.id;
      }
      const scoped = { environment_id: environmentId, name: input.name };
      const saved = await scope.saveVariable(
        input.secret
          ? {
              ...scoped,
              secret: true,
              value_enc: this.deps.secrets.encrypt(
                input.value,
                secretContext(scope.project.id, environmentId, input.name),
              ),
            }
          : { ...scoped, secret: false, value: input.value },
      );
      await scope.touch();
      return saved;
    });
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
  async createSuite(author: SuiteAuthor, projectId: string, input: SavedSuiteInputBody): Promise<SavedSuite> {
    const suiteId = await this.edit(author.id, projectId, async (scope) => {
      if (await scope.suiteNamed(input.name))
        throw fieldError(['body', 'name'], `A suite named "${input.name}" already exists in this project`);
      const test_cases = this.storedCases(await scope.environments(), input);
      const row = await scope.createSuite({
        name: input.name,
        test_cases,
        retries: input.retries,
        saved_by: author.username,
        change:
          input.change_note?.trim() || `Created with ${plural(test_cases.length, 'test case', 'test cases')}`,
      });
      await scope.touch();
      return row.id;
    });
    return this.getSuite(author.id, projectId, suiteId);
  }

  /**
   * Saves a suite's next version. With `base_version`, a suite saved by someone (or somewhere) else
   * since that version is refused (SUITE_VERSION_CONFLICT) rather than overwritten.
   */
  async updateSuite(
    author: SuiteAuthor,
    projectId: string,
    suiteId: string,
    input: SavedSuiteInputBody,
  ): Promise<SavedSuite> {
    await this.edit(author.id, projectId, async (scope) => {
      const current = await scope.suite(suiteId);
      if (!current) throw new AppError('SUITE_NOT_FOUND');
      if (input.base_version !== undefined && input.base_version !== current.version)
        throw new AppError(
          'SUITE_VERSION_CONFLICT',
          `This suite is at version ${current.version} since you opened version ${input.base_version}; reload it and save again`,
        );
      const named = await scope.suiteNamed(input.name);
      if (named && named.id !== suiteId)
        throw fieldError(['body', 'name'], `A suite named "${input.name}" already exists in this project`);
      const test_cases = this.storedCases(await scope.environments(), input);
      // A save that changes only the retries makes no new version: retries say how the suite runs, not
      // what it tests (docs/HISTORY.md#retries; the Retries control saves this way). Any other save,
      // even of the same cases, is a version, as before retries existed.
      const retriesOnly =
        input.retries !== undefined &&
        input.retries !== current.retries &&
        input.name === current.name &&
        canonical(test_cases) === canonical(current.test_cases);
      if (retriesOnly) {
        await scope.setSuiteRetries(suiteId, input.retries as number);
        await scope.touch();
        return true;
      }
      await scope.saveSuite(suiteId, {
        name: input.name,
        test_cases,
        retries: input.retries,
        saved_by: author.username,
        change:
          input.change_note?.trim() ||
          describeChange(
            { name: current.name, test_cases: current.test_cases as TestCase[] },
            { name: input.name, test_cases },
          ),
      });
      await scope.touch();
      return true;
    });
    return this.getSuite(author.id, projectId, suiteId);
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
    const values = new Map<string, { value: string; secret: boolean }>();
    for (const level of [null, environment.id]) {
      for (const row of rows) {
        if (row.environment_id !== level) continue;
        values.set(row.name, { value: this.valueOf(row, project, environment), secret: row.secret });
      }
    }
    return { project, environment, values };
  }

  /** A row's value in clear (server-internal). */
  private valueOf(row: ProjectVariableRow, project: Project, environment: Environment): string {
    if (!row.secret) return row.value ?? '';
    try {
      return this.deps.secrets.decrypt(
        row.value_enc ?? '',
        secretContext(row.project_id, row.environment_id, row.name),
      );
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      const where = row.environment_id ? `${project.name}/${environment.name}` : project.name;
      throw new AppError(
        'BAD_REQUEST',
        `The secret ${row.name} of ${where} cannot be decrypted with this server's key (SECRETS_KEY changed); enter it again in the project's settings`,
      );
    }
  }

  /** The cases as stored: relative to the project environment `source_url` is on, else to the default. */
  private storedCases(environments: EnvironmentRow[], input: SavedSuiteInputBody): TestCase[] {
    if (!input.source_url) return input.test_cases;
    const source = new URL(input.source_url);
    // The longest base URL the source lies under wins (two environments may share an origin).
    const onOrigin = environments
      .filter((one) => new URL(one.base_url).origin === source.origin)
      .sort((a, b) => underBase(source, b.base_url) - underBase(source, a.base_url));
    const environment = onOrigin[0] ?? environments.find((one) => one.is_default) ?? environments[0];
    return environment ? relativeToEnvironment(input.test_cases, environment.base_url) : input.test_cases;
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

  private checkEnvironmentName(others: EnvironmentRow[], name: string): void {
    if (others.some((one) => sameName(one.name, name)))
      throw fieldError(['body', 'name'], `An environment named "${name}" already exists in this project`);
  }
}

/** How much of `url` a base URL covers: its length when `url` lies under it, else 0. */
function underBase(url: URL, baseUrl: string): number {
  const base = new URL(baseUrl);
  const prefix = base.origin + base.pathname.replace(/\/?$/, '/');
  return `${url.origin}${url.pathname}/`.startsWith(prefix) ? prefix.length : 0;
}
