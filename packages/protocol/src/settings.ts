import { z } from 'zod';
import { TimestampSchema } from './common';
import { MODEL_PROVIDERS, ModelUsageSchema } from './models';

/**
 * A user's choice of engine on the Settings page: the built-in rule-based engine (no model, even when
 * the server has one), or one of the model providers.
 */
export const AI_ENGINE_CHOICES = ['builtin', ...MODEL_PROVIDERS] as const;
export const AiEngineChoiceSchema = z.enum(AI_ENGINE_CHOICES);
export type AiEngineChoice = z.infer<typeof AiEngineChoiceSchema>;

/** Labels the Settings page shows for each choice. */
export const AI_ENGINE_LABELS: Record<AiEngineChoice, string> = {
  builtin: 'Built-in (rule-based, no model)',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible (Ollama, vLLM, LM Studio, OpenRouter)',
};

export const BASE_URL_REFUSED = 'The base URL must be an http:// or https:// address';
export const MAX_SECRET_LENGTH = 500;
export const MAX_MONTHLY_BUDGET_USD = 1_000_000;

/**
 * How a stored secret is shown: never more than its last four characters. 'sk-test-abcd1234' →
 * 'sk-…1234' (the part up to the first '-' is a provider's public prefix, shown when the key is long
 * enough that at least eight characters stay hidden); otherwise '…' and the last four (12 characters or
 * more), the last two (8 to 11), or nothing (shorter).
 */
export function maskSecret(secret: string): string {
  const text = secret.trim();
  if (text.length < 8) return '…';
  const last4 = text.slice(-4);
  const dash = text.indexOf('-');
  const prefix = dash > 0 && dash < 8 ? text.slice(0, dash + 1) : '';
  if (prefix && text.length - prefix.length - 4 >= 8) return `${prefix}…${last4}`;
  if (text.length >= 12) return `…${last4}`;
  return `…${text.slice(-2)}`;
}

const baseUrl = z
  .string()
  .trim()
  .max(2048, 'The base URL must be at most 2048 characters')
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: BASE_URL_REFUSED });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      ctx.addIssue({ code: 'custom', message: BASE_URL_REFUSED });
    else if (url.username || url.password)
      ctx.addIssue({ code: 'custom', message: 'Put credentials in the API key field, not in the base URL' });
  });

const secret = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter the ${what}, or send null to remove it`)
    .max(MAX_SECRET_LENGTH, `The ${what} must be at most ${MAX_SECRET_LENGTH} characters`)
    .refine((value) => !/\s/.test(value), `The ${what} may not contain spaces`);

const model = z.string().trim().min(1, 'Enter a model name').max(200, 'The model name is too long');

/**
 * `PUT /api/settings`: a partial change. A field left out keeps its value; `null` clears it (for
 * `ai_provider`, null means "follow the server's default"). A secret is a string to set, null to
 * remove, absent to keep: it is never sent back.
 */
export const SettingsUpdateSchema = z.object({
  ai_provider: AiEngineChoiceSchema.nullable().optional(),
  ai_model: model.nullable().optional(),
  ai_base_url: baseUrl.nullable().optional(),
  ai_api_key: secret('API key').nullable().optional(),
  figma_token: secret('Figma token').nullable().optional(),
  monthly_budget_usd: z
    .number()
    .nonnegative('The budget cannot be negative')
    .max(MAX_MONTHLY_BUDGET_USD, `The budget must be at most ${MAX_MONTHLY_BUDGET_USD} USD`)
    .nullable()
    .optional(),
});
export type SettingsUpdate = z.infer<typeof SettingsUpdateSchema>;

/**
 * `POST /api/settings/test-connection`: tests what is saved, or what the form holds before saving.
 * Any field given overrides the saved one; an absent `ai_api_key` means the stored key. With no field
 * at all, the engine in effect is tested (the server's own model when the user has none).
 */
export const TestConnectionRequestSchema = z.object({
  ai_provider: AiEngineChoiceSchema.optional(),
  ai_model: model.optional(),
  ai_base_url: baseUrl.nullable().optional(),
  ai_api_key: secret('API key').nullable().optional(),
});
export type TestConnectionRequest = z.infer<typeof TestConnectionRequestSchema>;

/** What one tiny call ('Reply with the word OK') brought back; `message` is the sentence to show. */
export const TestConnectionResponseSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  reply: z.string().optional(),
  latency_ms: z.number().nonnegative(),
});
export type TestConnectionResponse = z.infer<typeof TestConnectionResponseSchema>;

/** A masked secret: 'sk-…a1b2', '…a1b2' or '…'; null when none is stored. */
export const MaskedSecretSchema = z.string().max(32).nullable();

/** The engine that writes and runs tests for this user now. */
export const EffectiveEngineSchema = z.object({
  /** 'builtin', or the provider of the model in use. */
  provider: AiEngineChoiceSchema,
  model: z.string().nullable(),
  /** Whose configuration it is: the user's Settings, or the server's AI_* variables. */
  source: z.enum(['user', 'server']),
  /** 'Built-in (rule-based)' or 'LLM (openai · gpt-4o-mini)', as results name it. */
  name: z.string(),
});
export type EffectiveEngine = z.infer<typeof EffectiveEngineSchema>;

/** `GET /api/settings` (and the answer of `PUT`): the user's settings with secrets masked. */
export const SettingsResponseSchema = z.object({
  /** null: the server's default applies. */
  ai_provider: AiEngineChoiceSchema.nullable(),
  ai_model: z.string().nullable(),
  ai_base_url: z.string().nullable(),
  ai_api_key: MaskedSecretSchema,
  figma_token: MaskedSecretSchema,
  monthly_budget_usd: z.number().nullable(),
  /** What the server's AI_PROVIDER / AI_MODEL configure (never its key or base URL). */
  server_default: z.object({
    provider: AiEngineChoiceSchema,
    model: z.string().nullable(),
    /** Whether the server shares its FIGMA_TOKEN with users who have none (FIGMA_TOKEN_SHARED=true). */
    figma_token_set: z.boolean(),
    /**
     * The most one user may spend a month on the server's own key (AI_SERVER_KEY_USER_MONTHLY_USD);
     * a user's own budget can only lower it. Absent when the server has no model of its own.
     */
    user_monthly_cap_usd: z.number().nonnegative().optional(),
  }),
  effective: EffectiveEngineSchema,
  /** Model calls since the first of this month (UTC). */
  usage: ModelUsageSchema,
  usage_since: TimestampSchema,
  /** True when the month's cost has reached the budget: model calls stop until the 1st or a raise. */
  budget_reached: z.boolean(),
  updated_at: TimestampSchema.nullable(),
});
export type SettingsResponse = z.infer<typeof SettingsResponseSchema>;
