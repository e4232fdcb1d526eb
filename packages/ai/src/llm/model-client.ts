import { AbortedError, abortableDelay } from '@argus/engine';
import { generateText, type ModelMessage, NoObjectGeneratedError, Output, type UserContent } from 'ai';
import type { z } from 'zod';
import { engineName, estimateCost, languageModel, type ModelConfig } from './model-config';
import { isRetryable, ModelError, retryAfterMs, toModelError } from './model-errors';

// The SDK's warnings ('maxOutputTokens in compatibility mode'…) would go to the server's console.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** What a model call was for; usage is stored and summed by it. */
export type UsageKind =
  | 'generation'
  | 'step'
  | 'judge'
  | 'connection-test'
  | 'conversation'
  | 'design_review'
  | 'repair';

export interface UsageRecord {
  kind: UsageKind;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** 0 when the model's price is unknown; `costUnknown` then says so. */
  costUsd: number;
  /** The model has no known price: the cost is not $0 but unknown. */
  costUnknown?: boolean;
  /** Made with the server's own key (AI_API_KEY): counts against the operator's caps. */
  serverKey?: boolean;
}

/** The most one call may answer with, in tokens; also what its cost is reserved for before it is made. */
export const MAX_OUTPUT_TOKENS = 4096;

/**
 * A generous guess at a request's input tokens before it is sent (about 3 characters a token, and
 * a large image's worth per screenshot), so the cost reserved for it is rather more than it costs.
 */
export function estimateInputTokens(request: { system: string; prompt: string; images?: Buffer[] }): number {
  return (
    Math.ceil((request.system.length + request.prompt.length) / 3) + 1600 * (request.images?.length ?? 0)
  );
}

export interface ModelClientOptions {
  config: ModelConfig;
  /** Before every call: throws (a ModelError 'budget') when the user may not spend more. */
  beforeCall?: (kind: UsageKind) => Promise<void>;
  /** After every call that reached the provider, with what it cost. */
  onUsage?: (record: UsageRecord) => void | Promise<void>;
  /** One call's limit, retries apart. @default 60000 */
  timeoutMs?: number;
  /** Retries of a 429 or a provider failure, each after the pause Retry-After asks (capped). @default 2 */
  maxRetries?: number;
  /** The longest pause a Retry-After may ask for before the call gives up instead. @default 30000 */
  maxRetryWaitMs?: number;
  /** Told about a pause ("Rate-limited by the model provider; retrying in 2 s"). */
  onWait?: (message: string) => void;
  /**
   * Applied to the instructions and prompt of every call before it leaves: a signed-in run's secrets
   * become their `{{NAME}}` (a page may show one), so no model ever receives a secret's value.
   */
  redact?: (text: string) => string;
}

/** Calls and tokens, summed: the client's totals, or one step's when a request names a meter. */
export interface UsageMeter {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export function newMeter(): UsageMeter {
  return { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
}

export interface ModelRequest {
  kind: UsageKind;
  /** Also counts this call here (one step's cost while other steps run at the same time). */
  meter?: UsageMeter;
  system: string;
  prompt: string;
  /** JPEG screenshots, for models that see images. */
  images?: Buffer[];
  signal?: AbortSignal;
}

/**
 * Calls one model through the AI SDK with what every caller needs: a stop that cancels the request in
 * flight, a time limit, retries that honour Retry-After, a budget check before and usage after each
 * call, and every failure turned into a ModelError a user can read.
 */
export class ModelClient {
  readonly engine: string;
  /** Calls made and tokens spent through this client. */
  readonly totals: UsageMeter = newMeter();

  constructor(readonly options: ModelClientOptions) {
    this.engine = engineName(options.config);
  }

  get config(): ModelConfig {
    return this.options.config;
  }

  /** A JSON answer checked against `schema`; one invalid answer is shown back to the model to repair. */
  async object<T>(request: ModelRequest & { schema: z.ZodType<T>; name: string }): Promise<T> {
    let prompt = request.prompt;
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await this.call(
          request,
          prompt,
          Output.object({ schema: request.schema, name: request.name }),
        );
        return result as T;
      } catch (error) {
        if (!(error instanceof ModelError) || error.code !== 'invalid_output' || attempt > 0) throw error;
        prompt = `${request.prompt}\n\nYour previous answer was rejected: ${error.message}\nAnswer again with only the JSON object.`;
      }
    }
  }

  /** A plain text answer. */
  async text(request: ModelRequest): Promise<string> {
    return (await this.call(request, request.prompt, undefined)) as string;
  }

  private async call(
    request: ModelRequest,
    prompt: string,
    output: ReturnType<typeof Output.object> | undefined,
  ): Promise<unknown> {
    const { config, redact } = this.options;
    if (redact) {
      request = { ...request, system: redact(request.system) };
      prompt = redact(prompt);
    }
    if (request.signal?.aborted) throw new AbortedError();
    await this.options.beforeCall?.(request.kind);
    // Held before the call against the spender's caps (ModelConfig.spend), so calls made at the same
    // time cannot all pass a check and together overshoot; released once usage is stored or it failed.
    const reservation = await config.spend?.reserve({
      kind: request.kind,
      estimateUsd: estimateCost(config, estimateInputTokens({ ...request, prompt }), MAX_OUTPUT_TOKENS) ?? 0,
    });
    try {
      return await this.attempts(request, prompt, output);
    } finally {
      await reservation?.settle();
    }
  }

