import { redactor, type SignInPlan, type StepVariables } from '@argus/engine';
import { MOBILE_VIEWPORT, type ProjectLogin, type SavedSuite, type TestCase } from '@argus/protocol';
import { AppError } from '../errors';
import type { ProjectTarget } from '../projects/project-inputs';

// What a generation or run on a project's environment is given by the project service, declared once
// beside the service that builds it.
export type { ProjectTarget };

/** The project service, as automation uses it (apps/server/src/projects/project-service.ts). */
export interface ProjectTargets {
  /** Throws PROJECT_NOT_FOUND / ENVIRONMENT_NOT_FOUND for ids that are not the user's. */
  target(userId: string, projectId: string, environmentId?: string | null): Promise<ProjectTarget>;
  /** Throws SUITE_NOT_FOUND for a suite that is not the user's project's. */
  getSuite(userId: string, projectId: string, suiteId: string): Promise<SavedSuite>;
}

/** A project environment as a piece of work uses it: where, how to sign in, the `{{NAME}}` values. */
export interface WorkTarget extends ProjectTarget {
  /** `project/environment`, as the sign-in failure and the progress messages name it. */
  label: string;
  plan: SignInPlan | null;
  variables: StepVariables;
  /** Hides the secrets' values in text (generated cases, model prompts, messages). */
  redact: (text: string) => string;
  /** A mobile project's runs use a phone's viewport. */
  viewport?: { width: number; height: number };
}

/**
 * The project environment a request names, or null when it names none. The work's URL must be on the
 * environment's address: the environment's secrets are typed only into the site they belong to.
 */
export async function workTarget(
  projects: ProjectTargets | undefined,
  userId: string,
  ids: { project_id?: string | null; environment_id?: string | null },
  url: string,
): Promise<WorkTarget | null> {
  if (!ids.project_id) {
    if (ids.environment_id) throw new AppError('BAD_REQUEST', 'An environment is named without its project');
    return null;
  }
  if (!projects) throw new AppError('NOT_IMPLEMENTED', 'Projects are not available on this server');
  const target = await projects.target(userId, ids.project_id, ids.environment_id);
  const { project, environment } = target;
  if (new URL(url).origin !== new URL(environment.base_url).origin) {
    throw new AppError(
      'BAD_REQUEST',
      `${url} is not on the ${environment.name} environment's address (${environment.base_url})`,
    );
  }
  const variables: StepVariables = {
    values: target.values,
    source: `environment "${environment.name}" of project "${project.name}"`,
  };
  return {
    ...target,
    label: `${project.name}/${environment.name}`,
    plan: signInPlan(project.login),
    variables,
    redact: redactor(variables),
    viewport: project.kind === 'mobile' ? { ...MOBILE_VIEWPORT } : undefined,
  };
}

export function signInPlan(login: ProjectLogin): SignInPlan | null {
  switch (login.mode) {
    case 'credentials':
      return {
        mode: 'credentials',
        loginUrl: login.login_url,
        username: login.username_variable,
        password: login.password_secret,
        totp: login.totp_secret ?? null,
      };
    case 'steps':
      return { mode: 'steps', steps: login.steps };
    default:
      return null;
  }
}

/** What a generated case on a signed-in project says, so a reader knows the login runs before its steps. */
export const SIGNED_IN_NOTE =
  "Runs signed in: Argus signs in with the project's login before the first step.";

/**
 * Generated cases as they are handed out for a project environment: a secret the pages showed is its
 * `{{NAME}}` again, and with a login each case says that it runs signed in.
 */
export function casesForTarget(cases: TestCase[], target: WorkTarget): TestCase[] {
  const { redact } = target;
  return cases.map((testCase) => {
    const description = redact(testCase.description);
    return {
      ...testCase,
      test_name: redact(testCase.test_name),
      description: target.plan
        ? `${description}${description && !/[.!?]$/.test(description) ? '.' : ''}${description ? ' ' : ''}${SIGNED_IN_NOTE}`
        : description,
      steps: testCase.steps.map(redact),
      expected_result: redact(testCase.expected_result),
    };
  });
}
