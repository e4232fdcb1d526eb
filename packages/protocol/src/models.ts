import { z } from 'zod';

/**
 * The model providers the LLM engine speaks to: OpenAI, Anthropic, and any server with OpenAI's
 * chat-completions API (Ollama, vLLM, LM Studio, OpenRouter) reached by its base URL.
 */
export const MODEL_PROVIDERS = ['openai', 'anthropic', 'openai-compatible'] as const;
export const ModelProviderSchema = z.enum(MODEL_PROVIDERS);
export type ModelProvider = z.infer<typeof ModelProviderSchema>;

/** What model calls cost, counted by the server for one generation, step, run or month. */
export const ModelUsageSchema = z.object({
  model_calls: z.number().int().nonnegative(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  /** Estimated from the provider's list prices (or the server's AI_MODEL_PRICES); unpriced calls add 0. */
  cost_usd: z.number().nonnegative(),
  /** Calls to a model with no known price: their cost is unknown, not $0 (Settings usage only). */
  unpriced_calls: z.number().int().nonnegative().optional(),
});
export type ModelUsage = z.infer<typeof ModelUsageSchema>;