  private async attempts(
    request: ModelRequest,
    prompt: string,
    output: ReturnType<typeof Output.object> | undefined,
  ): Promise<unknown> {
    const { config } = this.options;
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    const maxRetries = this.options.maxRetries ?? 2;
    const content: Exclude<UserContent, string> = [{ type: 'text', text: prompt }];
    for (const image of request.images ?? []) content.push({ type: 'image', image, mediaType: 'image/jpeg' });
    const messages = [{ role: 'user', content }] as ModelMessage[];
    for (let attempt = 0; ; attempt++) {
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), timeoutMs);
      const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal;
      try {
        const result = await generateText({
          model: languageModel(config),
          system: request.system,
          messages,
          maxRetries: 0,
          abortSignal: signal,
          temperature: 0,
          maxOutputTokens: MAX_OUTPUT_TOKENS,
          ...(output ? { output } : {}),
        });
        await this.count(request, result.usage.inputTokens ?? 0, result.usage.outputTokens ?? 0);
        if (result.finishReason === 'content-filter')
          throw new ModelError(
            'refused',
            `The model declined to answer${result.text ? `: ${result.text.slice(0, 200)}` : '.'}`,
          );
        if (!output) return result.text;
        try {
          return result.output;
        } catch (error) {
          throw refusalOr(error, result.text);
        }
      } catch (error) {
        if (request.signal?.aborted) throw new AbortedError('Stopped while the model was answering');
        if (timeout.signal.aborted)
          throw new ModelError('timeout', `The model did not answer within ${duration(timeoutMs)}.`);
        if (NoObjectGeneratedError.isInstance(error)) {
          const usage = error.usage;
          if (usage) await this.count(request, usage.inputTokens ?? 0, usage.outputTokens ?? 0);
          throw refusalOr(error, error.text ?? '');
        }
        if (attempt < maxRetries && isRetryable(error)) {
          const asked = retryAfterMs(error);
          const maxWait = this.options.maxRetryWaitMs ?? 30_000;
          if (asked !== undefined && asked > maxWait) throw toModelError(error, config, timeoutMs);
          const wait = asked ?? 1000 * 2 ** attempt;
          this.options.onWait?.(
            `The model provider answered HTTP ${(error as { statusCode?: number }).statusCode}; retrying in ${Math.max(1, Math.round(wait / 1000))} s`,
          );
          await abortableDelay(wait, request.signal, 'Stopped while waiting to retry the model call');
          continue;
        }
        throw toModelError(error, config, timeoutMs);
      } finally {
        clearTimeout(timer);
      }
    }
  }

  private async count(request: ModelRequest, inputTokens: number, outputTokens: number): Promise<void> {
    const { config } = this.options;
    const cost = estimateCost(config, inputTokens, outputTokens);
    const costUsd = cost ?? 0;
    for (const meter of request.meter ? [this.totals, request.meter] : [this.totals]) {
      meter.calls += 1;
      meter.inputTokens += inputTokens;
      meter.outputTokens += outputTokens;
      meter.costUsd += costUsd;
    }
    await this.options.onUsage?.({
      kind: request.kind,
      provider: config.provider,
      model: config.model,
      inputTokens,
      outputTokens,
      costUsd,
      ...(cost === null ? { costUnknown: true } : {}),
      ...(config.serverKey ? { serverKey: true } : {}),
    });
  }
}

const REFUSAL =
  /\b(I can(?:not|'t)|I'm sorry|I am sorry|I won't|I will not|unable to (?:help|assist|comply))\b/i;

/** An answer with no JSON that reads as a refusal is one; anything else is invalid output. */
function refusalOr(error: unknown, text: string): ModelError {
  const trimmed = text.trim();
  if (trimmed && !trimmed.includes('{') && REFUSAL.test(trimmed))
    return new ModelError('refused', `The model declined: ${trimmed.slice(0, 200)}`);
  if (NoObjectGeneratedError.isInstance(error)) {
    const cause = error.cause instanceof Error ? error.cause.message : String(error.cause ?? '');
    if (/JSON/i.test(cause) && !/validation/i.test(cause))
      return new ModelError(
        'invalid_output',
        `The model's answer was not valid JSON: ${trimmed.slice(0, 120) || '(empty)'}`,
      );
    return new ModelError(
      'invalid_output',
      `The model's answer did not match the expected shape: ${cause.split('\n').slice(0, 3).join(' ').slice(0, 300)}`,
    );
  }
  return new ModelError('invalid_output', `The model gave no usable answer: ${String(error).slice(0, 200)}`);
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}
