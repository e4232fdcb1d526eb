import {
  type Environment,
  EnvironmentInputSchema,
  EnvironmentUpdateSchema,
  IdParamsSchema,
  type Project,
  ProjectCreateSchema,
  type ProjectRun,
  type ProjectSummary,
  ProjectUpdateSchema,
  RunSavedSuiteSchema,
  type SavedSuite,
  SavedSuiteInputSchema,
  type Variable,
  VariableInputSchema,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../app-services';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

// Path parameters of the records under a project: ids, as long as any other id the API takes.
const EnvironmentParamsSchema = IdParamsSchema.extend({ envId: z.string().max(100) });
const VariableParamsSchema = IdParamsSchema.extend({ varId: z.string().max(100) });
const SuiteParamsSchema = IdParamsSchema.extend({ suiteId: z.string().max(100) });

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type ProjectRouteServices = Pick<Services, 'projects' | 'automation'>;

/**
 * The projects endpoints (docs/PROJECTS.md): projects, their environments, variables and secrets,
 * saved suites and runs. Every route is owner-scoped: another user's project, environment, variable or
 * suite answers 404 with its code, like a missing one. A secret's value is never answered.
 */
export async function projectRoutes(app: FastifyInstance, services: ProjectRouteServices) {
  const { projects, automation } = services;
  app.addHook('preHandler', app.requireUser);

  app.get('/', async (request): Promise<ProjectSummary[]> => projects.list(currentUser(request).id));

  app.post('/', async (request, reply) => {
    const body = parseWith(ProjectCreateSchema, request.body, 'body');
    return reply.code(201).send(await projects.create(currentUser(request).id, body));
  });

  app.get('/:id', async (request): Promise<Project> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    return projects.get(currentUser(request).id, id);
  });

  app.put('/:id', async (request): Promise<Project> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const body = parseWith(ProjectUpdateSchema, request.body, 'body');
    return projects.update(currentUser(request).id, id, body);
  });

  app.delete('/:id', async (request, reply) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    await projects.delete(currentUser(request).id, id);
    return reply.code(204).send();
  });

  app.post('/:id/environments', async (request, reply) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const body = parseWith(EnvironmentInputSchema, request.body, 'body');
    return reply.code(201).send(await projects.addEnvironment(currentUser(request).id, id, body));
  });

  app.put('/:id/environments/:envId', async (request): Promise<Environment> => {
    const { id, envId } = parseWith(EnvironmentParamsSchema, request.params, 'path');
    const body = parseWith(EnvironmentUpdateSchema, request.body, 'body');
    return projects.updateEnvironment(currentUser(request).id, id, envId, body);
  });

  app.delete('/:id/environments/:envId', async (request, reply) => {
    const { id, envId } = parseWith(EnvironmentParamsSchema, request.params, 'path');
    await projects.deleteEnvironment(currentUser(request).id, id, envId);
    return reply.code(204).send();
  });

  app.get('/:id/variables', async (request): Promise<Variable[]> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    return projects.variables(currentUser(request).id, id);
  });

  app.put('/:id/variables', async (request): Promise<Variable> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const body = parseWith(VariableInputSchema, request.body, 'body');
    return projects.setVariable(currentUser(request).id, id, body);
  });

  app.delete('/:id/variables/:varId', async (request, reply) => {
    const { id, varId } = parseWith(VariableParamsSchema, request.params, 'path');
    await projects.deleteVariable(currentUser(request).id, id, varId);
    return reply.code(204).send();
  });

  app.get('/:id/suites', async (request): Promise<SavedSuite[]> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    return projects.suites(currentUser(request).id, id);
  });

  app.post('/:id/suites', async (request, reply) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const body = parseWith(SavedSuiteInputSchema, request.body, 'body');
    return reply.code(201).send(await projects.createSuite(currentUser(request), id, body));
  });

  app.get('/:id/suites/:suiteId', async (request): Promise<SavedSuite> => {
    const { id, suiteId } = parseWith(SuiteParamsSchema, request.params, 'path');
    return projects.getSuite(currentUser(request).id, id, suiteId);
  });

  app.put('/:id/suites/:suiteId', async (request): Promise<SavedSuite> => {
    const { id, suiteId } = parseWith(SuiteParamsSchema, request.params, 'path');
    const body = parseWith(SavedSuiteInputSchema, request.body, 'body');
    return projects.updateSuite(currentUser(request), id, suiteId, body);
  });

  app.delete('/:id/suites/:suiteId', async (request, reply) => {
    const { id, suiteId } = parseWith(SuiteParamsSchema, request.params, 'path');
    await projects.deleteSuite(currentUser(request).id, id, suiteId);
    return reply.code(204).send();
  });

  // Starts a run of the suite on an environment and answers at once (202) with the run's id; the run
  // goes on in the background and is recorded as it goes (GET /:id/runs, the run's results).
  // A `run` token may call it (docs/CI.md#api-tokens); the run records that the API started it.
  app.post('/:id/suites/:suiteId/runs', { config: { tokenScope: 'run' } }, async (request, reply) => {
    const { id, suiteId } = parseWith(SuiteParamsSchema, request.params, 'path');
    const body = parseWith(RunSavedSuiteSchema, request.body ?? {}, 'body');
    const user = currentUser(request);
    const started = await automation.runSavedSuite(
      user.id,
      {
        project_id: id,
        suite_id: suiteId,
        environment_id: body.environment_id,
        trigger: request.credential?.kind === 'api-token' ? 'api' : 'screen',
      },
      // Nothing is pushed to the user's sockets: the Automation screen follows its own sessions; the
      // run's progress is read with GET /api/runs/{id}/events.
      () => {},
    );
    started.done.catch((error: unknown) => request.log.error({ err: error }, 'saved suite run failed'));
    return reply.code(202).send({
      test_run_id: started.test_run_id,
      environment_id: started.environment_id,
      environment_name: started.environment_name,
    });
  });

  app.get('/:id/runs', async (request): Promise<ProjectRun[]> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    return projects.runs(currentUser(request).id, id);
  });
}
