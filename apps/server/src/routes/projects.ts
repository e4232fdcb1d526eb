import {
  EnvironmentInputSchema,
  EnvironmentSchema,
  EnvironmentUpdateSchema,
  IdParamsSchema,
  ProjectCreateSchema,
  ProjectRunSchema,
  ProjectSchema,
  ProjectSummarySchema,
  ProjectUpdateSchema,
  RunSavedSuiteSchema,
  RunStartedSchema,
  SavedSuiteInputSchema,
  SavedSuiteSchema,
  VariableInputSchema,
  VariableSchema,
} from '@argus/protocol';
import { z } from 'zod';
import type { Services } from '../app-services';
import {
  environmentChanged,
  projectUpdated,
  suiteDeleted,
  suiteSaved,
  variableChanged,
} from '../audit/project-events';
import { audit } from '../audit/recorder';
import { routeGroup, routeOf, routePlugin } from './route-group';

// Path parameters of the records under a project: ids, as long as any other id the API takes.
const EnvironmentParamsSchema = IdParamsSchema.extend({ envId: z.string().max(100) });
const VariableParamsSchema = IdParamsSchema.extend({ varId: z.string().max(100) });
export const SuiteParamsSchema = IdParamsSchema.extend({ suiteId: z.string().max(100) });

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type ProjectRouteServices = Pick<Services, 'projects' | 'automation'>;

/**
 * The projects endpoints (docs/PROJECTS.md): projects, their environments, variables and secrets,
 * saved suites and runs. Every route is owner-scoped: another user's project, environment, variable or
 * suite answers 404 with its code, like a missing one. A secret's value is never answered.
 */
const route = routeOf<ProjectRouteServices>();

