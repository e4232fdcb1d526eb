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
  /** Estimated from the provider's list prices; 0 for self-hosted and unknown models. */
  cost_usd: z.number().nonnegative(),
});
export type ModelUsage = z.infer<typeof ModelUsageSchema>;
