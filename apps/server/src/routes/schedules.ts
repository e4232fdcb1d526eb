import { IdParamsSchema, ScheduleInputSchema, ScheduleSchema, ScheduleUpdateSchema } from '@argus/protocol';
import { z } from 'zod';
import type { Services } from '../app-services';
import { routeGroup, routeOf, routePlugin } from './route-group';

const ScheduleParamsSchema = IdParamsSchema.extend({ scheduleId: z.string().max(100) });

/** What these routes use of the app's services. */
export type ScheduleRouteServices = Pick<Services, 'schedules'>;

/**
 * A project's schedules (docs/SCHEDULES.md), under /api/projects/:id/schedules. Owner-scoped like the
 * project's other records: another user's project or schedule answers 404 like a missing one.
 */
const route = routeOf<ScheduleRouteServices>();

export const SCHEDULE_ROUTES = routeGroup('/api/projects', [
  route({
    method: 'GET',
    path: '/:id/schedules',
    summary: "The project's schedules, with their next and last due times",
    tag: 'Schedules',
    params: IdParamsSchema,
    response: z.array(ScheduleSchema),
    handle: async ({ user, params }, { schedules }) => schedules.list(user.id, params.id),
  }),
  route({
    method: 'POST',
    path: '/:id/schedules',
    summary: 'Schedule a saved suite on an environment (a preset or a cron expression, in a time zone)',
    tag: 'Schedules',
    params: IdParamsSchema,
    body: ScheduleInputSchema,
    status: 201,
    response: ScheduleSchema,
    handle: async ({ user, params, body }, { schedules }) => schedules.create(user.id, params.id, body),
  }),
  route({
    method: 'PUT',
    path: '/:id/schedules/:scheduleId',
    summary: "Change a schedule's times, zone, environment, or pause it",
    tag: 'Schedules',
    params: ScheduleParamsSchema,
    body: ScheduleUpdateSchema,
    response: ScheduleSchema,
    handle: async ({ user, params, body }, { schedules }) =>
      schedules.update(user.id, params.id, params.scheduleId, body),
  }),
  route({
    method: 'DELETE',
    path: '/:id/schedules/:scheduleId',
    summary: 'Delete a schedule',
    tag: 'Schedules',
    params: ScheduleParamsSchema,
    status: 204,
    handle: async ({ user, params }, { schedules }) => {
      await schedules.delete(user.id, params.id, params.scheduleId);
    },
  }),
]);

export const scheduleRoutes = routePlugin(SCHEDULE_ROUTES);
