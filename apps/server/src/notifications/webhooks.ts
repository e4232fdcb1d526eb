import { randomUUID } from 'node:crypto';
import type { Repositories, WebhookRow } from '@argus/db';
import type { TargetPolicy } from '@argus/engine';
import type {
  Webhook,
  WebhookDelivery,
  WebhookFormat,
  WebhookInputSchema,
  WebhookUpdateSchema,
  WebhookWithSecret,
} from '@argus/protocol';
import type { z } from 'zod';
import { AppError } from '../errors';
import { Deliveries, type DeliveryDeps } from './deliveries';
import { newWebhookSecret, webhookSecretContext } from './delivery-signing';
import { formatNotice } from './notice-format';
import { runEvent, runNotice, testNotice, webhookWants } from './run-notices';
import { toApiDelivery, toApiWebhook } from './webhook-views';

export { loggableUrl, retryDelayMs } from './deliveries';
export { newWebhookSecret, signDelivery, verifyDelivery, webhookSecretContext } from './delivery-signing';
export { formatNotice } from './notice-format';
export { type RunNotice, runEvent, runFailed, webhookWants } from './run-notices';
export { toApiDelivery, toApiWebhook } from './webhook-views';

// A project's webhooks (docs/SCHEDULES.md#notifications): when a saved suite's run is over, each of
// the project's webhooks that wants the run's event gets a delivery row; every attempt of it is
// claimed in the database (one process sends it), signed with the webhook's secret, and retried with
// exponential backoff until it is answered 2xx or WEBHOOK_MAX_ATTEMPTS is reached (deliveries.ts).

type WebhookInputBody = z.output<typeof WebhookInputSchema>;
type WebhookUpdateBody = z.output<typeof WebhookUpdateSchema>;

/** Deliveries the project page lists. */
export const DELIVERIES_LISTED = 50;

export interface NotificationDeps extends Omit<DeliveryDeps, 'repos'> {
  repos: Pick<Repositories, 'webhooks' | 'testRuns' | 'projects' | 'caseRepairs'>;
  /** The target policy (ALLOWED_TARGETS): a webhook's URL is checked with it when saved. */
  policy: Pick<TargetPolicy, 'check'>;
}

/**
 * A project's webhooks and their deliveries: what the routes manage, what `savedRunFinished` calls
 * when a saved suite's run is over, and the delivery work (attempts, retries, the sweep the scheduler
 * calls for deliveries left due by another process or a restart).
 *
 * It orchestrates; each job is a file of this folder: run-notices.ts (a run's event and notice),
 * notice-format.ts (generic, Slack, Teams), delivery-signing.ts (secrets and signatures),
 * deliveries.ts (attempts, retries, the sweep), webhook-views.ts (rows as the API shows them).
 */
export class Notifications {
  private readonly sending: Deliveries;

  constructor(private readonly deps: NotificationDeps) {
    this.sending = new Deliveries(deps);
  }

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
    const row = await this.deps.repos.webhooks.createDelivery(
      userId,
      {
        webhook_id: hook.id,
        project_id: projectId,
        test_run_id: null,
        event: 'test',
        body: formatNotice(hook.format as WebhookFormat, testNotice(project), now),
      },
      now,
    );
    this.sending.start(row.id);
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
    // Its repairs are all made: each is made in its case's lane before the run ends.
    const repairs = await repos.caseRepairs.runCounts(userId, run.id);
    const notice = runNotice(event, found.project, run, previous, repairs);
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
      this.sending.start(row.id);
    }
  }

  /**
   * The scheduler's sweep: starts an attempt of every delivery due by `now` (left by a restart or
   * another process) and answers without waiting for the receivers.
   */
  deliverDue(now: Date): Promise<void> {
    return this.sending.deliverDue(now);
  }

  /** One attempt of a delivery, if it is still due and no other process took it. */
  attempt(id: string): Promise<void> {
    return this.sending.attempt(id);
  }

  /** Stops the retry timers and waits (briefly) for attempts under way; what is left stays due in the database. */
  close(): Promise<void> {
    return this.sending.close();
  }
}
