import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ModelProvider } from '@argus/protocol';
import type { LanguageModel } from 'ai';

/** One model at one provider, as the server's AI_* variables or a user's Settings name it. */
export interface ModelConfig {
  provider: ModelProvider;
  /** The provider's model id: 'gpt-4o-mini', 'claude-sonnet-4-5', 'llama3.1'… */
  model: string;
  /** Where the provider listens. @default the provider's public API (required for openai-compatible) */
  baseUrl?: string;
  /** Sent as the provider expects it (Bearer, x-api-key); never logged. Optional for local servers. */
  apiKey?: string;
  /**
   * How requests go out: the server passes one that holds a user's base URL to the browser's target
   * policy on every connection (redirects and DNS changes included). @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch;
  /** Whether it reads images; screenshots go with observations when it does. @default guessed from the model's name */
  vision?: boolean;
  /**
   * The price to count this model's calls at, given by whoever configured it (the server's
   * AI_MODEL_PRICES); `null` says no price is known. @default the list price below, if any
   */
  price?: ModelPrice | null;
  /** Whether the key is the server's own (AI_API_KEY): its usage counts against the operator's caps. @default false */
  serverKey?: boolean;
  /**
   * Holds each call's most it can cost against the spender's caps before it is made, so calls made at
   * the same time cannot together overshoot a cap; throws a ModelError('budget') when it does not fit.
   * @default none (no cap)
   */
  spend?: SpendGuard;
}

/** US dollars per million input and output tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/** One call's held amount, let go once the call's usage is stored (onUsage) or the call failed. */
export interface SpendReservation {
  settle(): Promise<void>;
}

export interface SpendGuard {
  reserve(call: { kind: string; estimateUsd: number }): Promise<SpendReservation>;
}

/** Models known to read images; a self-hosted one only when its name says so (llava, -vl, vision). */
export function seesImages(config: ModelConfig): boolean {
  if (config.vision !== undefined) return config.vision;
  if (config.provider === 'openai-compatible')
    return /llava|vision|-vl\b|vl-|gemma3|qwen2\.5vl|pixtral/i.test(config.model);
  return /^(gpt-4o|gpt-4\.1|gpt-5|o3|o4|claude-(3|sonnet|opus|haiku))/i.test(config.model);
}

/** The name results carry, so nobody mistakes one engine for another: 'LLM (anthropic · claude-…)'. */
export function engineName(config: ModelConfig): string {
  return `LLM (${config.provider} · ${config.model})`;
}

/** Where a provider's requests go, for messages ('Could not reach …'); never includes a key. */
export function providerEndpoint(config: ModelConfig): string {
  if (config.baseUrl) return config.baseUrl;
  return config.provider === 'anthropic' ? 'https://api.anthropic.com/v1' : 'https://api.openai.com/v1';
}

/** The AI SDK model for a configuration. */
export function languageModel(config: ModelConfig): LanguageModel {
  switch (config.provider) {
    case 'openai':
      // Chat completions rather than the Responses API: the one wire format every OpenAI-style server shares.
      return createOpenAI({ apiKey: config.apiKey ?? '', baseURL: config.baseUrl, fetch: config.fetch }).chat(
        config.model,
      );
    case 'anthropic':
      return createAnthropic({ apiKey: config.apiKey ?? '', baseURL: config.baseUrl, fetch: config.fetch })(
        config.model,
      );
    case 'openai-compatible':
      if (!config.baseUrl) throw new Error('An OpenAI-compatible provider needs a base URL (AI_BASE_URL).');
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: config.baseUrl,
        apiKey: config.apiKey || undefined,
        supportsStructuredOutputs: true,
        includeUsage: true,
        fetch: config.fetch,
      })(config.model);
  }
}

/** US dollars per million input and output tokens, list prices; self-hosted and unknown models have none. */
const PRICES: [RegExp, number, number][] = [
  [/^gpt-4o-mini/, 0.15, 0.6],
  [/^gpt-4o/, 2.5, 10],
  [/^gpt-4\.1-nano/, 0.1, 0.4],
  [/^gpt-4\.1-mini/, 0.4, 1.6],
  [/^gpt-4\.1/, 2, 8],
  [/^gpt-5-nano/, 0.05, 0.4],
  [/^gpt-5-mini/, 0.25, 2],
  [/^gpt-5/, 1.25, 10],
  [/^o4-mini/, 1.1, 4.4],
  [/^claude-(3-5-)?haiku/, 0.8, 4],
  [/^claude-haiku-4/, 1, 5],
  [/^claude-(3-7-|3-5-)?sonnet|^claude-sonnet-4/, 3, 15],
  [/^claude-opus-4-[15]/, 5, 25],
  [/^claude-(3-)?opus/, 15, 75],
];

/** The list price of a hosted model, or undefined (an OpenAI-compatible server's or an unlisted model's). */
export function listPrice(config: Pick<ModelConfig, 'provider' | 'model'>): ModelPrice | undefined {
  if (config.provider === 'openai-compatible') return undefined;
  const price = PRICES.find(([pattern]) => pattern.test(config.model));
  return price ? { input: price[1], output: price[2] } : undefined;
}

/** The price calls are counted at: the configured one, else the list price; undefined when unknown. */
export function modelPrice(config: ModelConfig): ModelPrice | undefined {
  if (config.price !== undefined) return config.price ?? undefined;
  return listPrice(config);
}

/** Estimated cost of one call in US dollars, or null when the model's price is unknown (not $0). */
export function estimateCost(config: ModelConfig, inputTokens: number, outputTokens: number): number | null {
  const price = modelPrice(config);
  if (!price) return null;
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}
