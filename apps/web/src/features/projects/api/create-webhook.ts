import { type WebhookInput, type WebhookWithSecret, WebhookWithSecretSchema } from '@argus/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectPath } from './keys';
import { webhookKeys } from './list-webhooks';

/**
 * POST /api/projects/{id}/webhooks: a new webhook. The answer holds its signing secret, shown this
 * once; a URL the server's target policy refuses is answered 422 on `url`.
 */
export function createWebhook(projectId: string, body: WebhookInput): Promise<WebhookWithSecret> {
  return apiRequest(projectPath(projectId, 'webhooks'), { method: 'POST', body }, WebhookWithSecretSchema);
}

export function useCreateWebhook(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookInput) => createWebhook(projectId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys(projectId), exact: true }),
  });
}
