import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { DeliveryListing, Repositories, TestRunRow, WebhookDeliveryRow, WebhookRow } from '@argus/db';
import type { TargetPolicy } from '@argus/engine';
import {
  type DeliveryEvent,
  type DeliveryStatus,
  WEBHOOK_HEADERS,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookFormat,
  type WebhookInputSchema,
  type WebhookUpdateSchema,
  type WebhookWithSecret,
} from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../config';
import { AppError } from '../errors';
import type { Secrets } from '../security/secrets';

// A project's webhooks (docs/SCHEDULES.md#notifications): when a saved suite's run is over, each of
// the project's webhooks that wants the run's event gets a delivery row; every attempt of it is
// claimed in the database (one process sends it), signed with the webhook's secret, and retried with
// exponential backoff until it is answered 2xx or WEBHOOK_MAX_ATTEMPTS is reached.

type WebhookInputBody = z.output<typeof WebhookInputSchema>;
type WebhookUpdateBody = z.output<typeof WebhookUpdateSchema>;

/** Deliveries the project page lists. */
export const DELIVERIES_LISTED = 50;

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

/** The wait before the retry that follows attempt `attempt` (1-based): base, 2×base, 4×base… */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return baseMs * 2 ** Math.max(0, attempt - 1);
}

/**
 * A run failed when it did not complete, or when any of its tests failed. A flaky test (passed on a
 * retry, docs/HISTORY.md#retries) is counted in flaky_tests, not failed_tests: it fails nothing.
 */
export function runFailed(run: Pick<TestRunRow, 'status' | 'failed_tests'>): boolean {
  return run.status !== 'completed' || run.failed_tests > 0;
}

/** The event a finished run is: failure, recovery (passed after a failed run), success. */
export function runEvent(
  run: Pick<TestRunRow, 'status' | 'failed_tests'>,
  previous: Pick<TestRunRow, 'status' | 'failed_tests'> | undefined,
): Exclude<DeliveryEvent, 'test'> {
  if (runFailed(run)) return 'failure';
  return previous && runFailed(previous) ? 'recovery' : 'success';
}

/** Whether a webhook asking for `events` is called for a run that is `event`. */
export function webhookWants(events: readonly string[], event: DeliveryEvent): boolean {
  if (event === 'test' || events.includes('always')) return true;
  return events.includes(event);
}

/** What a notification says, whatever its format. */
export interface RunNotice {
  event: DeliveryEvent;
  project: { id: string; name: string };
  suite: { id: string | null; name: string | null; version: number | null };
  environment: { id: string | null; name: string | null };
  run: {
    id: string;
    status: string;
    trigger: string | null;
    total_tests: number;
    passed_tests: number;
    failed_tests: number;
    /** Tests that passed only on a retry (in neither count above). */
    flaky_tests: number;
    started_at: string | null;
    completed_at: string | null;
  };
  previous_run: { id: string; status: string; failed_tests: number } | null;
}

const HEADLINES: Record<DeliveryEvent, string> = {
  failure: 'failed',
  recovery: 'recovered',
  success: 'passed',
  test: 'test notification',
};
const COLOURS: Record<DeliveryEvent, string> = {
  failure: '#d92d20',
  recovery: '#12b76a',
  success: '#12b76a',
  test: '#2e90fa',
};

function headline(notice: RunNotice): string {
  const what = `${notice.suite.name ?? 'Suite'} on ${notice.environment.name ?? 'an environment'}`;
  if (notice.event === 'test') return `Argus: test notification from ${notice.project.name}`;
  return `Argus: ${what} ${HEADLINES[notice.event]} (${notice.project.name})`;
}

function summary(notice: RunNotice): string {
  const { run } = notice;
  if (notice.event === 'test') return 'This is a test delivery: the webhook is set up.';
  const flaky = run.flaky_tests > 0 ? `, ${run.flaky_tests} flaky` : '';
  return `${run.passed_tests} passed${flaky}, ${run.failed_tests} failed of ${run.total_tests} (run ${run.status}${run.trigger ? `, started by ${run.trigger}` : ''})`;
}

/**
 * The body of a delivery in a webhook's format: `generic` is the notice itself as JSON; `slack` an
 * incoming webhook's message (text and blocks); `teams` a message with an Adaptive Card, as Teams
 * workflows ("When a Teams webhook request is received") and incoming webhooks take it.
 */
