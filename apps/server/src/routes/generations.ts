import {
  GenerationRequestSchema,
  type GenerationResult,
  IdParamsSchema,
  type ServerMessageInput,
  type TestCase,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type GenerationRouteServices = Pick<Services, 'projects' | 'automation' | 'repos'>;

/**
 * `POST /api/projects/{id}/generations` (docs/CI.md#generating-a-suite-from-ci): a generation on one of
 * the project's environments, run through the same AutomationService.generate the automation screen's
 * socket uses, its cases saved as a suite of the project (a new one, or the next version of the suite of
 * that name), relative to the environment. The request waits for the generation (up to the explorer's
 * budgets plus the planner: minutes) and answers 201 with the suite. A client that goes away stops it.
 * Owner-scoped like every project route; an API token needs the `run` scope (it starts work).
 */
export async function generationRoutes(app: FastifyInstance, services: GenerationRouteServices) {
  const { projects, automation, repos } = services;
  app.addHook('preHandler', app.requireUser);

  app.post('/:id/generations', { config: { tokenScope: 'run' } }, async (request, reply) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const body = parseWith(GenerationRequestSchema, request.body ?? {}, 'body');
    const user = currentUser(request);
    // The project and environment are the user's, or this is 404 before anything starts.
    const { environment } = await projects.target(user.id, id, body.environment_id);
    const url = !body.url
      ? environment.base_url
      : body.url.startsWith('/')
        ? new URL(body.url, environment.base_url).href
        : body.url;

    // What the generation says, as the socket handler's `send` would carry it to the screens.
    let generated: { test_cases: TestCase[]; engine: string; test_run_id: string | null } | null = null;
    let failure: { message: string; code: string } | null = null;
    const send = (message: ServerMessageInput) => {
      if (message.type === 'test_cases_generated') {
        const data = message.data as { test_cases: TestCase[]; engine?: string; test_run_id?: string | null };
        generated = {
          test_cases: data.test_cases,
          engine: data.engine ?? 'builtin',
          test_run_id: data.test_run_id ?? null,
        };
      } else if (message.type === 'error') {
        const data = message.data as { message: string; code?: string };
        failure = { message: data.message, code: data.code ?? 'GENERATION_FAILED' };
      }
    };
    // Refusals (work already under way, a URL off the environment's address) are thrown here.
    const { done } = await automation.generate(
      user.id,
      {
        url,
        command: body.command,
        session_id: null,
        project_id: id,
        environment_id: environment.id,
      },
      send,
    );
    let over = false;
    // The client went away (a CI job cancelled): the generation stops rather than run on for nobody.
    const onClose = () => {
      if (!over && !reply.raw.writableFinished) automation.stop(user.id, () => {}).catch(() => {});
    };
    reply.raw.once('close', onClose);
    try {
      await done;
    } finally {
      over = true;
      reply.raw.off('close', onClose);
    }

    const failed = failure as { message: string; code: string } | null;
    if (failed) {
      throw new AppError(
        failed.code === 'SIGN_IN_FAILED' ? 'SIGN_IN_FAILED' : 'GENERATION_FAILED',
        failed.message,
      );
    }
    const result = generated as { test_cases: TestCase[]; engine: string; test_run_id: string | null } | null;
    if (!result || result.test_cases.length === 0) {
      throw new AppError('GENERATION_FAILED', 'The generation was stopped before it wrote any test case');
    }

    const wanted = body.suite_name.toLowerCase();
    const existing = (await projects.suites(user.id, id)).find(
      (suite) => suite.name.trim().toLowerCase() === wanted,
    );
    const mode = body.command ? 'command' : 'full';
    // The change is described by the project service (test cases added, changed, removed).
    const input = { name: existing?.name ?? body.suite_name, test_cases: result.test_cases, source_url: url };
    const suite = existing
      ? await projects.updateSuite(user, id, existing.id, input)
      : await projects.createSuite(user, id, input);
    // The generation recorded its cases as a pending run, which the automation screen would go on to run;
    // here the saved suite is what is kept (runs of it are recorded as they start), so the pending record,
    // known to no one else, would only stay in the project's Recent runs for ever.
    if (result.test_run_id) await repos.testRuns.delete(user.id, result.test_run_id).catch(() => false);
    const answer: GenerationResult = {
      suite,
      cases: result.test_cases.length,
      created: !existing,
      engine: result.engine,
      test_mode: mode,
      url,
      environment_id: environment.id,
      environment_name: environment.name,
    };
    return reply.code(201).send(answer);
  });
}
