import { AnalyticsQuerySchema, AnalyticsSchema } from '@argus/protocol';
import type { Services } from '../app-services';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type AnalyticsRouteServices = Pick<Services, 'analytics'>;

/** Analytics over a range of the user's history (docs/HISTORY.md#analytics), computed in SQL. */
const route = routeOf<AnalyticsRouteServices>();

export const ANALYTICS_ROUTES = routeGroup('/api/analytics', [
  route({
    method: 'GET',
    path: '/',
    summary:
      'Pass rate, durations, slowest tests, failing steps, flaky tests, model cost and design scores over a range',
    tag: 'History',
    query: AnalyticsQuerySchema,
    response: AnalyticsSchema,
    handle: async ({ user, query }, { analytics }) => analytics.analytics(user.id, query),
  }),
]);

export const analyticsRoutes = routePlugin(ANALYTICS_ROUTES);
