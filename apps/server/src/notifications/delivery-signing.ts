import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// A webhook's signing secret and the signature each attempt carries (docs/SCHEDULES.md#verifying-a-delivery).

/** The context a webhook's secret is encrypted under: a ciphertext copied to another webhook does not open. */
export const webhookSecretContext = (webhookId: string) => `webhook_secret:${webhookId}`;

/** A new signing secret: 32 random bytes, shown once. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`: the X-Argus-Signature of one attempt. */
export function signDelivery(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does (docs/SCHEDULES.md#verifying-a-delivery): a constant-time comparison. */
export function verifyDelivery(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(signDelivery(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
