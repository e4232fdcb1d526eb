import type { UserRow } from '@argus/db';
import {
  GenerationRequestSchema,
  type GenerationResult,
  GenerationResultSchema,
  IdParamsSchema,
  type ServerMessageInput,
  type TestCase,
} from '@argus/protocol';
import type { FastifyReply } from 'fastify';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type GenerationRouteServices = Pick<Services, 'projects' | 'automation' | 'repos'>;

export type Generated = { test_cases: TestCase[]; engine: string; test_run_id: string | null };

/** What the generation says, as the socket handler's `send` would carry it to the screens. */
function generationListener() {
  const heard: { generated: Generated | null; failure: { message: string; code: string } | null } = {
    generated: null,
    failure: null,
  };
  const send = (message: ServerMessageInput) => {
    if (message.type === 'test_cases_generated') {
      const data = message.data as { test_cases: TestCase[]; engine?: string; test_run_id?: string | null };
      heard.generated = {
        test_cases: data.test_cases,
        engine: data.engine ?? 'builtin',
        test_run_id: data.test_run_id ?? null,
      };
    } else if (message.type === 'error') {
      const data = message.data as { message: string; code?: string };
      heard.failure = { message: data.message, code: data.code ?? 'GENERATION_FAILED' };
    }
  };
  return { heard, send };
}

/** Runs the generation to its end, stopping it if the client goes away (a CI job cancelled). */
export async function generate(
  automation: GenerationRouteServices['automation'],
  reply: FastifyReply,
  actor: Parameters<GenerationRouteServices['automation']['generate']>[0],
  request: Parameters<GenerationRouteServices['automation']['generate']>[1],
): Promise<Generated> {
  const { heard, send } = generationListener();
  const { userId } = actor;
  // Refusals (a URL off the environment's address) are thrown here; work going waits its turn.
  const { done } = await automation.generate(actor, request, send);
  let over = false;
  // The generation stops rather than run on for nobody.
  const onClose = () => {
    if (!over && !reply.raw.writableFinished) automation.stop(userId, () => {}).catch(() => {});
  };
  reply.raw.once('close', onClose);
  try {
    await done;
  } finally {
    over = true;
    reply.raw.off('close', onClose);
  }
  const failed = heard.failure;
  if (failed) {
    throw new AppError(
      failed.code === 'SIGN_IN_FAILED' ? 'SIGN_IN_FAILED' : 'GENERATION_FAILED',
      failed.message,
    );
  }
  const result = heard.generated;
  if (!result || result.test_cases.length === 0) {
    throw new AppError('GENERATION_FAILED', 'The generation was stopped before it wrote any test case');
  }
  return result;
}

/** The generated cases as a suite of the project: a new one, or the next version of the suite of that name. */
async function saveSuite(
  { projects, repos }: GenerationRouteServices,
  orgId: string,
  user: UserRow,
  projectId: string,
  suiteName: string,
  url: string,
  result: Generated,
) {
  const wanted = suiteName.toLowerCase();
  const existing = (await projects.suites(orgId, projectId)).find(
    (suite) => suite.name.trim().toLowerCase() === wanted,
  );
  // The change is described by the project service (test cases added, changed, removed), as generated.
  const input = {
    name: existing?.name ?? suiteName,
    test_cases: result.test_cases,
    source_url: url,
    written_by: 'Generated' as const,
  };
  const suite = existing
    ? await projects.updateSuite(orgId, user, projectId, existing.id, input)
    : await projects.createSuite(orgId, user, projectId, input);
  // The generation recorded its cases as a pending run, which the automation screen would go on to run;
  // here the saved suite is what is kept (runs of it are recorded as they start), so the pending record,
  // known to no one else, would only stay in the project's Recent runs for ever.
  if (result.test_run_id) await repos.testRuns.delete(orgId, result.test_run_id).catch(() => false);
  return { suite, created: !existing };
}

/**
 * `POST /api/projects/{id}/generations` (docs/CI.md#generating-a-suite-from-ci): a generation on one of
 * the project's environments, run through the same AutomationService.generate the automation screen's
 * socket uses, its cases saved as a suite of the project (a new one, or the next version of the suite of
 * that name), relative to the environment. The request waits for the generation (up to the explorer's
 * budgets plus the planner: minutes) and answers 201 with the suite. A client that goes away stops it.
 * Owner-scoped like every project route; an API token needs the `run` scope (it starts work).
 */
const route = routeOf<GenerationRouteServices>();

export const GENERATION_ROUTES = routeGroup('/api/projects', [
  route({
    method: 'POST',
    path: '/:id/generations',
    summary:
      'Generate a suite on an environment and save it under a name (new, or its next version): answers when the generation is over (minutes)',
    tag: 'Suites',
    scope: 'run',
    params: IdParamsSchema,
    body: GenerationRequestSchema,
    status: 201,
    response: GenerationResultSchema,
    handle: async ({ reply, user, org, params, body }, services): Promise<GenerationResult> => {
      const { id } = params;
      // The project and environment are the user's, or this is 404 before anything starts.
      const { environment } = await services.projects.target(org.id, id, body.environment_id);
      const url = !body.url
        ? environment.base_url
        : body.url.startsWith('/')
          ? new URL(body.url, environment.base_url).href
          : body.url;
      const actor = { userId: user.id, orgId: org.id };
      const result = await generate(services.automation, reply, actor, {
        url,
        command: body.command,
        session_id: null,
        project_id: id,
        environment_id: environment.id,
      });
      const { suite, created } = await saveSuite(services, org.id, user, id, body.suite_name, url, result);
      return {
        suite,
        cases: result.test_cases.length,
        created,
        engine: result.engine,
        test_mode: body.command ? 'command' : 'full',
        url,
        environment_id: environment.id,
        environment_name: environment.name,
      };
    },
  }),
]);

export const generationRoutes = routePlugin(GENERATION_ROUTES);
