import { AbortedError } from '@argus/engine';
import { ModelClient, type UsageRecord } from './model-client';
import type { ModelConfig } from './model-config';
import { ModelError } from './model-errors';

export interface ConnectionTestResult {
  ok: boolean;
  /** What came back, in a sentence a user reads: the model's reply, or why there was none. */
  message: string;
  /** The model's own words, when it answered. */
  reply?: string;
  latencyMs: number;
  usage?: UsageRecord;
}

/**
 * One tiny call ('Reply with the word OK'), no retries, and what came back: the Settings page's
 * 'Test connection' button.
 */
export async function testConnection(
  config: ModelConfig,
  options: {
    signal?: AbortSignal;
    timeoutMs?: number;
    onUsage?: (record: UsageRecord) => void | Promise<void>;
  } = {},
): Promise<ConnectionTestResult> {
  const started = Date.now();
  let usage: UsageRecord | undefined;
  const client = new ModelClient({
    config,
    timeoutMs: options.timeoutMs ?? 20_000,
    maxRetries: 0,
    onUsage: async (record) => {
      usage = record;
      await options.onUsage?.(record);
    },
  });
  try {
    const text = await client.text({
      kind: 'connection-test',
      system: 'You are a connection check. Answer with one word.',
      prompt: 'Reply with the word OK.',
      signal: options.signal,
    });
    const reply = text.trim().slice(0, 200);
    const latencyMs = Date.now() - started;
    return {
      ok: true,
      reply,
      latencyMs,
      usage,
      message: `Connected to ${config.model} (${config.provider}) in ${latencyMs} ms. It replied: "${reply || '(an empty answer)'}".`,
    };
  } catch (error) {
    if (error instanceof AbortedError) throw error;
    const message = error instanceof ModelError || error instanceof Error ? error.message : String(error);
    return { ok: false, message, latencyMs: Date.now() - started, usage };
  }
}
