import { suiteComparisonsRepository } from '@argus/db';
import {
  AcceptComparisonSchema,
  RegenerateRequestSchema,
  SavedSuiteSchema,
  SuiteComparisonSchema,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../app-services';
import { suiteSaved } from '../audit/project-events';
import { audit } from '../audit/recorder';
import { SuiteCompareService } from '../suite-compare/suite-compare-service';
import { generate } from './generations';
import { SuiteParamsSchema } from './projects';
import { mountRoutes, routeGroup, routeOf } from './route-group';

/** What these routes use of the app's services (app.ts hands the plugin only these). */
export type SuiteComparisonRouteServices = Pick<Services, 'projects' | 'automation' | 'repos' | 'db'>;

interface Deps {
  automation: Services['automation'];
  projects: Services['projects'];
  compare: SuiteCompareService;
}

const ComparisonParamsSchema = SuiteParamsSchema.extend({ comparisonId: z.string().max(100) });

/**
 * Regenerate and compare (docs/REPAIRS.md#regenerate-and-compare): a generation on an environment whose
 * cases are matched to a saved suite's by the behaviour they test, stored for review (nothing is saved
 * to the suite), and the changes chosen saved as one new version. Organization-scoped like every project
 * route: another organization's project, suite or comparison answers 404 with its code.
 */
const route = routeOf<Deps>();

export const SUITE_COMPARISON_ROUTES = routeGroup('/api/projects', [
  // A generation, as POST /:id/generations runs it (waiting its turn, minutes), but nothing is saved.
  // A `run` token may call it (CI's `argus generate --compare`); the role is one that may save suites.
  route({
    method: 'POST',
    path: '/:id/suites/:suiteId/regenerate',
    summary:
      'Generate on an environment and compare with a saved suite by behaviour (added, removed, changed, unchanged): answers when the generation is over (minutes); saves nothing',
    tag: 'Suites',
    scope: 'run',
    params: SuiteParamsSchema,
    body: RegenerateRequestSchema,
    status: 201,
    response: SuiteComparisonSchema,
    handle: async ({ reply, user, org, params, body }, { automation, projects, compare }) => {
      // The suite and environment are the organization's, or this is 404 before anything starts.
      const suite = await projects.getSuite(org.id, params.id, params.suiteId);
      const { environment } = await projects.target(org.id, params.id, body.environment_id);
      const generated = await generate(
        automation,
        reply,
        { userId: user.id, orgId: org.id },
        {
          url: environment.base_url,
          command: undefined,
          session_id: null,
          project_id: params.id,
          environment_id: environment.id,
        },
      );
      return compare.compare(org.id, user, suite, environment, generated);
    },
  }),
  route({
    method: 'GET',
    path: '/:id/suites/:suiteId/comparisons/:comparisonId',
    summary: 'A comparison of a regenerated suite with the saved one',
    tag: 'Suites',
    params: ComparisonParamsSchema,
    response: SuiteComparisonSchema,
    handle: async ({ org, params }, { compare }) =>
      compare.get(org.id, params.id, params.suiteId, params.comparisonId),
  }),
  route({
    method: 'POST',
    path: '/:id/suites/:suiteId/comparisons/:comparisonId/accept',
    summary:
      'Save the chosen changes of a comparison as one new version of the suite (409 when it was saved since the compared version)',
    tag: 'Suites',
    params: ComparisonParamsSchema,
    body: AcceptComparisonSchema,
    response: SavedSuiteSchema,
    handle: async ({ request, user, org, params, body }, { compare }) =>
      audit.after(
        request,
        compare.accept(org.id, user, params.id, params.suiteId, params.comparisonId, body.keys),
        suiteSaved,
      ),
  }),
]);

/** The plugin: the comparisons' repository over the app's database, the service over it. */
export async function suiteComparisonRoutes(
  app: FastifyInstance,
  { projects, automation, repos, db }: SuiteComparisonRouteServices,
): Promise<void> {
  const comparisons = suiteComparisonsRepository(db.orm);
  const compare = new SuiteCompareService({ projects, repos, comparisons });
  mountRoutes(app, SUITE_COMPARISON_ROUTES, { automation, projects, compare });
}
