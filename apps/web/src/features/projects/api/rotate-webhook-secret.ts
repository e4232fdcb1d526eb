import { type WebhookWithSecret, WebhookWithSecretSchema } from '@argus/protocol';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { projectPath } from './keys';

/** POST /api/projects/{id}/webhooks/{webhookId}/secret: a new signing secret, shown this once. */
export function rotateWebhookSecret(projectId: string, webhookId: string): Promise<WebhookWithSecret> {
  return apiRequest(
    projectPath(projectId, 'webhooks', webhookId, 'secret'),
    { method: 'POST' },
    WebhookWithSecretSchema,
  );
}

export function useRotateWebhookSecret(projectId: string) {
  return useMutation({ mutationFn: (webhookId: string) => rotateWebhookSecret(projectId, webhookId) });
}
