import type { ModelConfig, UsageRecord } from '@argus/ai';
import type { ModelUsageTotals } from '@argus/db';
import type {
  SettingsResponse,
  SettingsUpdate,
  TestConnectionRequest,
  TestConnectionResponse,
} from '@argus/protocol';
import { ConnectionTest } from './connection-test';
import { EffectiveModels } from './effective-model';
import type { ModelSettingsDeps } from './model-settings-deps';
import { baseUrlProblem } from './providers';
import { SettingsForm } from './settings-form';
import { SpendingCaps } from './spending-caps';
import { UsageRecords } from './usage-records';
import { UserSecrets } from './user-secrets';

export { formatUsd, monthStart } from './amounts';
export type { ModelSettingsDeps } from './model-settings-deps';
export { BUILTIN_ENGINE_NAME } from './providers';

/**
 * Which model each user's work uses, with what key, within what budget (issue 9). A user's Settings
 * override the server's AI_* variables; 'builtin' there means the built-in engine even when the server
 * has a model. Secrets are stored encrypted (`Secrets`), bound to their user and field, and never
 * leave the server but in the calls they are for.
 *
 * It orchestrates; each job is a file of this folder: effective-model.ts (the model and Figma token in
 * effect), spending-caps.ts (the budget and the server key's caps, with holds under a lock),
 * usage-records.ts, user-secrets.ts (keys bound to where they go), settings-form.ts (GET and PUT) and
 * connection-test.ts.
 */
export class ModelSettingsService {
  private readonly models: EffectiveModels;
  private readonly caps: SpendingCaps;
  private readonly usage: UsageRecords;
  private readonly form: SettingsForm;
  private readonly connection: ConnectionTest;

  constructor(private readonly deps: ModelSettingsDeps) {
    const parts = { ...deps, now: deps.now ?? (() => new Date()) };
    const secrets = new UserSecrets(deps.secrets);
    this.caps = new SpendingCaps(parts);
    this.usage = new UsageRecords(parts);
    this.models = new EffectiveModels(parts, secrets, this.caps);
    this.form = new SettingsForm(parts, this.models, secrets, this.usage);
    this.connection = new ConnectionTest(parts, this.models, secrets, this.caps, this.usage);
  }

  /** The server's own model (AI_PROVIDER, AI_MODEL, AI_BASE_URL, AI_API_KEY), or null for the built-in engine. */
  serverModel(): ModelConfig | null {
    return this.models.serverModel();
  }

  /** The model this user's work calls, and whose configuration it is; null means the built-in engine. */
  effectiveModel(userId: string): Promise<{ config: ModelConfig; source: 'user' | 'server' } | null> {
    return this.models.effectiveModel(userId);
  }

  /** The Figma token design comparison uses for this user (theirs, else a shared FIGMA_TOKEN). */
  figmaToken(userId: string): Promise<string | undefined> {
    return this.models.figmaToken(userId);
  }

  /** Calls, tokens and cost since the first of this month (UTC). */
  monthUsage(userId: string): Promise<ModelUsageTotals> {
    return this.usage.monthUsage(userId);
  }

  /** Before every model call: throws `ModelError('budget')` once the user's monthly budget is reached. */
  checkBudget(userId: string): Promise<void> {
    return this.caps.checkBudget(userId);
  }

  /** Stores one call's usage (the ModelClient's `onUsage`), linked to its run or session when given. */
  recordUsage(
    userId: string,
    record: UsageRecord,
    refs: { test_run_id?: string | null; session_id?: string | null } = {},
  ): Promise<void> {
    return this.usage.recordUsage(userId, record, refs);
  }

  /** Why the server may not call `baseUrl` for a user (the browser's target policy), or null. */
  baseUrlProblem(baseUrl: string): Promise<string | null> {
    return baseUrlProblem(this.deps.policy, baseUrl);
  }

  /** GET /api/settings. */
  view(userId: string): Promise<SettingsResponse> {
    return this.form.view(userId);
  }

  /** PUT /api/settings. */
  update(userId: string, body: SettingsUpdate): Promise<SettingsResponse> {
    return this.form.update(userId, body);
  }

  /** POST /api/settings/test-connection. */
  testConnection(userId: string, body: TestConnectionRequest): Promise<TestConnectionResponse> {
    return this.connection.run(userId, body);
  }
}
