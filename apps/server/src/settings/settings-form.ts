import type { UserSettingsPatch, UserSettingsRow } from '@argus/db';
import { type AiEngineChoice, maskSecret, type SettingsResponse, type SettingsUpdate } from '@argus/protocol';
import { AppError } from '../errors';
import { monthStart } from './amounts';
import type { EffectiveModels } from './effective-model';
import type { SettingsParts } from './model-settings-deps';
import { baseUrlProblem, isModelProvider, issueList, PROVIDER_NAMES } from './providers';
import type { UsageRecords } from './usage-records';
import type { UserSecrets } from './user-secrets';

/** GET and PUT /api/settings: a user's settings as the form shows them, and a change to them. */
export class SettingsForm {
  constructor(
    private readonly deps: SettingsParts,
    private readonly models: EffectiveModels,
    private readonly secrets: UserSecrets,
    private readonly usage: UsageRecords,
  ) {}

  /** GET /api/settings: the user's settings, secrets masked, with the engine in effect and the month's usage. */
  async view(userId: string): Promise<SettingsResponse> {
    const [row, usage] = await Promise.all([
      this.deps.repos.userSettings.get(userId),
      this.usage.monthUsage(userId),
    ]);
    const server = this.models.serverModel();
    const budget = row?.monthly_budget_usd ?? null;
    const effective = this.models.effectiveEngine(row, server);
    const userCap = this.deps.config.aiServerKeyUserMonthlyUsd;
    const capReached =
      server !== null &&
      effective.source === 'server' &&
      effective.provider !== 'builtin' &&
      (await this.deps.repos.modelUsage.serverKeyCostSince(monthStart(this.deps.now()), userId)) >= userCap;
    return {
      ai_provider: (row?.ai_provider as AiEngineChoice | null | undefined) ?? null,
      ai_model: row?.ai_model ?? null,
      ai_base_url: row?.ai_base_url ?? null,
      ai_api_key: row?.ai_api_key_enc ? (row.ai_api_key_last4 ?? '…') : null,
      figma_token: row?.figma_token_enc ? (row.figma_token_last4 ?? '…') : null,
      monthly_budget_usd: budget,
      server_default: {
        provider: server?.provider ?? 'builtin',
        ...(server ? { user_monthly_cap_usd: userCap } : {}),
        model: server?.model ?? null,
        figma_token_set: Boolean(this.models.sharedFigmaToken()),
      },
      effective,
      usage,
      usage_since: monthStart(this.deps.now()).toISOString(),
      budget_reached: (budget !== null && usage.cost_usd >= budget) || capReached,
      updated_at: row?.updated_at.toISOString() ?? null,
    };
  }

  /** PUT /api/settings: applies a partial change (422 naming the field when the result cannot work). */
  async update(userId: string, body: SettingsUpdate): Promise<SettingsResponse> {
    const row = await this.deps.repos.userSettings.get(userId);
    const provider = body.ai_provider !== undefined ? body.ai_provider : (row?.ai_provider ?? null);
    const model = body.ai_model !== undefined ? body.ai_model : (row?.ai_model ?? null);
    const baseUrl = body.ai_base_url !== undefined ? body.ai_base_url : (row?.ai_base_url ?? null);
    await this.validate(body, provider, model, baseUrl);
    const patch: UserSettingsPatch = {
      ai_provider: body.ai_provider,
      ai_model: body.ai_model,
      ai_base_url: body.ai_base_url,
      monthly_budget_usd: body.monthly_budget_usd,
      ...this.secretsPatch(row, userId, body, provider, baseUrl),
    };
    await this.deps.repos.userSettings.upsert(userId, patch);
    return this.view(userId);
  }

  /** Throws AppError('VALIDATION') naming each field of the changed settings that cannot work. */
  private async validate(
    body: SettingsUpdate,
    provider: string | null,
    model: string | null,
    baseUrl: string | null,
  ): Promise<void> {
    const { issues, issue } = issueList();
    if (isModelProvider(provider)) {
      if (!model) issue('ai_model', `${PROVIDER_NAMES[provider]} needs a model name`);
      if (provider === 'openai-compatible' && !baseUrl)
        issue(
          'ai_base_url',
          'An OpenAI-compatible provider needs a base URL (e.g. http://localhost:11434/v1)',
        );
    }
    // Checked when it changes; a stored one is checked again before every call (effectiveModel).
    if (typeof body.ai_base_url === 'string') {
      const refused = await baseUrlProblem(this.deps.policy, body.ai_base_url);
      if (refused) issue('ai_base_url', refused);
    }
    if (issues.length) throw new AppError('VALIDATION', issues);
  }

  /** The secret columns a change writes: a new or cleared key or token, or an unbound key bound now. */
  private secretsPatch(
    row: UserSettingsRow | undefined,
    userId: string,
    body: SettingsUpdate,
    provider: string | null,
    baseUrl: string | null,
  ): UserSettingsPatch {
    const patch: UserSettingsPatch = {};
    if (body.ai_api_key !== undefined) {
      patch.ai_api_key_enc =
        body.ai_api_key === null ? null : this.secrets.hideApiKey(body.ai_api_key, userId, provider, baseUrl);
      patch.ai_api_key_last4 = body.ai_api_key === null ? null : maskSecret(body.ai_api_key);
    } else {
      const rebound = this.secrets.rebindUnboundKey(row, userId, provider, baseUrl);
      if (rebound !== undefined) patch.ai_api_key_enc = rebound;
    }
    if (body.figma_token !== undefined) {
      patch.figma_token_enc =
        body.figma_token === null ? null : this.secrets.hide(body.figma_token, 'figma_token', userId);
      patch.figma_token_last4 = body.figma_token === null ? null : maskSecret(body.figma_token);
    }
    return patch;
  }
}
