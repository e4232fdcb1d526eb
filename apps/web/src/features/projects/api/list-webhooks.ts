import { type Webhook, WebhookSchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { projectKeys, projectPath } from './keys';

const WebhookListSchema = z.array(WebhookSchema);

/** Query key of a project's webhooks; their deliveries sit under it. */
export const webhookKeys = (projectId: string) => [...projectKeys.detail(projectId), 'webhooks'] as const;

/** GET /api/projects/{id}/webhooks: the project's webhooks (never their secrets). */
export function listWebhooks(projectId: string, signal?: AbortSignal): Promise<Webhook[]> {
  return apiRequest(projectPath(projectId, 'webhooks'), { signal }, WebhookListSchema);
}

export function useWebhooks(projectId: string) {
  return useQuery({
    queryKey: webhookKeys(projectId),
    queryFn: ({ signal }) => listWebhooks(projectId, signal),
  });
}
