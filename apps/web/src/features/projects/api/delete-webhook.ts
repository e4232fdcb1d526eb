import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectPath } from './keys';
import { webhookKeys } from './list-webhooks';

/** DELETE /api/projects/{id}/webhooks/{webhookId} (204); its deliveries go with it. */
export async function deleteWebhook(projectId: string, webhookId: string): Promise<void> {
  await apiRequest(projectPath(projectId, 'webhooks', webhookId), { method: 'DELETE' });
}

export function useDeleteWebhook(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => deleteWebhook(projectId, webhookId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys(projectId) }),
  });
}
