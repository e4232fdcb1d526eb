import { type DemoRequestResponse, DemoRequestResponseSchema, DemoRequestSchema } from '@argus/protocol';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type DemoRequestRouteServices = Pick<Services, 'repos'> & {
  limits: Pick<Services['limits'], 'demoRequestsPerIp'>;
};

/** The landing page's demo form (our own endpoint instead of a third-party service: docs/ARCHITECTURE.md#departures-from-the-spec-and-why). */
const route = routeOf<DemoRequestRouteServices>();

export const DEMO_REQUEST_ROUTES = routeGroup('/api/demo-requests', [
  route({
    method: 'POST',
    path: '/',
    summary: 'Request a demo (landing page)',
    tag: 'System',
    auth: 'none',
    body: DemoRequestSchema,
    lazyBody: true,
    status: 201,
    response: DemoRequestResponseSchema,
    handle: async (input, services) => {
      const { request } = input;
      const { allowed, retryAfterSeconds } = await services.limits.demoRequestsPerIp.hit(request.ip);
      if (!allowed)
        throw new AppError('RATE_LIMITED', undefined, { 'retry-after': String(retryAfterSeconds) });
      const row = await services.repos.demoRequests.create({ ...input.body, client_ip: request.ip });
      request.log.info({ demoRequestId: row.id }, 'demo request stored');
      const answer: DemoRequestResponse = { success: true, id: row.id, message: 'Demo request received' };
      return answer;
    },
  }),
]);

export const demoRequestRoutes = routePlugin(DEMO_REQUEST_ROUTES);
