import type { Planner } from '../planner';
import { createPlanner } from '../registry';
import { LlmInterpreter } from './llm-interpreter';
import { ModelClient, type ModelClientOptions } from './model-client';
import type { StepCacheStore } from './step-cache';

export interface LlmEngine {
  client: ModelClient;
  planner: Planner;
  interpreter: LlmInterpreter;
}

/**
 * The LLM engine for one model and one owner: a planner that writes suites, and an interpreter that
 * carries out free-form steps and judges expected results, sharing one client (so one budget check,
 * one usage record and one set of totals) and the owner's cache of resolved steps.
 */
export function createLlmEngine(
  options: ModelClientOptions & {
    cache?: StepCacheStore;
    /** @default 12 */
    maxTurns?: number;
    /** Time one action (a model's or a cached one) may take before it counts as broken. @default 10000 */
    actionTimeoutMs?: number;
  },
): LlmEngine {
  const client = new ModelClient(options);
  return {
    client,
    planner: createPlanner({ provider: options.config.provider, client }),
    interpreter: new LlmInterpreter({
      client,
      cache: options.cache,
      maxTurns: options.maxTurns,
      actionTimeoutMs: options.actionTimeoutMs,
    }),
  };
}
