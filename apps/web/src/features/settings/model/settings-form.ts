import {
  type AiEngineChoice,
  MAX_MONTHLY_BUDGET_USD,
  MODEL_PROVIDERS,
  type ModelProvider,
  type SettingsResponse,
  type SettingsUpdate,
  type TestConnectionRequest,
} from '@argus/protocol';

/** The AI engine form: '' follows the server's default. A typed key replaces the stored one; empty keeps it. */
export interface AiFormValues {
  provider: AiEngineChoice | '';
  model: string;
  baseUrl: string;
  apiKey: string;
}

export type AiField = 'provider' | 'model' | 'baseUrl' | 'apiKey';
export type AiFormErrors = Partial<Record<AiField, string>>;

/** The wire field each form field is sent as, to put a server refusal next to its field. */
export const WIRE_FIELDS: Record<string, AiField> = {
  ai_provider: 'provider',
  ai_model: 'model',
  ai_base_url: 'baseUrl',
  ai_api_key: 'apiKey',
};

export const MODEL_PLACEHOLDERS: Record<ModelProvider, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-sonnet-4-5',
  'openai-compatible': 'llama3.1',
};

export const BASE_URL_PLACEHOLDERS: Record<ModelProvider, string> = {
  openai: 'https://api.openai.com/v1 (default)',
  anthropic: 'https://api.anthropic.com/v1 (default)',
  'openai-compatible': 'http://localhost:11434/v1',
};

export function isModelProvider(value: string): value is ModelProvider {
  return (MODEL_PROVIDERS as readonly string[]).includes(value);
}

export function aiFormFrom(settings: SettingsResponse): AiFormValues {
  return {
    provider: settings.ai_provider ?? '',
    model: settings.ai_model ?? '',
    baseUrl: settings.ai_base_url ?? '',
    apiKey: '',
  };
}

/** What the form lacks before it can be saved or tested; the server checks again (and the base URL's host). */
export function aiFormProblems(values: AiFormValues): AiFormErrors {
  const errors: AiFormErrors = {};
  if (!isModelProvider(values.provider)) return errors;
  if (!values.model.trim()) errors.model = 'Enter a model name';
  const baseUrl = values.baseUrl.trim();
  if (values.provider === 'openai-compatible' && !baseUrl)
    errors.baseUrl = 'An OpenAI-compatible provider needs a base URL';
  else if (baseUrl && !/^https?:\/\/[^\s/]+/i.test(baseUrl))
    errors.baseUrl = 'The base URL must be an http:// or https:// address';
  if (/\s/.test(values.apiKey.trim())) errors.apiKey = 'The API key may not contain spaces';
  return errors;
}

/** PUT body for the AI engine panel: the provider, model and base URL as shown; the key only when typed. */
export function aiUpdateBody(values: AiFormValues): SettingsUpdate {
  const body: SettingsUpdate = {
    ai_provider: values.provider === '' ? null : values.provider,
    ai_model: values.model.trim() || null,
    ai_base_url: values.baseUrl.trim() || null,
  };
  const key = values.apiKey.trim();
  if (key) body.ai_api_key = key;
  return body;
}

/**
 * Test-connection body: what the form holds, so a choice can be tried before it is saved. Following
 * the server's default sends nothing (the engine in effect is tested); an empty key means the stored one.
 */
export function connectionTestBody(values: AiFormValues): TestConnectionRequest {
  if (values.provider === '') return {};
  if (values.provider === 'builtin') return { ai_provider: 'builtin' };
  const body: TestConnectionRequest = {
    ai_provider: values.provider,
    ai_model: values.model.trim(),
    ai_base_url: values.baseUrl.trim() || null,
  };
  const key = values.apiKey.trim();
  if (key) body.ai_api_key = key;
  return body;
}

/** The budget field: empty means no limit; otherwise dollars, at least 0. */
export function parseBudget(text: string): { value: number | null } | { error: string } {
  const trimmed = text.trim().replace(/^\$/, '');
  if (trimmed === '') return { value: null };
  const value = Number(trimmed);
  if (!Number.isFinite(value) || value < 0) return { error: 'Enter an amount in US dollars, 0 or more' };
  if (value > MAX_MONTHLY_BUDGET_USD)
    return { error: `The budget must be at most ${MAX_MONTHLY_BUDGET_USD} USD` };
  return { value: Math.round(value * 100) / 100 };
}

/** US dollars: two decimals, four for amounts under a cent, '< $0.0001' below that. */
export function formatUsd(amount: number): string {
  if (amount > 0 && amount < 0.0001) return '< $0.0001';
  return `$${amount > 0 && amount < 0.01 ? amount.toFixed(4) : amount.toFixed(2)}`;
}

export function formatCount(n: number): string {
  return new Intl.NumberFormat('en-US').format(n);
}

/** '1 March' from the usage's start (UTC). */
export function formatMonthStart(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(iso),
  );
}
