import { AnalyticsQuerySchema, AnalyticsSchema } from '@argus/protocol';
import type { Services } from '../app-services';
import { heavy } from '../limits/heavy-requests';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type AnalyticsRouteServices = Pick<Services, 'analytics' | 'limits'>;

/** Analytics over a range of the user's history (docs/HISTORY.md#analytics), computed in SQL. */
const route = routeOf<AnalyticsRouteServices>();

export const ANALYTICS_ROUTES = routeGroup('/api/analytics', [
  // Heavy: HEAVY_REQUESTS_PER_USER at once per user (limits/heavy-requests.ts).
  heavy(
    route({
      method: 'GET',
      path: '/',
      summary:
        'Pass rate, durations, slowest tests, failing steps, flaky tests, model cost and design scores over a range',
      tag: 'History',
      query: AnalyticsQuerySchema,
      response: AnalyticsSchema,
      handle: async ({ org, query }, { analytics }) => analytics.analytics(org.id, query),
    }),
  ),
]);

export const analyticsRoutes = routePlugin(ANALYTICS_ROUTES);
