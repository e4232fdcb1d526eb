import { type ModelConfig, ModelError, testConnection } from '@argus/ai';
import type { TestConnectionRequest, TestConnectionResponse } from '@argus/protocol';
import { AppError } from '../errors';
import type { EffectiveModels } from './effective-model';
import type { SettingsParts } from './model-settings-deps';
import { baseUrlProblem, isModelProvider, issueList, PROVIDER_NAMES } from './providers';
import type { SpendingCaps } from './spending-caps';
import type { UsageRecords } from './usage-records';
import type { UserSecrets } from './user-secrets';

const CONNECTION_TEST_TIMEOUT_MS = 20_000;

/** A refusal the user reads as the test's answer rather than as an error. */
const failed = (error: ModelError): TestConnectionResponse => ({
  ok: false,
  message: error.message,
  latency_ms: 0,
});

/**
 * POST /api/settings/test-connection: one tiny call with the saved configuration, or with what the
 * form holds (any field given overrides the saved one; an absent key means the stored one). The
 * server's own model (and key) is only ever tested as it is configured, never with a user's changes.
 */
export class ConnectionTest {
  constructor(
    private readonly deps: SettingsParts,
    private readonly models: EffectiveModels,
    private readonly secrets: UserSecrets,
    private readonly caps: SpendingCaps,
    private readonly usage: UsageRecords,
  ) {}

  async run(userId: string, body: TestConnectionRequest): Promise<TestConnectionResponse> {
    const overrides = Object.values(body).some((value) => value !== undefined);
    const config = overrides ? await this.formModel(userId, body) : await this.savedModel(userId);
    if (!('provider' in config)) return config;
    try {
      await this.caps.checkBudget(userId);
    } catch (error) {
      if (error instanceof ModelError) return failed(error);
      throw error;
    }
    const result = await testConnection(config, {
      timeoutMs: CONNECTION_TEST_TIMEOUT_MS,
      onUsage: (record) => this.usage.recordUsage(userId, record),
    });
    return {
      ok: result.ok,
      message: result.message,
      ...(result.reply !== undefined ? { reply: result.reply } : {}),
      latency_ms: result.latencyMs,
    };
  }

  /** The model the user's work calls today, or the answer when there is none to call. */
  private async savedModel(userId: string): Promise<ModelConfig | TestConnectionResponse> {
    try {
      const effective = await this.models.effectiveModel(userId);
      if (!effective) return builtinAnswer();
      return effective.config;
    } catch (error) {
      if (error instanceof ModelError) return failed(error);
      throw error;
    }
  }

  /** The user's own model as the form holds it over their saved settings (422 naming what is missing). */
  private async formModel(
    userId: string,
    body: TestConnectionRequest,
  ): Promise<ModelConfig | TestConnectionResponse> {
    const row = await this.deps.repos.userSettings.get(userId);
    const provider = body.ai_provider ?? row?.ai_provider ?? null;
    if (provider === 'builtin') return builtinAnswer();
    const { issues, issue } = issueList();
    if (!isModelProvider(provider)) {
      issue('ai_provider', 'Choose a provider to test');
      throw new AppError('VALIDATION', issues);
    }
    const model = body.ai_model ?? row?.ai_model;
    const baseUrl = body.ai_base_url !== undefined ? body.ai_base_url : row?.ai_base_url;
    if (!model) issue('ai_model', `${PROVIDER_NAMES[provider]} needs a model name`);
    if (provider === 'openai-compatible' && !baseUrl)
      issue('ai_base_url', 'An OpenAI-compatible provider needs a base URL (e.g. http://localhost:11434/v1)');
    if (baseUrl) {
      const refused = await baseUrlProblem(this.deps.policy, baseUrl);
      if (refused) issue('ai_base_url', refused);
    }
    if (issues.length || !model) throw new AppError('VALIDATION', issues);
    let apiKey: string | undefined;
    if (body.ai_api_key !== undefined) apiKey = body.ai_api_key ?? undefined;
    else {
      try {
        // The stored key only goes to the provider and base URL origin it was saved for.
        apiKey = this.secrets.revealApiKey(row, userId, provider, baseUrl);
      } catch (error) {
        if (error instanceof ModelError) return failed(error);
        throw error;
      }
    }
    return this.models.userConfig(userId, provider, model, baseUrl ?? undefined, apiKey);
  }
}

function builtinAnswer(): TestConnectionResponse {
  return {
    ok: true,
    message:
      'The built-in engine makes no model calls, so there is no connection to test. Choose a provider to test one.',
    latency_ms: 0,
  };
}
