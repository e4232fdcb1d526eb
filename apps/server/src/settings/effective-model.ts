import { engineName, listPrice, type ModelConfig, ModelError, type ModelPrice } from '@argus/ai';
import type { UserSettingsRow } from '@argus/db';
import type { EffectiveEngine, ModelProvider } from '@argus/protocol';
import type { SettingsParts } from './model-settings-deps';
import { BUILTIN_ENGINE_NAME, baseUrlProblem, isModelProvider } from './providers';
import type { SpendingCaps } from './spending-caps';
import type { UserSecrets } from './user-secrets';

/**
 * Which model a user's work calls: their own Settings over the server's AI_* variables ('builtin'
 * there means the built-in engine even when the server has a model), and the Figma token likewise.
 */
export class EffectiveModels {
  constructor(
    private readonly deps: SettingsParts,
    private readonly secrets: UserSecrets,
    private readonly caps: SpendingCaps,
  ) {}

  /** The server's own model (AI_PROVIDER, AI_MODEL, AI_BASE_URL, AI_API_KEY), or null for the built-in engine. */
  serverModel(): ModelConfig | null {
    const { aiProvider, aiModel, aiBaseUrl, aiApiKey, aiServerKeyFree } = this.deps.config;
    const provider = aiProvider as string;
    if (!isModelProvider(provider) || !aiModel) return null;
    const price = this.priceOf(provider, aiModel) ?? (aiServerKeyFree ? { input: 0, output: 0 } : null);
    return {
      provider,
      model: aiModel,
      baseUrl: aiBaseUrl,
      apiKey: aiApiKey,
      price,
      serverKey: true,
      fetch: this.deps.serverFetch,
    };
  }

  /** A model's price: the operator's (AI_MODEL_PRICES), else the list price; undefined when unknown. */
  priceOf(provider: ModelProvider, model: string): ModelPrice | undefined {
    return this.deps.config.aiModelPrices[model] ?? listPrice({ provider, model });
  }

  /**
   * The model this user's work calls, and whose configuration it is; null means the built-in engine.
   * Throws a ModelError when the user's own configuration cannot be used as it stands (a key this
   * server cannot decrypt, a base URL the target policy now refuses).
   */
  async effectiveModel(userId: string): Promise<{ config: ModelConfig; source: 'user' | 'server' } | null> {
    const row = await this.deps.repos.userSettings.get(userId);
    if (row?.ai_provider === 'builtin') return null;
    if (row && isModelProvider(row.ai_provider)) {
      return { config: await this.userModel(row, row.ai_provider, userId), source: 'user' };
    }
    const server = this.serverModel();
    if (!server) return null;
    if (!server.price)
      throw new ModelError(
        'bad_request',
        `The server's model ${server.model} has no known price, so its use cannot be held to the operator's caps: ` +
          'the operator gives its price in AI_MODEL_PRICES (or sets AI_SERVER_KEY_FREE=true for a free, self-hosted model). ' +
          'You can use your own model and key in Settings meanwhile.',
      );
    return { config: { ...server, spend: this.caps.spendGuard(userId, true) }, source: 'server' };
  }

  /** The user's own model as their Settings row names it, checked as it stands before each use. */
  private async userModel(
    row: UserSettingsRow,
    provider: ModelProvider,
    userId: string,
  ): Promise<ModelConfig> {
    if (!row.ai_model)
      throw new ModelError(
        'bad_request',
        'Your Settings choose a model provider but no model: name one in Settings.',
      );
    const baseUrl = row.ai_base_url ?? undefined;
    if (provider === 'openai-compatible' && !baseUrl)
      throw new ModelError(
        'bad_request',
        'An OpenAI-compatible provider needs a base URL: set one in Settings.',
      );
    if (baseUrl) {
      const refused = await baseUrlProblem(this.deps.policy, baseUrl);
      if (refused) throw new ModelError('unreachable', refused);
    }
    const apiKey = this.secrets.revealApiKey(row, userId, provider, baseUrl);
    return this.userConfig(userId, provider, row.ai_model, baseUrl, apiKey);
  }

  /** A call on a user's own model and key: their fetch, the model's price, held to their budget. */
  userConfig(
    userId: string,
    provider: ModelProvider,
    model: string,
    baseUrl: string | undefined,
    apiKey: string | undefined,
  ): ModelConfig {
    return {
      provider,
      model,
      baseUrl,
      apiKey,
      fetch: this.deps.fetch,
      price: this.priceOf(provider, model) ?? null,
      spend: this.caps.spendGuard(userId, false),
    };
  }

  /** The engine in effect for a Settings row, as GET /api/settings names it. */
  effectiveEngine(row: UserSettingsRow | undefined, server: ModelConfig | null): EffectiveEngine {
    if (row?.ai_provider === 'builtin')
      return { provider: 'builtin', model: null, source: 'user', name: BUILTIN_ENGINE_NAME };
    if (row && isModelProvider(row.ai_provider) && row.ai_model) {
      const config = { provider: row.ai_provider, model: row.ai_model };
      return { ...config, source: 'user', name: engineName(config) };
    }
    if (server)
      return { provider: server.provider, model: server.model, source: 'server', name: engineName(server) };
    return { provider: 'builtin', model: null, source: 'server', name: BUILTIN_ENGINE_NAME };
  }

  /**
   * The Figma token design comparison uses for this user: their own, else the server's FIGMA_TOKEN, but
   * only when the operator shares it (FIGMA_TOKEN_SHARED=true): every account would read what it can.
   */
  async figmaToken(userId: string): Promise<string | undefined> {
    const row = await this.deps.repos.userSettings.get(userId);
    return this.secrets.reveal(row?.figma_token_enc, 'figma_token', userId) ?? this.sharedFigmaToken();
  }

  /** The server's FIGMA_TOKEN when the operator shares it with users who have none (FIGMA_TOKEN_SHARED). */
  sharedFigmaToken(): string | undefined {
    return this.deps.config.figmaTokenShared ? this.deps.config.figmaToken : undefined;
  }
}
