import { IdParamsSchema, ScheduleInputSchema, ScheduleSchema, ScheduleUpdateSchema } from '@argus/protocol';
import { z } from 'zod';
import type { Services } from '../app-services';
import { audit } from '../audit/recorder';
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
    handle: async ({ org, params }, { schedules }) => schedules.list(org.id, params.id),
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
    handle: async ({ org, request, params, body }, { schedules }) =>
      audit.after(request, schedules.create(org.id, params.id, body), (s) =>
        scheduleEvent(params.id, s.id, 'created', s.suite_name),
      ),
  }),
  route({
    method: 'PUT',
    path: '/:id/schedules/:scheduleId',
    summary: "Change a schedule's times, zone, environment, or pause it",
    tag: 'Schedules',
    params: ScheduleParamsSchema,
    body: ScheduleUpdateSchema,
    response: ScheduleSchema,
    handle: async ({ org, request, params, body }, { schedules }) =>
      audit.after(request, schedules.update(org.id, params.id, params.scheduleId, body), (s) =>
        scheduleEvent(params.id, s.id, 'changed', s.suite_name),
      ),
  }),
  route({
    method: 'DELETE',
    path: '/:id/schedules/:scheduleId',
    summary: 'Delete a schedule',
    tag: 'Schedules',
    params: ScheduleParamsSchema,
    status: 204,
    handle: async ({ org, request, params }, { schedules }) => {
      await schedules.delete(org.id, params.id, params.scheduleId);
      await audit.record(request, scheduleEvent(params.id, params.scheduleId, 'deleted', null));
    },
  }),
]);

/** A schedule's change as the audit log records it (docs/ORGANIZATIONS.md#audit-log). */
function scheduleEvent(projectId: string, id: string, change: string, suite: string | null) {
  return {
    action: 'schedule_changed',
    projectId,
    target: suite,
    detail: { schedule_id: id, change },
  } as const;
}

export const scheduleRoutes = routePlugin(SCHEDULE_ROUTES);
