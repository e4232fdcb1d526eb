import { IdParamsSchema, type Schedule, ScheduleInputSchema, ScheduleUpdateSchema } from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../app-services';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

const ScheduleParamsSchema = IdParamsSchema.extend({ scheduleId: z.string().max(100) });

/** What these routes use of the app's services. */
export type ScheduleRouteServices = Pick<Services, 'schedules'>;

/**
 * A project's schedules (docs/SCHEDULES.md), under /api/projects/:id/schedules. Owner-scoped like the
 * project's other records: another user's project or schedule answers 404 like a missing one.
 */
export async function scheduleRoutes(app: FastifyInstance, { schedules }: ScheduleRouteServices) {
  app.addHook('preHandler', app.requireUser);

  app.get('/:id/schedules', async (request): Promise<Schedule[]> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    return schedules.list(currentUser(request).id, id);
  });

  app.post('/:id/schedules', async (request, reply) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const body = parseWith(ScheduleInputSchema, request.body, 'body');
    return reply.code(201).send(await schedules.create(currentUser(request).id, id, body));
  });

  app.put('/:id/schedules/:scheduleId', async (request): Promise<Schedule> => {
    const { id, scheduleId } = parseWith(ScheduleParamsSchema, request.params, 'path');
    const body = parseWith(ScheduleUpdateSchema, request.body, 'body');
    return schedules.update(currentUser(request).id, id, scheduleId, body);
  });

  app.delete('/:id/schedules/:scheduleId', async (request, reply) => {
    const { id, scheduleId } = parseWith(ScheduleParamsSchema, request.params, 'path');
    await schedules.delete(currentUser(request).id, id, scheduleId);
    return reply.code(204).send();
  });
}