export function formatNotice(format: WebhookFormat, notice: RunNotice, sentAt: Date): string {
  const title = headline(notice);
  const text = summary(notice);
  if (format === 'slack') {
    return JSON.stringify({
      text: `${title}: ${text}`,
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
        { type: 'section', text: { type: 'mrkdwn', text } },
        {
          type: 'context',
          elements: [{ type: 'mrkdwn', text: `Run \`${notice.run.id}\` · ${sentAt.toISOString()}` }],
        },
      ],
      attachments: [{ color: COLOURS[notice.event], fallback: text }],
    });
  }
  if (format === 'teams') {
    return JSON.stringify({
      type: 'message',
      summary: title,
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              {
                type: 'TextBlock',
                size: 'Medium',
                weight: 'Bolder',
                wrap: true,
                color: notice.event === 'failure' ? 'Attention' : 'Good',
                text: title,
              },
              { type: 'TextBlock', wrap: true, text },
              {
                type: 'FactSet',
                facts: [
                  { title: 'Project', value: notice.project.name },
                  { title: 'Suite', value: notice.suite.name ?? '—' },
                  { title: 'Environment', value: notice.environment.name ?? '—' },
                  { title: 'Run', value: notice.run.id },
                ],
              },
            ],
          },
        },
      ],
    });
  }
  return JSON.stringify({ ...notice, title, sent_at: sentAt.toISOString() });
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

export interface NotificationDeps {
  config: Pick<Config, 'webhookRetryBaseMs' | 'webhookMaxAttempts' | 'webhookTimeoutMs'>;
  repos: Pick<Repositories, 'webhooks' | 'testRuns' | 'projects'>;
  secrets: Secrets;
  /** The target policy (ALLOWED_TARGETS): a webhook's URL is checked with it when saved. */
  policy: Pick<TargetPolicy, 'check'>;
  /** How deliveries go out: `policyFetch` over the same policy, so the address is judged again at each connection. */
  fetch: typeof globalThis.fetch;
  log: FastifyBaseLogger;
  /** @default () => new Date() */
  now?: () => Date;
}

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

/**
 * A project's webhooks and their deliveries: what the routes manage, what `savedRunFinished` calls
 * when a saved suite's run is over, and the delivery work (attempts, retries, the sweep the scheduler
 * calls for deliveries left due by another process or a restart).
 */
export class Notifications {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;
  /** Aborts the attempts under way when the server stops (they are recorded as failed, to be retried). */
  private readonly closing = new AbortController();

