import { type WebhookDelivery, WebhookDeliverySchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectPath } from './keys';
import { deliveryKeys } from './list-deliveries';

/** POST /api/projects/{id}/webhooks/{webhookId}/test: a signed test delivery, sent at once (202). */
export function testWebhook(projectId: string, webhookId: string): Promise<WebhookDelivery> {
  return apiRequest(
    projectPath(projectId, 'webhooks', webhookId, 'test'),
    { method: 'POST' },
    WebhookDeliverySchema,
  );
}

export function useTestWebhook(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => testWebhook(projectId, webhookId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveryKeys(projectId) }),
  });
}
