import type { Repositories, WebhookDeliveryRow, WebhookRow } from '@argus/db';
import { WEBHOOK_HEADERS } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Secrets } from '../security/secrets';
import { signDelivery, webhookSecretContext } from './delivery-signing';

// The delivery work: every attempt of a delivery is claimed in the database (one process sends it),
// signed with the webhook's secret, and retried with exponential backoff until it is answered 2xx or
// WEBHOOK_MAX_ATTEMPTS is reached.

/** The wait before the retry that follows attempt `attempt` (1-based): base, 2×base, 4×base… */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return baseMs * 2 ** Math.max(0, attempt - 1);
}

/** A URL as it may be logged or shown in an error: its origin only (Slack's path is its secret). */
export function loggableUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}

/** Why an attempt failed, in words that never carry the webhook's URL beyond its origin. */
function describeFailure(error: unknown, url: string): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  let text =
    error instanceof Error
      ? error.name === 'TimeoutError'
        ? 'The receiver did not answer in time'
        : cause?.code
          ? `${error.message} (${cause.code})`
          : cause?.message
            ? `${error.message}: ${cause.message}`
            : error.message
      : String(error);
  if (url) text = text.split(url).join(loggableUrl(url));
  return text.slice(0, 500);
}

export interface DeliveryDeps {
  config: Pick<Config, 'webhookRetryBaseMs' | 'webhookMaxAttempts' | 'webhookTimeoutMs'>;
  repos: Pick<Repositories, 'webhooks'>;
  secrets: Secrets;
  /** How deliveries go out: `policyFetch` over the target policy, so the address is judged again at each connection. */
  fetch: typeof globalThis.fetch;
  log: FastifyBaseLogger;
  /** @default () => new Date() */
  now?: () => Date;
}

/**
 * The attempts of deliveries under way in this process, their retry timers, and the sweep that starts
 * those left due by another process or a restart.
 */
export class Deliveries {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;
  /** Aborts the attempts under way when the server stops (they are recorded as failed, to be retried). */
  private readonly closing = new AbortController();

  constructor(private readonly deps: DeliveryDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * The scheduler's sweep: starts an attempt of every delivery due by `now` (left by a restart or
   * another process) and answers without waiting for the receivers.
   */
  async deliverDue(now: Date): Promise<void> {
    if (this.closed) return;
    const ids = await this.deps.repos.webhooks.dueDeliveries(now);
    for (const id of ids) this.start(id);
  }

  /** Starts an attempt of a delivery now, not waiting for it. */
  start(id: string): void {
    if (this.closed) return;
    void this.track(this.attempt(id));
  }

  private track(work: Promise<void>): Promise<void> {
    const guarded = work.catch((error: unknown) => this.deps.log.error({ err: error }, 'webhook delivery'));
    this.inFlight.add(guarded);
    void guarded.finally(() => this.inFlight.delete(guarded));
    return guarded;
  }

  private later(id: string, at: Date): void {
    if (this.closed) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.start(id);
      },
      Math.max(0, at.getTime() - Date.now()) + 5,
    );
    timer.unref();
    this.timers.add(timer);
  }

  /** One attempt of a delivery, if it is still due and no other process took it. */
  async attempt(id: string): Promise<void> {
    const { repos, config, secrets, log } = this.deps;
    const now = this.now();
    // The claim lapses after the attempt's timeout and a margin: a process that died mid-attempt
    // leaves the delivery to the next sweep.
    const claimed = await repos.webhooks.claimDelivery(
      id,
      now,
      new Date(now.getTime() + config.webhookTimeoutMs + 30_000),
    );
    if (!claimed) return;
    const hook = await repos.webhooks.byId(claimed.webhook_id);
    if (!hook) return;
    if (!hook.enabled) {
      // Paused since the delivery was made: nothing more is sent to it.
      await repos.webhooks.finishAttempt(id, {
        status: 'failed',
        last_error: 'The webhook was paused before this attempt',
        next_attempt_at: null,
      });
      return;
    }
    let outcome: { ok: true; code: number } | { ok: false; code: number | null; error: string };
    try {
      const secret = secrets.decrypt(hook.secret_enc, webhookSecretContext(hook.id));
      outcome = await this.send(hook, claimed, secret);
    } catch (error) {
      outcome = { ok: false, code: null, error: describeFailure(error, hook.url) };
    }
    if (outcome.ok) {
      await repos.webhooks.finishAttempt(id, {
        status: 'delivered',
        response_code: outcome.code,
        last_error: null,
        next_attempt_at: null,
        delivered_at: this.now(),
      });
      return;
    }
    const last = claimed.attempts >= config.webhookMaxAttempts;
    const next = last
      ? null
      : new Date(this.now().getTime() + retryDelayMs(claimed.attempts, config.webhookRetryBaseMs));
    log.info(
      {
        delivery: id,
        webhook: hook.id,
        to: loggableUrl(hook.url),
        attempt: claimed.attempts,
        code: outcome.code,
      },
      last ? 'webhook delivery failed for good' : 'webhook delivery failed; retrying',
    );
    await repos.webhooks.finishAttempt(id, {
      status: last ? 'failed' : 'pending',
      response_code: outcome.code,
      last_error: outcome.error,
      next_attempt_at: next,
    });
    if (next) this.later(id, next);
  }

  private async send(
    hook: WebhookRow,
    delivery: WebhookDeliveryRow,
    secret: string,
  ): Promise<{ ok: true; code: number } | { ok: false; code: number; error: string }> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const response = await this.deps.fetch(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Argus-Webhooks/1',
        [WEBHOOK_HEADERS.signature]: signDelivery(secret, timestamp, delivery.body),
        [WEBHOOK_HEADERS.timestamp]: timestamp,
        [WEBHOOK_HEADERS.delivery]: delivery.id,
        [WEBHOOK_HEADERS.event]: delivery.event,
      },
      body: delivery.body,
      signal: AbortSignal.any([AbortSignal.timeout(this.deps.config.webhookTimeoutMs), this.closing.signal]),
    });
    // Only the status matters; the body is not read.
    await response.body?.cancel().catch(() => {});
    if (response.ok) return { ok: true, code: response.status };
    return { ok: false, code: response.status, error: `The receiver answered ${response.status}` };
  }

  /** Stops the retry timers and waits (briefly) for attempts under way; what is left stays due in the database. */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort(new Error('The server stopped during the attempt'));
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => setTimeout(resolve, 2000).unref()),
    ]);
  }
}
