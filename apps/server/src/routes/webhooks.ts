import {
  IdParamsSchema,
  type Webhook,
  type WebhookDelivery,
  WebhookInputSchema,
  WebhookUpdateSchema,
  type WebhookWithSecret,
} from '@argus/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../app-services';
import { currentUser } from '../plugins/authenticate';
import { parseWith } from '../validation';

const WebhookParamsSchema = IdParamsSchema.extend({ webhookId: z.string().max(100) });
const DeliveriesQuerySchema = z.object({ webhook_id: z.string().max(100).optional() });

/** What these routes use of the app's services. */
export type WebhookRouteServices = Pick<Services, 'notifications'>;

/**
 * A project's webhooks and their deliveries (docs/SCHEDULES.md#notifications), under
 * /api/projects/:id/webhooks. A webhook's signing secret is answered once: when it is created, and
 * when it is rotated. A URL the target policy refuses (ALLOWED_TARGETS) is refused with 422.
 */
export async function webhookRoutes(app: FastifyInstance, { notifications }: WebhookRouteServices) {
  app.addHook('preHandler', app.requireUser);

  app.get('/:id/webhooks', async (request): Promise<Webhook[]> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    return notifications.list(currentUser(request).id, id);
  });

  app.post('/:id/webhooks', async (request, reply) => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const body = parseWith(WebhookInputSchema, request.body, 'body');
    const created: WebhookWithSecret = await notifications.create(currentUser(request).id, id, body);
    return reply.code(201).send(created);
  });

  // Declared before /:webhookId so 'deliveries' is never read as an id.
  app.get('/:id/webhooks/deliveries', async (request): Promise<WebhookDelivery[]> => {
    const { id } = parseWith(IdParamsSchema, request.params, 'path');
    const query = parseWith(DeliveriesQuerySchema, request.query, 'query');
    return notifications.deliveries(currentUser(request).id, id, query.webhook_id);
  });

  app.put('/:id/webhooks/:webhookId', async (request): Promise<Webhook> => {
    const { id, webhookId } = parseWith(WebhookParamsSchema, request.params, 'path');
    const body = parseWith(WebhookUpdateSchema, request.body, 'body');
    return notifications.update(currentUser(request).id, id, webhookId, body);
  });

  app.delete('/:id/webhooks/:webhookId', async (request, reply) => {
    const { id, webhookId } = parseWith(WebhookParamsSchema, request.params, 'path');
    await notifications.delete(currentUser(request).id, id, webhookId);
    return reply.code(204).send();
  });

  app.post('/:id/webhooks/:webhookId/secret', async (request): Promise<WebhookWithSecret> => {
    const { id, webhookId } = parseWith(WebhookParamsSchema, request.params, 'path');
    return notifications.rotateSecret(currentUser(request).id, id, webhookId);
  });

  // 'Send test': a test delivery, sent at once; answers it (202) as it stands before its first attempt.
  app.post('/:id/webhooks/:webhookId/test', async (request, reply) => {
    const { id, webhookId } = parseWith(WebhookParamsSchema, request.params, 'path');
    return reply.code(202).send(await notifications.sendTest(currentUser(request).id, id, webhookId));
  });
}
