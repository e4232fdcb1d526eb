import { type Webhook, WebhookSchema, type WebhookUpdate } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectPath } from './keys';
import { webhookKeys } from './list-webhooks';

/** PUT /api/projects/{id}/webhooks/{webhookId}: its name, URL, format, events, or on/off. */
export function updateWebhook(projectId: string, webhookId: string, body: WebhookUpdate): Promise<Webhook> {
  return apiRequest(projectPath(projectId, 'webhooks', webhookId), { method: 'PUT', body }, WebhookSchema);
}

export function useUpdateWebhook(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: WebhookUpdate }) => updateWebhook(projectId, id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys(projectId), exact: true }),
  });
}
