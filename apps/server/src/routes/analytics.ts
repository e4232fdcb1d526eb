import { type Analytics, AnalyticsQuerySchema } from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type AnalyticsRouteServices = Pick<Services, 'analytics'>;

/** Analytics over a range of the user's history (docs/HISTORY.md#analytics), computed in SQL. */
export async function analyticsRoutes(app: FastifyInstance, services: AnalyticsRouteServices) {
  const { analytics } = services;
  app.addHook('preHandler', app.requireUser);

  app.get('/', async (request): Promise<Analytics> => {
    const query = parseWith(AnalyticsQuerySchema, request.query, 'query');
    return analytics.analytics(currentUser(request).id, query);
  });
}