export const PROJECT_ROUTES = routeGroup('/api/projects', [
  route({
    method: 'GET',
    path: '/',
    summary: "The user's projects",
    tag: 'Projects',
    response: z.array(ProjectSummarySchema),
    handle: async ({ org }, { projects }) => projects.list(org.id),
  }),
  route({
    method: 'POST',
    path: '/',
    summary: 'Create a project with its environments',
    tag: 'Projects',
    body: ProjectCreateSchema,
    status: 201,
    response: ProjectSchema,
    handle: async ({ request, org, body }, { projects }) =>
      audit.after(request, projects.create(org.id, body), (p) => ({
        action: 'project_created',
        projectId: p.id,
        target: p.name,
      })),
  }),
  route({
    method: 'GET',
    path: '/:id',
    summary: 'A project with its environments and login',
    tag: 'Projects',
    params: IdParamsSchema,
    response: ProjectSchema,
    handle: async ({ org, params }, { projects }) => projects.get(org.id, params.id),
  }),
  route({
    method: 'PUT',
    path: '/:id',
    summary: 'Change a project',
    tag: 'Projects',
    params: IdParamsSchema,
    body: ProjectUpdateSchema,
    response: ProjectSchema,
    handle: async ({ request, org, params, body }, { projects }) =>
      audit.after(request, projects.update(org.id, params.id, body), (p) => projectUpdated(p, body)),
  }),
  route({
    method: 'DELETE',
    path: '/:id',
    summary: 'Delete a project and all it holds',
    tag: 'Projects',
    params: IdParamsSchema,
    status: 204,
    handle: async ({ request, org, params }, { projects }) => {
      await projects.delete(org.id, params.id);
      await audit.record(request, { action: 'project_deleted', projectId: params.id });
    },
  }),
  route({
    method: 'POST',
    path: '/:id/environments',
    summary: 'Add an environment',
    tag: 'Projects',
    params: IdParamsSchema,
    body: EnvironmentInputSchema,
    status: 201,
    response: EnvironmentSchema,
    handle: async ({ request, org, params, body }, { projects }) =>
      audit.after(request, projects.addEnvironment(org.id, params.id, body), (e) =>
        environmentChanged(params.id, 'added', e),
      ),
  }),
  route({
    method: 'PUT',
    path: '/:id/environments/:envId',
    summary: 'Change an environment',
    tag: 'Projects',
    params: EnvironmentParamsSchema,
    body: EnvironmentUpdateSchema,
    response: EnvironmentSchema,
    handle: async ({ request, org, params, body }, { projects }) =>
      audit.after(request, projects.updateEnvironment(org.id, params.id, params.envId, body), (e) =>
        environmentChanged(params.id, 'changed', e),
      ),
  }),
  route({
    method: 'DELETE',
    path: '/:id/environments/:envId',
    summary: 'Delete an environment',
    tag: 'Projects',
    params: EnvironmentParamsSchema,
    status: 204,
    handle: async ({ request, org, params }, { projects }) => {
      await projects.deleteEnvironment(org.id, params.id, params.envId);
      await audit.record(request, environmentChanged(params.id, 'deleted', { id: params.envId }));
    },
  }),
  route({
    method: 'GET',
    path: '/:id/variables',
    summary: 'Variables and secrets (a secret value is never answered)',
    tag: 'Projects',
    params: IdParamsSchema,
    response: z.array(VariableSchema),
    handle: async ({ org, params }, { projects }) => projects.variables(org.id, params.id),
  }),
  route({
    method: 'PUT',
    path: '/:id/variables',
    summary: 'Set a variable or secret',
    tag: 'Projects',
    params: IdParamsSchema,
    body: VariableInputSchema,
    response: VariableSchema,
    handle: async ({ request, org, params, body }, { projects }) =>
      audit.after(request, projects.setVariable(org.id, params.id, body), (v) => variableChanged(v)),
  }),
  route({
    method: 'DELETE',
    path: '/:id/variables/:varId',
    summary: 'Delete a variable or secret',
    tag: 'Projects',
    params: VariableParamsSchema,
    status: 204,
    handle: async ({ request, org, params }, { projects }) => {
      // Read first: the row names the variable (and whether it was a secret) once it is gone.
      const gone = (await projects.variables(org.id, params.id)).find((v) => v.id === params.varId);
      await projects.deleteVariable(org.id, params.id, params.varId);
      if (gone) await audit.record(request, variableChanged(gone, true));
    },
  }),
  route({
    method: 'GET',
    path: '/:id/suites',
    summary: 'Saved suites',
    tag: 'Suites',
    params: IdParamsSchema,
    response: z.array(SavedSuiteSchema),
    handle: async ({ org, params }, { projects }) => projects.suites(org.id, params.id),
  }),
  route({
    method: 'POST',
    path: '/:id/suites',
    summary: 'Save a new suite',
    tag: 'Suites',
    params: IdParamsSchema,
    body: SavedSuiteInputSchema,
    status: 201,
    response: SavedSuiteSchema,
    handle: async ({ request, org, user, params, body }, { projects }) =>
      audit.after(request, projects.createSuite(org.id, user, params.id, body), suiteSaved),
  }),
  route({
    method: 'GET',
    path: '/:id/suites/:suiteId',
    summary: 'A saved suite with its versions',
    tag: 'Suites',
    params: SuiteParamsSchema,
    response: SavedSuiteSchema,
    handle: async ({ org, params }, { projects }) => projects.getSuite(org.id, params.id, params.suiteId),
  }),
  route({
    method: 'PUT',
    path: '/:id/suites/:suiteId',
    summary: 'Save a new version of a suite (409 when it changed since base_version)',
    tag: 'Suites',
    params: SuiteParamsSchema,
    body: SavedSuiteInputSchema,
    response: SavedSuiteSchema,
    handle: async ({ request, org, user, params, body }, { projects }) =>
      audit.after(request, projects.updateSuite(org.id, user, params.id, params.suiteId, body), suiteSaved),
  }),
  route({
    method: 'DELETE',
    path: '/:id/suites/:suiteId',
    summary: 'Delete a saved suite',
    tag: 'Suites',
    params: SuiteParamsSchema,
    status: 204,
    handle: async ({ request, org, params }, { projects }) => {
      const suite = await projects.getSuite(org.id, params.id, params.suiteId);
      await projects.deleteSuite(org.id, params.id, params.suiteId);
      await audit.record(request, suiteDeleted(suite));
    },
  }),
  // Starts a run of the suite on an environment and answers at once (202) with the run's id; the run
  // goes on in the background and is recorded as it goes (GET /:id/runs, the run's results).
  // A `run` token may call it (docs/CI.md#api-tokens); the run records that the API started it.
  route({
    method: 'POST',
    path: '/:id/suites/:suiteId/runs',
    summary:
      'Run a saved suite on an environment (the default when none is named): answers the run id at once',
    tag: 'Runs',
    scope: 'run',
    params: SuiteParamsSchema,
    body: RunSavedSuiteSchema,
    status: 202,
    response: RunStartedSchema,
    handle: async ({ request, user, org, params, body }, { automation }) => {
      // It waits its turn in the organization's line (docs/CI.md#runs-wait-their-turn), never refused for being busy.
      const started = await automation.runSavedSuite(
        { userId: user.id, orgId: org.id },
        {
          project_id: params.id,
          suite_id: params.suiteId,
          environment_id: body.environment_id,
          branch: body.branch,
          trigger: request.credential?.kind === 'api-token' ? 'api' : 'screen',
        },
        // Nothing is pushed to the user's sockets: the Automation screen follows its own sessions; the
        // run's progress is read with GET /api/runs/{id}/events.
        () => {},
      );
      started.done.catch((error: unknown) => request.log.error({ err: error }, 'saved suite run failed'));
      return {
        test_run_id: started.test_run_id,
        environment_id: started.environment_id,
        environment_name: started.environment_name,
      };
    },
  }),
  route({
    method: 'GET',
    path: '/:id/runs',
    summary: "The project's recent runs",
    tag: 'Runs',
    params: IdParamsSchema,
    response: z.array(ProjectRunSchema),
    handle: async ({ org, params }, { projects }) => projects.runs(org.id, params.id),
  }),
]);

export const projectRoutes = routePlugin(PROJECT_ROUTES);
