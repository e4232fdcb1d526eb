import { type DemoRequestResponse, DemoRequestSchema } from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../app-services';
import { AppError } from '../errors';
import { parseWith } from '../validation';

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type DemoRequestRouteServices = Pick<Services, 'repos'> & {
  limits: Pick<Services['limits'], 'demoRequestsPerIp'>;
};

/** The landing page's demo form (our own endpoint instead of a third-party service: docs/ARCHITECTURE.md#departures-from-the-spec-and-why). */
export async function demoRequestRoutes(app: FastifyInstance, services: DemoRequestRouteServices) {
  app.post('/api/demo-requests', async (request, reply) => {
    const { allowed, retryAfterSeconds } = await services.limits.demoRequestsPerIp.hit(request.ip);
    if (!allowed) throw new AppError('RATE_LIMITED', undefined, { 'retry-after': String(retryAfterSeconds) });
    const body = parseWith(DemoRequestSchema, request.body, 'body');
    const row = await services.repos.demoRequests.create({ ...body, client_ip: request.ip });
    request.log.info({ demoRequestId: row.id }, 'demo request stored');
    const answer: DemoRequestResponse = { success: true, id: row.id, message: 'Demo request received' };
    return reply.code(201).send(answer);
  });
}
