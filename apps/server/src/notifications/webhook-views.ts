import type { DeliveryListing, WebhookRow } from '@argus/db';
import type { DeliveryStatus, Webhook, WebhookDelivery, WebhookEvent, WebhookFormat } from '@argus/protocol';

// A project's webhooks and their deliveries, as the API shows them (never the signing secret).

export function toApiWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    url: row.url,
    format: row.format as WebhookFormat,
    events: row.events as WebhookEvent[],
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
  };
}

export function toApiDelivery({ delivery, webhook_name }: DeliveryListing): WebhookDelivery {
  return {
    id: delivery.id,
    webhook_id: delivery.webhook_id,
    webhook_name,
    test_run_id: delivery.test_run_id,
    event: delivery.event,
    status: delivery.status as DeliveryStatus,
    attempts: delivery.attempts,
    response_code: delivery.response_code,
    last_error: delivery.last_error,
    next_attempt_at: delivery.status === 'pending' ? (delivery.next_attempt_at?.toISOString() ?? null) : null,
    delivered_at: delivery.delivered_at?.toISOString() ?? null,
    created_at: delivery.created_at.toISOString(),
  };
}
