import {
  engineName,
  listPrice,
  type ModelConfig,
  ModelError,
  type ModelPrice,
  type SpendGuard,
  testConnection,
  type UsageRecord,
} from '@argus/ai';
import type { ModelUsageTotals, Repositories, UserSettingsPatch, UserSettingsRow } from '@argus/db';
import type { TargetPolicy } from '@argus/engine';
import {
  type AiEngineChoice,
  type EffectiveEngine,
  type ModelProvider,
  ModelProviderSchema,
  maskSecret,
  type SettingsResponse,
  type SettingsUpdate,
  type TestConnectionRequest,
  type TestConnectionResponse,
  type ValidationIssue,
} from '@argus/protocol';
import type { Config } from '../config';
import { AppError } from '../errors';
import { type Secrets, SecretUnreadableError } from '../security/secrets';

export const BUILTIN_ENGINE_NAME = 'Built-in (rule-based)';
const PROVIDER_NAMES: Record<ModelProvider, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'An OpenAI-compatible provider',
};
const CONNECTION_TEST_TIMEOUT_MS = 20_000;

const isModelProvider = (value: string | null | undefined): value is ModelProvider =>
  ModelProviderSchema.safeParse(value).success;

/** The first instant of `now`'s month, UTC: the monthly budget counts from there. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

const day = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** US dollars as people read them: two decimals, four for amounts under a cent, '< $0.0001' below that. */
export function formatUsd(amount: number): string {
  if (amount > 0 && amount < 0.0001) return '< $0.0001';
  return `$${amount > 0 && amount < 0.01 ? amount.toFixed(4) : amount.toFixed(2)}`;
}

/** What one model call under way holds against its user's budget and, on the server's key, the operator's caps. */
interface Hold {
  userId: string;
  serverKey: boolean;
  usd: number;
}

export interface ModelSettingsDeps {
  config: Config;
  repos: Pick<Repositories, 'userSettings' | 'modelUsage'>;
  secrets: Secrets;
  /** The server browser's policy (ALLOWED_TARGETS): a base URL a user types must pass it too. */
  policy: Pick<TargetPolicy, 'check'>;
  /**
   * How calls to a user's own model go out: `policyFetch` over the same policy (each connection
   * judged as it is opened, redirects refused). @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch;
  /** How calls to the server's own model (AI_BASE_URL) go out: `cappedFetch`. @default globalThis.fetch */
  serverFetch?: typeof globalThis.fetch;
  now?: () => Date;
}

/**
 * Which model each user's work uses, with what key, within what budget (issue 9). A user's Settings
 * override the server's AI_* variables; 'builtin' there means the built-in engine even when the server
 * has a model. Secrets are stored encrypted (`Secrets`), bound to their user and field, and never
 * leave the server but in the calls they are for.
 */
