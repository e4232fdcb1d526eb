import { type WebhookDelivery, WebhookDeliverySchema } from '@argus/protocol';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { projectPath } from './keys';
import { webhookKeys } from './list-webhooks';

const DeliveryListSchema = z.array(WebhookDeliverySchema);

export const deliveryKeys = (projectId: string) => [...webhookKeys(projectId), 'deliveries'] as const;

/** GET /api/projects/{id}/webhooks/deliveries: the latest deliveries, newest first, with their status. */
export function listDeliveries(projectId: string, signal?: AbortSignal): Promise<WebhookDelivery[]> {
  return apiRequest(projectPath(projectId, 'webhooks', 'deliveries'), { signal }, DeliveryListSchema);
}

/** How often the list is read again while a delivery is waiting for an attempt. */
const PENDING_REFRESH_MS = 3000;

export function useDeliveries(projectId: string) {
  return useQuery({
    queryKey: deliveryKeys(projectId),
    queryFn: ({ signal }) => listDeliveries(projectId, signal),
    refetchInterval: (query) =>
      query.state.data?.some((one) => one.status === 'pending' || one.status === 'delivering')
        ? PENDING_REFRESH_MS
        : false,
  });
}
