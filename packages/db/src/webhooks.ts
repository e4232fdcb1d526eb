import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { projectRows } from './owned-rows';
import {
  type TestRunRow,
  testRuns,
  type WebhookDeliveryRow,
  type WebhookRow,
  webhookDeliveries,
  webhooks,
} from './schema';
import { isUuid } from './users';

export type NewWebhook = Pick<WebhookRow, 'project_id' | 'name' | 'url' | 'format' | 'events' | 'enabled'> & {
  /** The id the secret was bound to when it was encrypted. */
  id: string;
  secret_enc: string;
};
export type WebhookPatch = Partial<
  Pick<WebhookRow, 'name' | 'url' | 'format' | 'events' | 'enabled' | 'secret_enc'>
>;
export type NewDelivery = Pick<
  WebhookDeliveryRow,
  'webhook_id' | 'project_id' | 'test_run_id' | 'event' | 'body'
>;
export type DeliveryPatch = Partial<
  Pick<WebhookDeliveryRow, 'status' | 'response_code' | 'last_error' | 'next_attempt_at' | 'delivered_at'>
>;

/** A delivery with its webhook's name, for the project page. */
export interface DeliveryListing {
  delivery: WebhookDeliveryRow;
  webhook_name: string | null;
}

/**
 * A project's webhooks and their deliveries (docs/SCHEDULES.md). Reads and writes of the project page
 * are scoped to the owner and project; the delivery loop's claims (`claimDelivery`) are conditional
 * updates, so one attempt of a delivery is made by one process.
 */
export function webhooksRepository(orm: Drizzle) {
  const scoped = projectRows(orm, webhooks);
  return {
    async list(userId: string, projectId: string): Promise<WebhookRow[]> {
      if (!isUuid(projectId)) return [];
      return orm
        .select()
        .from(webhooks)
        .where(scoped.inProject(userId, projectId))
        .orderBy(asc(webhooks.created_at), asc(webhooks.id));
    },
    async get(userId: string, projectId: string, id: string): Promise<WebhookRow | undefined> {
      if (!isUuid(projectId) || !isUuid(id)) return undefined;
      const [row] = await orm
        .select()
        .from(webhooks)
        .where(scoped.one(userId, projectId, id));
      return row;
    },
    /** The webhook a delivery goes to, whoever owns it (the delivery loop's read). */
    async byId(id: string): Promise<WebhookRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await orm.select().from(webhooks).where(eq(webhooks.id, id));
      return row;
    },
    async create(userId: string, input: NewWebhook): Promise<WebhookRow> {
      const [row] = await orm
        .insert(webhooks)
        .values({ ...input, user_id: userId })
        .returning();
      return row;
    },
    update: (userId: string, projectId: string, id: string, patch: WebhookPatch) =>
      scoped.update(userId, projectId, id, patch),
    delete: scoped.delete,
    /** A new delivery, due at once. */
    async createDelivery(userId: string, input: NewDelivery, now: Date): Promise<WebhookDeliveryRow> {
      const [row] = await orm
        .insert(webhookDeliveries)
        .values({ ...input, id: randomUUID(), user_id: userId, status: 'pending', next_attempt_at: now })
        .returning();
      return row;
    },
    /** The project's latest deliveries, newest first (one webhook's when `webhookId` is given). */
    async listDeliveries(
      userId: string,
      projectId: string,
      limit: number,
      webhookId?: string,
    ): Promise<DeliveryListing[]> {
      if (!isUuid(projectId) || (webhookId !== undefined && !isUuid(webhookId))) return [];
      const conditions = [eq(webhookDeliveries.user_id, userId), eq(webhookDeliveries.project_id, projectId)];
      if (webhookId) conditions.push(eq(webhookDeliveries.webhook_id, webhookId));
      return orm
        .select({ delivery: webhookDeliveries, webhook_name: webhooks.name })
        .from(webhookDeliveries)
        .leftJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhook_id))
        .where(and(...conditions))
        .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.id))
        .limit(limit);
    },
    async getDelivery(userId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await orm
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.user_id, userId)));
      return row;
    },
    /**
     * The finished run of the same suite on the same environment recorded just before `run` (what
     * tells a recovery from a pass): its id, status and failed count only.
     */
    async previousFinishedRun(
      userId: string,
      run: Pick<TestRunRow, 'id' | 'suite_id' | 'environment_id' | 'created_at'>,
    ): Promise<Pick<TestRunRow, 'id' | 'status' | 'failed_tests'> | undefined> {
      if (!run.suite_id || !run.environment_id) return undefined;
      const [row] = await orm
        .select({ id: testRuns.id, status: testRuns.status, failed_tests: testRuns.failed_tests })
        .from(testRuns)
        .where(
          and(
            eq(testRuns.user_id, userId),
            eq(testRuns.suite_id, run.suite_id),
            eq(testRuns.environment_id, run.environment_id),
            notInArray(testRuns.status, ['pending', 'running']),
            or(
              lt(testRuns.created_at, run.created_at),
              and(eq(testRuns.created_at, run.created_at), lt(testRuns.id, run.id)),
            ),
          ),
        )
        .orderBy(desc(testRuns.created_at), desc(testRuns.id))
        .limit(1);
      return row;
    },
    /** The ids of deliveries whose next attempt (or lapsed claim) is due, earliest first. */
    async dueDeliveries(now: Date, limit = 50): Promise<string[]> {
      const rows = await orm
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(
          and(
            inArray(webhookDeliveries.status, ['pending', 'delivering']),
            lte(webhookDeliveries.next_attempt_at, now),
          ),
        )
        .orderBy(asc(webhookDeliveries.next_attempt_at))
        .limit(limit);
      return rows.map((row) => row.id);
    },
    /**
     * Takes the next attempt of a due delivery: marks it `delivering` until `leaseUntil` and counts the
     * attempt. Undefined when it is not due (any more): another process took it, or it is over.
     */
    async claimDelivery(id: string, now: Date, leaseUntil: Date): Promise<WebhookDeliveryRow | undefined> {
      const [row] = await orm
        .update(webhookDeliveries)
        .set({
          status: 'delivering',
          next_attempt_at: leaseUntil,
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          updated_at: now,
        })
        .where(
          and(
            eq(webhookDeliveries.id, id),
            inArray(webhookDeliveries.status, ['pending', 'delivering']),
            lte(webhookDeliveries.next_attempt_at, now),
          ),
        )
        .returning();
      return row;
    },
    /** Records how an attempt went (only while the claim is the caller's: status still `delivering`). */
    async finishAttempt(id: string, patch: DeliveryPatch): Promise<WebhookDeliveryRow | undefined> {
      const [row] = await orm
        .update(webhookDeliveries)
        .set({ ...patch, updated_at: new Date() })
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'delivering')))
        .returning();
      return row;
    },
  };
}
export type WebhooksRepository = ReturnType<typeof webhooksRepository>;