  constructor(private readonly deps: NotificationDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private async project(userId: string, projectId: string) {
    const found = await this.deps.repos.projects.get(userId, projectId);
    if (!found) throw new AppError('PROJECT_NOT_FOUND');
    return found.project;
  }

  private async own(userId: string, projectId: string, id: string): Promise<WebhookRow> {
    await this.project(userId, projectId);
    const row = await this.deps.repos.webhooks.get(userId, projectId, id);
    if (!row) throw new AppError('WEBHOOK_NOT_FOUND');
    return row;
  }

  /** Why this server may not call `url` (the target policy), or null. */
  async urlProblem(url: string): Promise<string | null> {
    const decision = await this.deps.policy.check(url);
    return decision.allowed ? null : `The server may not call this URL: ${decision.reason}.`;
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = await this.urlProblem(url);
    if (problem)
      throw new AppError('VALIDATION', [{ loc: ['body', 'url'], msg: problem, type: 'url_refused' }]);
  }

  async list(userId: string, projectId: string): Promise<Webhook[]> {
    await this.project(userId, projectId);
    return (await this.deps.repos.webhooks.list(userId, projectId)).map(toApiWebhook);
  }

  /** A new webhook, with its signing secret (answered this once). */
  async create(userId: string, projectId: string, input: WebhookInputBody): Promise<WebhookWithSecret> {
    await this.project(userId, projectId);
    await this.checkUrl(input.url);
    const id = randomUUID();
    const secret = newWebhookSecret();
    const row = await this.deps.repos.webhooks.create(userId, {
      id,
      project_id: projectId,
      name: input.name,
      url: input.url,
      format: input.format,
      events: [...new Set(input.events)],
      enabled: input.enabled,
      secret_enc: this.deps.secrets.encrypt(secret, webhookSecretContext(id)),
    });
    return { ...toApiWebhook(row), secret };
  }

  async update(userId: string, projectId: string, id: string, patch: WebhookUpdateBody): Promise<Webhook> {
    await this.own(userId, projectId, id);
    if (patch.url !== undefined) await this.checkUrl(patch.url);
    const row = await this.deps.repos.webhooks.update(userId, projectId, id, {
      ...patch,
      ...(patch.events && { events: [...new Set(patch.events)] }),
    });
    if (!row) throw new AppError('WEBHOOK_NOT_FOUND');
    return toApiWebhook(row);
  }

  /** A new signing secret (the old one stops signing at once), answered this once. */
  async rotateSecret(userId: string, projectId: string, id: string): Promise<WebhookWithSecret> {
    await this.own(userId, projectId, id);
    const secret = newWebhookSecret();
    const row = await this.deps.repos.webhooks.update(userId, projectId, id, {
      secret_enc: this.deps.secrets.encrypt(secret, webhookSecretContext(id)),
    });
    if (!row) throw new AppError('WEBHOOK_NOT_FOUND');
    return { ...toApiWebhook(row), secret };
  }

  async delete(userId: string, projectId: string, id: string): Promise<void> {
    await this.project(userId, projectId);
    if (!(await this.deps.repos.webhooks.delete(userId, projectId, id)))
      throw new AppError('WEBHOOK_NOT_FOUND');
  }

  async deliveries(userId: string, projectId: string, webhookId?: string): Promise<WebhookDelivery[]> {
    await this.project(userId, projectId);
    const rows = await this.deps.repos.webhooks.listDeliveries(
      userId,
      projectId,
      DELIVERIES_LISTED,
      webhookId,
    );
    return rows.map(toApiDelivery);
  }

  /** 'Send test': a `test` delivery to one webhook, sent at once (and retried like any other). */
  async sendTest(userId: string, projectId: string, id: string): Promise<WebhookDelivery> {
    const hook = await this.own(userId, projectId, id);
    const project = await this.project(userId, projectId);
    const now = this.now();
    const notice: RunNotice = {
      event: 'test',
      project: { id: project.id, name: project.name },
      suite: { id: null, name: null, version: null },
      environment: { id: null, name: null },
      run: {
        id: '00000000-0000-0000-0000-000000000000',
        status: 'completed',
        trigger: null,
        total_tests: 0,
        passed_tests: 0,
        failed_tests: 0,
        flaky_tests: 0,
        started_at: null,
        completed_at: null,
      },
      previous_run: null,
    };
    const row = await this.deps.repos.webhooks.createDelivery(
      userId,
      {
        webhook_id: hook.id,
        project_id: projectId,
        test_run_id: null,
        event: 'test',
        body: formatNotice(hook.format as WebhookFormat, notice, now),
      },
      now,
    );
    this.start(row.id);
    return toApiDelivery({ delivery: row, webhook_name: hook.name });
  }

  /**
   * AutomationDeps.savedRunFinished: a saved suite's run is over. Its event comes from its own
   * outcome and that of the previous finished run of the same suite on the same environment; each of
   * the project's enabled webhooks that wants it gets a delivery, sent at once.
   */
  async runFinished(userId: string, runId: string): Promise<void> {
    const { repos } = this.deps;
    const run = await repos.testRuns.get(userId, runId);
    if (!run?.project_id) return;
    const hooks = (await repos.webhooks.list(userId, run.project_id)).filter((hook) => hook.enabled);
    if (hooks.length === 0) return;
    const found = await repos.projects.get(userId, run.project_id);
    if (!found) return;
    const previous = await repos.webhooks.previousFinishedRun(userId, run);
    const event = runEvent(run, previous);
    const wanted = hooks.filter((hook) => webhookWants(hook.events, event));
    if (wanted.length === 0) return;
    const notice: RunNotice = {
      event,
      project: { id: found.project.id, name: found.project.name },
      suite: { id: run.suite_id, name: suiteName(run.test_suite_name), version: run.suite_version },
      environment: { id: run.environment_id, name: run.environment_name },
      run: {
        id: run.id,
        status: run.status,
        trigger: run.trigger,
        total_tests: run.total_tests,
        passed_tests: run.passed_tests,
        failed_tests: run.failed_tests,
        flaky_tests: run.flaky_tests,
        started_at: run.started_at?.toISOString() ?? null,
        completed_at: run.completed_at?.toISOString() ?? null,
      },
      previous_run: previous
        ? { id: previous.id, status: previous.status, failed_tests: previous.failed_tests }
        : null,
    };
    const now = this.now();
    for (const hook of wanted) {
      const row = await repos.webhooks.createDelivery(
        userId,
        {
          webhook_id: hook.id,
          project_id: run.project_id,
          test_run_id: run.id,
          event,
          body: formatNotice(hook.format as WebhookFormat, notice, now),
        },
        now,
      );
      this.start(row.id);
    }
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

  private start(id: string): void {
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

/** A saved suite run's name is recorded as `<suite> (v<n>) on <environment>`: the suite's part. */
function suiteName(recorded: string | null): string | null {
  if (!recorded) return null;
  return recorded.replace(/ \(v\d+\) on .*$/, '');
}