export class ModelSettingsService {
  private readonly now: () => Date;
  /** Model calls under way and what each holds against the caps (spendGuard). */
  private readonly holds = new Set<Hold>();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ModelSettingsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

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
  private priceOf(provider: ModelProvider, model: string): ModelPrice | undefined {
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
      const provider = row.ai_provider;
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
        const refused = await this.baseUrlProblem(baseUrl);
        if (refused) throw new ModelError('unreachable', refused);
      }
      const apiKey = this.revealApiKey(row, userId, provider, baseUrl);
      return {
        config: {
          provider,
          model: row.ai_model,
          baseUrl,
          apiKey,
          fetch: this.deps.fetch,
          price: this.priceOf(provider, row.ai_model) ?? null,
          spend: this.spendGuard(userId, false),
        },
        source: 'user',
      };
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
    return { config: { ...server, spend: this.spendGuard(userId, true) }, source: 'server' };
  }

  /**
   * The Figma token design comparison uses for this user: their own, else the server's FIGMA_TOKEN, but
   * only when the operator shares it (FIGMA_TOKEN_SHARED=true): every account would read what it can.
   */
  async figmaToken(userId: string): Promise<string | undefined> {
    const row = await this.deps.repos.userSettings.get(userId);
    return this.reveal(row?.figma_token_enc, 'figma_token', userId) ?? this.sharedFigmaToken();
  }

  /** The server's FIGMA_TOKEN when the operator shares it with users who have none (FIGMA_TOKEN_SHARED). */
  private sharedFigmaToken(): string | undefined {
    return this.deps.config.figmaTokenShared ? this.deps.config.figmaToken : undefined;
  }

  /** Calls, tokens and cost since the first of this month (UTC). */
  monthUsage(userId: string): Promise<ModelUsageTotals> {
    return this.deps.repos.modelUsage.totalsSince(userId, monthStart(this.now()));
  }

  /**
   * Before every model call: throws `ModelError('budget')` once this month's cost has reached the
   * user's monthly budget, saying the budget, what was spent and when calls resume.
   */
  async checkBudget(userId: string): Promise<void> {
    const row = await this.deps.repos.userSettings.get(userId);
    const budget = row?.monthly_budget_usd;
    if (budget === null || budget === undefined) return;
    const now = this.now();
    const since = monthStart(now);
    const { cost_usd: spent } = await this.deps.repos.modelUsage.totalsSince(userId, since);
    if (spent < budget) return;
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    throw new ModelError(
      'budget',
      `Your monthly model budget of ${formatUsd(budget)} is reached: ${formatUsd(spent)} spent since ${day.format(since)} (UTC). ` +
        `Model calls resume on ${day.format(next)}, or as soon as you raise the budget in Settings.`,
    );
  }

  /**
   * What each model call of this user's holds before it is made (ModelConfig.spend): its most likely
   * cost is checked, together with this month's stored cost and what calls under way hold, against
   * the user's own budget and, on the server's key, the operator's per-user and total caps, and held
   * until the call's usage is stored. Holds live in this process (one server process today): the
   * check and the hold happen under one lock, and a hold is let go under it too, after its usage row
   * is written, so no two calls can both fit in the same remaining amount.
   */
  private spendGuard(userId: string, serverKey: boolean): SpendGuard {
    return {
      reserve: ({ estimateUsd }) =>
        this.exclusive(async () => {
          await this.checkCaps(userId, serverKey, Math.max(0, estimateUsd));
          const hold: Hold = { userId, serverKey, usd: Math.max(0, estimateUsd) };
          this.holds.add(hold);
          let settled = false;
          return {
            settle: async () => {
              if (settled) return;
              settled = true;
              await this.exclusive(async () => {
                this.holds.delete(hold);
              });
            },
          };
        }),
    };
  }

  /** Throws ModelError('budget') naming the cap and the amounts when a call of up to `estimate` does not fit. */
  private async checkCaps(userId: string, serverKey: boolean, estimate: number): Promise<void> {
    const now = this.now();
    const since = monthStart(now);
    const until = `Calls resume on ${day.format(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)))}`;
    const held = (match: (hold: Hold) => boolean) =>
      [...this.holds].filter(match).reduce((sum, hold) => sum + hold.usd, 0);
    // Refused when what is spent and held already reaches the cap, or this call could pass it.
    const over = (cap: number, used: number) => used >= cap || used + estimate > cap;
    const amounts = (spent: number, heldUsd: number) =>
      `${formatUsd(spent)} spent since ${day.format(since)} (UTC)` +
      (heldUsd > 0 ? ` and ${formatUsd(heldUsd)} held for calls under way` : '') +
      `, and this call may cost up to ${formatUsd(estimate)}`;

    const row = await this.deps.repos.userSettings.get(userId);
    const budget = row?.monthly_budget_usd;
    if (budget !== null && budget !== undefined) {
      const { cost_usd: spent } = await this.deps.repos.modelUsage.totalsSince(userId, since);
      const mine = held((hold) => hold.userId === userId);
      if (over(budget, spent + mine))
        throw new ModelError(
          'budget',
          `Your monthly model budget of ${formatUsd(budget)} does not allow this call: ${amounts(spent, mine)}. ` +
            `${until}, or as soon as you raise the budget in Settings.`,
        );
    }
    if (!serverKey) return;
    const { aiServerKeyUserMonthlyUsd: userCap, aiServerKeyTotalMonthlyUsd: totalCap } = this.deps.config;
    const userSpent = await this.deps.repos.modelUsage.serverKeyCostSince(since, userId);
    const userHeld = held((hold) => hold.serverKey && hold.userId === userId);
    if (over(userCap, userSpent + userHeld))
      throw new ModelError(
        'budget',
        `The server's model allows each user ${formatUsd(userCap)} a month (AI_SERVER_KEY_USER_MONTHLY_USD): ` +
          `${amounts(userSpent, userHeld)}. ${until}, or choose your own model and key in Settings.`,
      );
    const totalSpent = await this.deps.repos.modelUsage.serverKeyCostSince(since);
    const totalHeld = held((hold) => hold.serverKey);
    if (over(totalCap, totalSpent + totalHeld))
      throw new ModelError(
        'budget',
        `The server's model has reached its monthly limit of ${formatUsd(totalCap)} for all users together ` +
          `(AI_SERVER_KEY_TOTAL_MONTHLY_USD): ${amounts(totalSpent, totalHeld)}. ${until}, or choose your own model and key in Settings.`,
      );
  }

  /** Runs `task` after every task queued before it has finished: the caps' check-and-hold is atomic. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
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

  /** Why the server may not call `baseUrl` for a user (the browser's target policy), or null. */
  async baseUrlProblem(baseUrl: string): Promise<string | null> {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      return 'The base URL must be an http:// or https:// address';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return 'The base URL must be an http:// or https:// address';
    const decision = await this.deps.policy.check(url);
    return decision.allowed ? null : `The server may not call this base URL: ${decision.reason}.`;
  }

  /** GET /api/settings: the user's settings, secrets masked, with the engine in effect and the month's usage. */
  async view(userId: string): Promise<SettingsResponse> {
    const [row, usage] = await Promise.all([
      this.deps.repos.userSettings.get(userId),
      this.monthUsage(userId),
    ]);
    const server = this.serverModel();
    const budget = row?.monthly_budget_usd ?? null;
    const effective = this.effectiveEngine(row, server);
    const userCap = this.deps.config.aiServerKeyUserMonthlyUsd;
    const capReached =
      server !== null &&
      effective.source === 'server' &&
      effective.provider !== 'builtin' &&
      (await this.deps.repos.modelUsage.serverKeyCostSince(monthStart(this.now()), userId)) >= userCap;
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
        figma_token_set: Boolean(this.sharedFigmaToken()),
      },
      effective,
      usage,
      usage_since: monthStart(this.now()).toISOString(),
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
    const issues: ValidationIssue[] = [];
    const issue = (field: string, msg: string) =>
      issues.push({ loc: ['body', field], msg, type: 'value_error' });
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
      const refused = await this.baseUrlProblem(body.ai_base_url);
      if (refused) issue('ai_base_url', refused);
    }
    if (issues.length) throw new AppError('VALIDATION', issues);

    const patch: UserSettingsPatch = {
      ai_provider: body.ai_provider,
      ai_model: body.ai_model,
      ai_base_url: body.ai_base_url,
      monthly_budget_usd: body.monthly_budget_usd,
    };
    if (body.ai_api_key !== undefined) {
      patch.ai_api_key_enc =
        body.ai_api_key === null
          ? null
          : this.deps.secrets.encrypt(
              body.ai_api_key.trim(),
              `ai_api_key:${userId}`,
              keyBinding(provider, baseUrl),
            );
      patch.ai_api_key_last4 = body.ai_api_key === null ? null : maskSecret(body.ai_api_key);
    } else if (
      row?.ai_api_key_enc &&
      this.deps.secrets.bindingOf(row.ai_api_key_enc) === undefined &&
      keyBinding(provider, baseUrl) !== keyBinding(row.ai_provider, row.ai_base_url)
    ) {
      // A key saved before keys were bound to where they go: bind it now to where it was saved for,
      // so the new provider or base URL does not get it (revealApiKey asks for it again).
      try {
        const key = this.deps.secrets.decrypt(row.ai_api_key_enc, `ai_api_key:${userId}`);
        patch.ai_api_key_enc = this.deps.secrets.encrypt(
          key,
          `ai_api_key:${userId}`,
          keyBinding(row.ai_provider, row.ai_base_url),
        );
      } catch (error) {
        if (!(error instanceof SecretUnreadableError)) throw error;
      }
    }
    if (body.figma_token !== undefined) {
      patch.figma_token_enc =
        body.figma_token === null ? null : this.hide(body.figma_token, 'figma_token', userId);
      patch.figma_token_last4 = body.figma_token === null ? null : maskSecret(body.figma_token);
    }
    await this.deps.repos.userSettings.upsert(userId, patch);
    return this.view(userId);
  }

  /**
   * POST /api/settings/test-connection: one tiny call with the saved configuration, or with what the
   * form holds (any field given overrides the saved one; an absent key means the stored one). The
   * server's own model (and key) is only ever tested as it is configured, never with a user's changes.
   */
  async testConnection(userId: string, body: TestConnectionRequest): Promise<TestConnectionResponse> {
    let config: ModelConfig;
    const overrides = Object.values(body).some((value) => value !== undefined);
    if (!overrides) {
      try {
        const effective = await this.effectiveModel(userId);
        if (!effective) return builtinAnswer();
        config = effective.config;
      } catch (error) {
        if (error instanceof ModelError) return { ok: false, message: error.message, latency_ms: 0 };
        throw error;
      }
    } else {
      const row = await this.deps.repos.userSettings.get(userId);
      const provider = body.ai_provider ?? row?.ai_provider ?? null;
      if (provider === 'builtin') return builtinAnswer();
      const issues: ValidationIssue[] = [];
      const issue = (field: string, msg: string) =>
        issues.push({ loc: ['body', field], msg, type: 'value_error' });
      if (!isModelProvider(provider)) {
        issue('ai_provider', 'Choose a provider to test');
        throw new AppError('VALIDATION', issues);
      }
      const model = body.ai_model ?? row?.ai_model;
      const baseUrl = body.ai_base_url !== undefined ? body.ai_base_url : row?.ai_base_url;
      if (!model) issue('ai_model', `${PROVIDER_NAMES[provider]} needs a model name`);
      if (provider === 'openai-compatible' && !baseUrl)
        issue(
          'ai_base_url',
          'An OpenAI-compatible provider needs a base URL (e.g. http://localhost:11434/v1)',
        );
      if (baseUrl) {
        const refused = await this.baseUrlProblem(baseUrl);
        if (refused) issue('ai_base_url', refused);
      }
      if (issues.length || !model) throw new AppError('VALIDATION', issues);
      let apiKey: string | undefined;
      if (body.ai_api_key !== undefined) apiKey = body.ai_api_key ?? undefined;
      else {
        try {
          // The stored key only goes to the provider and base URL origin it was saved for.
          apiKey = this.revealApiKey(row, userId, provider, baseUrl);
        } catch (error) {
          if (error instanceof ModelError) return { ok: false, message: error.message, latency_ms: 0 };
          throw error;
        }
      }
      config = {
        provider,
        model,
        baseUrl: baseUrl ?? undefined,
        apiKey,
        fetch: this.deps.fetch,
        price: this.priceOf(provider, model) ?? null,
        spend: this.spendGuard(userId, false),
      };
    }
    try {
      await this.checkBudget(userId);
    } catch (error) {
      if (error instanceof ModelError) return { ok: false, message: error.message, latency_ms: 0 };
      throw error;
    }
    const result = await testConnection(config, {
      timeoutMs: CONNECTION_TEST_TIMEOUT_MS,
      onUsage: (record) => this.recordUsage(userId, record),
    });
    return {
      ok: result.ok,
      message: result.message,
      ...(result.reply !== undefined ? { reply: result.reply } : {}),
      latency_ms: result.latencyMs,
    };
  }

  private effectiveEngine(row: UserSettingsRow | undefined, server: ModelConfig | null): EffectiveEngine {
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
   * The user's stored API key for a call to `provider` at `baseUrl`: a key is bound to the provider
   * and base URL origin it was saved with (AES-GCM associated data), so whoever changes either in
   * Settings cannot have it sent to a host of their own; they must give the key again.
   */
  private revealApiKey(
    row: UserSettingsRow | undefined,
    userId: string,
    provider: string,
    baseUrl: string | null | undefined,
  ): string | undefined {
    const stored = row?.ai_api_key_enc;
    if (!stored) return undefined;
    const savedFor = this.deps.secrets.bindingOf(stored) ?? keyBinding(row.ai_provider, row.ai_base_url);
    if (savedFor !== keyBinding(provider, baseUrl))
      throw new ModelError(
        'auth',
        `Your saved API key was for ${describeBinding(savedFor)}; it is only ever sent there, and the provider or base URL has changed since. Enter the API key again in Settings.`,
      );
    try {
      return this.deps.secrets.decrypt(stored, `ai_api_key:${userId}`);
    } catch (error) {
      if (error instanceof SecretUnreadableError) throw new ModelError('auth', error.message);
      throw error;
    }
  }

  private hide(secret: string, field: string, userId: string): string {
    return this.deps.secrets.encrypt(secret.trim(), `${field}:${userId}`);
  }

  private reveal(stored: string | null | undefined, field: string, userId: string): string | undefined {
    return stored ? this.deps.secrets.decrypt(stored, `${field}:${userId}`) : undefined;
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

/** Where a stored API key may be sent: its provider and the origin of its base URL ('default': the provider's own). */
function keyBinding(provider: string | null | undefined, baseUrl: string | null | undefined): string {
  let origin = 'default';
  if (baseUrl) {
    try {
      origin = new URL(baseUrl).origin;
    } catch {
      origin = baseUrl;
    }
  }
  return `${provider ?? 'none'} ${origin}`;
}

function describeBinding(binding: string): string {
  const [provider = '', origin = 'default'] = binding.split(' ');
  const name = isModelProvider(provider) ? PROVIDER_NAMES[provider].replace(/^An /, 'an ') : provider;
  return origin === 'default' ? `${name}'s own API` : `${name} at ${origin}`;
}
