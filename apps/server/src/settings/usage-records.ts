import type { UsageRecord } from '@argus/ai';
import type { ModelUsageTotals } from '@argus/db';
import { monthStart } from './amounts';
import type { SettingsParts } from './model-settings-deps';

/** Model usage as stored in `model_usage`: one row per call, summed by month. */
export class UsageRecords {
  constructor(private readonly deps: Pick<SettingsParts, 'repos' | 'now'>) {}

  /** Calls, tokens and cost since the first of this month (UTC). */
  monthUsage(userId: string): Promise<ModelUsageTotals> {
    return this.deps.repos.modelUsage.totalsSince(userId, monthStart(this.deps.now()));
  }

  /** Stores one call's usage (the ModelClient's `onUsage`), linked to its run or session when given. */
  async recordUsage(
    userId: string,
    record: UsageRecord,
    refs: { test_run_id?: string | null; session_id?: string | null } = {},
  ): Promise<void> {
    await this.deps.repos.modelUsage.record(userId, {
      kind: record.kind,
      provider: record.provider,
      model: record.model,
      input_tokens: record.inputTokens,
      output_tokens: record.outputTokens,
      cost_usd: record.costUsd,
      server_key: record.serverKey ?? false,
      cost_known: !record.costUnknown,
      test_run_id: refs.test_run_id,
      session_id: refs.session_id,
    });
  }
}
