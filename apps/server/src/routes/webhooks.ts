import {
  IdParamsSchema,
  WebhookDeliverySchema,
  WebhookInputSchema,
  WebhookSchema,
  WebhookUpdateSchema,
  WebhookWithSecretSchema,
} from '@argus/protocol';
import { z } from 'zod';
import type { Services } from '../app-services';
import { audit } from '../audit/recorder';
import { routeGroup, routeOf, routePlugin } from './route-group';

const WebhookParamsSchema = IdParamsSchema.extend({ webhookId: z.string().max(100) });
const DeliveriesQuerySchema = z.object({ webhook_id: z.string().max(100).optional() });

/** What these routes use of the app's services. */
export type WebhookRouteServices = Pick<Services, 'notifications'>;

/**
 * A project's webhooks and their deliveries (docs/SCHEDULES.md#notifications), under
 * /api/projects/:id/webhooks. A webhook's signing secret is answered once: when it is created, and
 * when it is rotated. A URL the target policy refuses (ALLOWED_TARGETS) is refused with 422.
 */
const route = routeOf<WebhookRouteServices>();

export const WEBHOOK_ROUTES = routeGroup('/api/projects', [
  route({
    method: 'GET',
    path: '/:id/webhooks',
    summary: "The project's webhooks (never their secrets)",
    tag: 'Schedules',
    params: IdParamsSchema,
    response: z.array(WebhookSchema),
    handle: async ({ org, params }, { notifications }) => notifications.list(org.id, params.id),
  }),
  route({
    method: 'POST',
    path: '/:id/webhooks',
    summary: 'Add a webhook (its URL held to the target policy); answers its signing secret, this once',
    tag: 'Schedules',
    params: IdParamsSchema,
    body: WebhookInputSchema,
    status: 201,
    response: WebhookWithSecretSchema,
    handle: async ({ org, request, params, body }, { notifications }) =>
      audit.after(request, notifications.create(org.id, params.id, body), (w) =>
        webhookEvent(params.id, w.id, 'created', w.name),
      ),
  }),
  // Declared before /:webhookId so 'deliveries' is never read as an id.
  route({
    method: 'GET',
    path: '/:id/webhooks/deliveries',
    summary: "The latest deliveries of the project's webhooks (?webhook_id=), with their status",
    tag: 'Schedules',
    params: IdParamsSchema,
    query: DeliveriesQuerySchema,
    response: z.array(WebhookDeliverySchema),
    handle: async ({ org, params, query }, { notifications }) =>
      notifications.deliveries(org.id, params.id, query.webhook_id),
  }),
  route({
    method: 'PUT',
    path: '/:id/webhooks/:webhookId',
    summary: "Change a webhook's name, URL, format, events, or pause it",
    tag: 'Schedules',
    params: WebhookParamsSchema,
    body: WebhookUpdateSchema,
    response: WebhookSchema,
    handle: async ({ org, request, params, body }, { notifications }) =>
      audit.after(request, notifications.update(org.id, params.id, params.webhookId, body), (w) =>
        webhookEvent(params.id, w.id, 'changed', w.name),
      ),
  }),
  route({
    method: 'DELETE',
    path: '/:id/webhooks/:webhookId',
    summary: 'Delete a webhook and its deliveries',
    tag: 'Schedules',
    params: WebhookParamsSchema,
    status: 204,
    handle: async ({ org, request, params }, { notifications }) => {
      await notifications.delete(org.id, params.id, params.webhookId);
      await audit.record(request, webhookEvent(params.id, params.webhookId, 'deleted', null));
    },
  }),
  route({
    method: 'POST',
    path: '/:id/webhooks/:webhookId/secret',
    summary: "Rotate a webhook's signing secret; answers the new one, this once",
    tag: 'Schedules',
    params: WebhookParamsSchema,
    response: WebhookWithSecretSchema,
    handle: async ({ org, request, params }, { notifications }) =>
      audit.after(request, notifications.rotateSecret(org.id, params.id, params.webhookId), (w) =>
        webhookEvent(params.id, w.id, 'secret_rotated', w.name),
      ),
  }),
  // 'Send test': a test delivery, sent at once; answers it (202) as it stands before its first attempt.
  route({
    method: 'POST',
    path: '/:id/webhooks/:webhookId/test',
    summary: 'Send a signed test delivery (202, the delivery)',
    tag: 'Schedules',
    params: WebhookParamsSchema,
    status: 202,
    response: WebhookDeliverySchema,
    handle: async ({ org, params }, { notifications }) =>
      notifications.sendTest(org.id, params.id, params.webhookId),
  }),
]);

/** A webhook's change as the audit log records it (never its secret). */
function webhookEvent(projectId: string, id: string, change: string, name: string | null) {
  return { action: 'webhook_changed', projectId, target: name, detail: { webhook_id: id, change } } as const;
}

export const webhookRoutes = routePlugin(WEBHOOK_ROUTES);
