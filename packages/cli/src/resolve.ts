import { EnvironmentSchema, ProjectSchema, ProjectSummarySchema, SavedSuiteSchema } from '@argus/protocol';
import { z } from 'zod';
import { AnswerError, type Connection, requestJson } from './http';

// The parts of the server's answers the command line reads, checked with the protocol's own schemas (the
// rest, such as a project's login, may grow without breaking a command line of an older version).
const EnvironmentPartSchema = EnvironmentSchema.pick({
  id: true,
  name: true,
  base_url: true,
  is_default: true,
});
const ProjectPartSchema = ProjectSchema.pick({ id: true, name: true }).extend({
  environments: z.array(EnvironmentPartSchema),
});
const SuitePartSchema = SavedSuiteSchema.pick({ id: true, name: true, version: true }).extend({
  test_cases: z.array(z.unknown()),
});
export type Environment = z.infer<typeof EnvironmentPartSchema>;
export type Project = z.infer<typeof ProjectPartSchema>;
export type SavedSuite = z.infer<typeof SuitePartSchema>;

/** Exit code 2 with a one-line reason: no verdict on the suite could be had. */
export class NoVerdict extends Error {}

/** Exit code 2, said as `argus: could not start: <reason>`: nothing was started. */
export class CouldNotStart extends NoVerdict {}

/** A server answer checked against the protocol's schema; a mismatch says where. */
export function checked<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new AnswerError(
    `unexpected answer for ${what}${where}: ${issue?.message ?? 'invalid'} (is the server the same version as this command line?)`,
  );
}

const quoteList = (names: string[]) => (names.length ? names.join(', ') : 'none');

/**
 * The one item named `wanted`: by id first, then by name (case-insensitive). Two of the same name:
 * refused, naming their ids.
 */
export function pick<T extends { id: string; name: string }>(
  items: T[],
  wanted: string,
  describe: (names: string) => string,
): T {
  const byId = items.find((item) => item.id === wanted);
  if (byId) return byId;
  const lower = wanted.trim().toLowerCase();
  const named = items.filter((item) => item.name.trim().toLowerCase() === lower);
  if (named.length === 1) return named[0];
  if (named.length > 1) {
    throw new CouldNotStart(
      `${describe(quoteList(items.map((item) => item.name)))}: "${wanted}" names ${named.length} of them; give the id instead (${named.map((item) => item.id).join(', ')})`,
    );
  }
  throw new CouldNotStart(describe(quoteList(items.map((item) => item.name))));
}

export async function findProject(connection: Connection, wanted: string): Promise<Project> {
  const list = checked(
    ProjectSummarySchema.array(),
    await requestJson(connection, 'GET', '/api/projects'),
    'the projects',
  );
  const summary = pick(list, wanted, (names) => `unknown project "${wanted}" (projects: ${names})`);
  return checked(
    ProjectPartSchema,
    await requestJson(connection, 'GET', `/api/projects/${encodeURIComponent(summary.id)}`),
    'the project',
  );
}

/** The environment named `wanted`, or the project's default one. */
export function findEnvironment(project: Project, wanted: string | undefined): Environment {
  if (wanted === undefined) {
    const environment = project.environments.find((one) => one.is_default) ?? project.environments[0];
    if (!environment) throw new CouldNotStart(`project "${project.name}" has no environment`);
    return environment;
  }
  return pick(
    project.environments,
    wanted,
    (names) => `unknown environment "${wanted}" in project "${project.name}" (environments: ${names})`,
  );
}

export async function findSuite(
  connection: Connection,
  project: Project,
  wanted: string,
): Promise<SavedSuite> {
  const suites = checked(
    SuitePartSchema.array(),
    await requestJson(connection, 'GET', `/api/projects/${encodeURIComponent(project.id)}/suites`),
    'the suites',
  );
  return pick(
    suites,
    wanted,
    (names) => `unknown suite "${wanted}" in project "${project.name}" (suites: ${names})`,
  );
}
