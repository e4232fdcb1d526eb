import { randomUUID } from 'node:crypto';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { modelUsage, testRuns } from './schema';
import { isUuid } from './users';

/** One model call as stored: what it was for, where it went, what it cost. */
export interface NewModelUsage {
  /** generation | step | judge | connection-test | conversation */
  kind: string;
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  /** Paid with the server's own key (AI_API_KEY). @default false */
  server_key?: boolean;
  /** false when the model had no known price (cost_usd 0 then means unknown). @default true */
  cost_known?: boolean;
  /** The run it belongs to; kept only when that run is the same user's. */
  test_run_id?: string | null;
  session_id?: string | null;
}

/** Calls, tokens and cost summed over a span of time (ModelUsageSchema in @argus/protocol). */
export interface ModelUsageTotals {
  model_calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  /** Calls whose model had no known price: their cost is not in cost_usd. */
  unpriced_calls: number;
}

const nonNegativeInt = (n: number) => (Number.isFinite(n) && n > 0 ? Math.round(n) : 0);

/** Model calls a user made, for the monthly budget and the Settings page; every call takes the owner's id. */
export function modelUsageRepository(orm: Drizzle) {
  return {
    async record(userId: string, row: NewModelUsage): Promise<void> {
      const runId = row.test_run_id && isUuid(row.test_run_id) ? row.test_run_id : null;
      await orm.insert(modelUsage).values({
        id: randomUUID(),
        user_id: userId,
        kind: row.kind,
        provider: row.provider,
        model: row.model,
        input_tokens: nonNegativeInt(row.input_tokens),
        output_tokens: nonNegativeInt(row.output_tokens),
        cost_usd: Number.isFinite(row.cost_usd) && row.cost_usd > 0 ? row.cost_usd : 0,
        server_key: row.server_key ?? false,
        cost_known: row.cost_known ?? true,
        // Another user's run is not linked: the subquery finds nothing and the column stays NULL.
        test_run_id: runId
          ? sql`(SELECT ${testRuns.id} FROM ${testRuns} WHERE ${testRuns.id} = ${runId} AND ${testRuns.user_id} = ${userId})`
          : null,
        session_id: row.session_id ?? null,
      });
    },
    /** The user's calls from `since` (inclusive) until now, summed. */
    async totalsSince(userId: string, since: Date): Promise<ModelUsageTotals> {
      const [row] = await orm
        .select({
          calls: sql<string | number>`count(*)`,
          input: sql<string | number | null>`sum(${modelUsage.input_tokens})`,
          output: sql<string | number | null>`sum(${modelUsage.output_tokens})`,
          cost: sql<string | number | null>`sum(${modelUsage.cost_usd})`,
          unpriced: sql<string | number>`count(*) FILTER (WHERE NOT ${modelUsage.cost_known})`,
        })
        .from(modelUsage)
        .where(and(eq(modelUsage.user_id, userId), gte(modelUsage.created_at, since)));
      return {
        model_calls: Number(row?.calls ?? 0),
        input_tokens: Number(row?.input ?? 0),
        output_tokens: Number(row?.output ?? 0),
        cost_usd: Number(row?.cost ?? 0),
        unpriced_calls: Number(row?.unpriced ?? 0),
      };
    },
    /**
     * What calls paid with the server's own key cost from `since` until now: one user's, or
     * everyone's when `userId` is omitted (the operator's caps).
     */
    async serverKeyCostSince(since: Date, userId?: string): Promise<number> {
      const [row] = await orm
        .select({ cost: sql<string | number | null>`sum(${modelUsage.cost_usd})` })
        .from(modelUsage)
        .where(
          and(
            eq(modelUsage.server_key, true),
            gte(modelUsage.created_at, since),
            userId ? eq(modelUsage.user_id, userId) : undefined,
          ),
        );
      return Number(row?.cost ?? 0);
    },
  };
}
export type ModelUsageRepository = ReturnType<typeof modelUsageRepository>;
