import type { ModelConfig } from '@argus/ai';
import {
  createLlmEngine,
  createPlanner,
  LlmRepairProposer,
  ModelClient,
  type ModelClientOptions,
  type Planner,
  type StepCacheStore,
  type UsageRecord,
} from '@argus/ai';
import type { StepCacheRepository } from '@argus/db';
import { BUILTIN_ENGINE, type RepairProposer, type StepInterpreter } from '@argus/engine';
import type { ModelUsage } from '@argus/protocol';
import type { FastifyBaseLogger } from 'fastify';

/** What one piece of a user's automation work runs on. */
export interface AutomationEngine {
  /** Writes test cases. */
  planner: Planner;
  /** Carries out free-form steps and judges expected results; none for the built-in engine. */
  interpreter?: StepInterpreter;
  /**
   * Asks the model for a failed step's repair (docs/REPAIRS.md); none for the built-in engine, whose
   * repairs are its rules alone. Its calls count against the same budget and usage as the run's.
   */
  repairProposer?: RepairProposer;
  /** The engine a run records and shows: which carried out its steps. */
  runEngine: string;
  /** Model calls made through this engine so far (a generation's cost); none for the built-in engine. */
  usage?: () => ModelUsage;
}

/** Which engine a user's work runs on now: their Settings, else the server's AI_*, else the built-in one. */
export type EngineResolver = (
  userId: string,
  refs: { session_id?: string | null; test_run_id?: string | null },
  /** `redact`: applied to every prompt (a project environment's secrets become their `{{NAME}}`). */
  options?: { redact?: (text: string) => string },
) => Promise<AutomationEngine>;

export interface EngineResolverDeps {
  /** The model a user's work calls (null: the built-in engine); throws a ModelError when it cannot be used. */
  effectiveModel: (userId: string) => Promise<{ config: ModelConfig } | null>;
  /** Throws a ModelError('budget') once the user's monthly budget is reached. */
  checkBudget: (userId: string) => Promise<void>;
  recordUsage: (
    userId: string,
    record: UsageRecord,
    refs: { test_run_id?: string | null; session_id?: string | null },
  ) => Promise<void>;
  stepCache: StepCacheRepository;
  log: FastifyBaseLogger;
}

/** The built-in, rule-based engine: no model, no interpreter. */
export const BUILTIN_AUTOMATION_ENGINE: AutomationEngine = {
  planner: createPlanner({ provider: 'builtin' }),
  runEngine: BUILTIN_ENGINE,
};

/**
 * Builds each piece of work's engine from the user's configuration at the moment it starts: a model
 * changed in Settings applies to the next generation or run. Every model call is checked against the
 * user's budget first and stored with its cost after, linked to the run or session it was for; steps
 * the model resolved are cached per user.
 */
export function engineResolver(deps: EngineResolverDeps): EngineResolver {
  return async (userId, refs, options = {}) => {
    const model = await deps.effectiveModel(userId);
    if (!model) return BUILTIN_AUTOMATION_ENGINE;
    const engine = createLlmEngine({
      config: model.config,
      redact: options.redact,
      cache: userCache(deps.stepCache, userId),
      ...budgetAndUsage(deps, userId, refs),
    });
    return {
      planner: engine.planner,
      interpreter: engine.interpreter,
      repairProposer: new LlmRepairProposer({ client: engine.client }),
      runEngine: `${BUILTIN_ENGINE} for step-language lines; ${engine.interpreter.engine} for free-form steps and expected results`,
      usage: () => ({
        model_calls: engine.client.totals.calls,
        input_tokens: engine.client.totals.inputTokens,
        output_tokens: engine.client.totals.outputTokens,
        cost_usd: engine.client.totals.costUsd,
      }),
    };
  };
}

type Refs = { test_run_id?: string | null; session_id?: string | null };

/** Every model call of a user's: checked against their budget first, stored with its cost after. */
function budgetAndUsage(
  deps: Omit<EngineResolverDeps, 'stepCache'>,
  userId: string,
  refs: Refs,
): Pick<ModelClientOptions, 'beforeCall' | 'onUsage'> {
  return {
    beforeCall: () => deps.checkBudget(userId),
    onUsage: async (record) => {
      try {
        await deps.recordUsage(userId, record, refs);
      } catch (error) {
        // A usage row that cannot be written must not fail the work that made the call.
        deps.log.error({ err: error, userId }, 'could not record model usage');
      }
    },
  };
}

/**
 * The user's model (chosen as for automation: Settings, else AI_*) as a client for a one-off call such
 * as a design review, with the same budget check and usage records; null when the user's work runs
 * on the built-in engine. Throws a ModelError when the user's configuration cannot be used.
 */
export type ModelClientResolver = (userId: string, refs: Refs) => Promise<ModelClient | null>;

export function modelClientResolver(
  deps: Omit<EngineResolverDeps, 'stepCache'>,
  options: Omit<ModelClientOptions, 'config' | 'beforeCall' | 'onUsage'> = {},
): ModelClientResolver {
  return async (userId, refs) => {
    const model = await deps.effectiveModel(userId);
    if (!model) return null;
    return new ModelClient({ ...options, config: model.config, ...budgetAndUsage(deps, userId, refs) });
  };
}

function userCache(repo: StepCacheRepository, userId: string): StepCacheStore {
  return {
    async get(key) {
      const row = await repo.get(userId, key);
      return row ? { actions: row.actions, engine: row.engine } : undefined;
    },
    put: (key, entry) =>
      repo.put(userId, key, {
        step_text: entry.stepText,
        page_key: entry.pageKey,
        actions: entry.actions,
        engine: entry.engine,
        healed: entry.healed,
      }),
    hit: (key) => repo.hit(userId, key),
  };
}
