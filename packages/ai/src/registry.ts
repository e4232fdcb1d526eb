import type { MODEL_PROVIDERS, TestCase } from '@argus/protocol';
import { BuiltinPlanner } from './builtin-planner';
import { LlmPlanner } from './llm/llm-planner';
import type { ModelClient } from './llm/model-client';
import { checkSteps, type GenerateOptions, type Planner, type PlanRequest, throwIfStopped } from './planner';

/** Which planner to run: the server's AI_PROVIDER (docs/DECISIONS.md#configuration). */
export interface PlannerConfig {
  /** A name from PLANNER_PROVIDERS; unset or empty means 'builtin'. */
  provider?: string;
  /** The model a model provider's planner calls (required for one). */
  client?: ModelClient;
}

type Factory = (config: PlannerConfig) => Planner;
const builtin: Factory = () => new BuiltinPlanner();
const llm: Factory = (config) => {
  if (!config.client) throw new Error(`The ${config.provider} planner needs a model (AI_MODEL and its key).`);
  return new LlmPlanner(config.client);
};

/** Every planner this build can run, by the name AI_PROVIDER gives it. */
const PLANNERS: Record<'builtin' | (typeof MODEL_PROVIDERS)[number], Factory> = {
  builtin,
  openai: llm,
  anthropic: llm,
  'openai-compatible': llm,
};

export type PlannerProvider = keyof typeof PLANNERS;
export const PLANNER_PROVIDERS = Object.keys(PLANNERS) as PlannerProvider[];
export const DEFAULT_PLANNER_PROVIDER: PlannerProvider = 'builtin';

export class UnknownPlannerError extends Error {
  constructor(readonly provider: string) {
    super(
      `AI_PROVIDER '${provider}' is not a planner this server has. Valid values: ${PLANNER_PROVIDERS.join(', ')} ` +
        `(unset means ${DEFAULT_PLANNER_PROVIDER}).`,
    );
    this.name = 'UnknownPlannerError';
  }
}

/** AI_PROVIDER as a provider name: trimmed, any case, unset → builtin; anything else throws UnknownPlannerError. */
export function plannerProvider(value: string | undefined): PlannerProvider {
  const name = (value ?? '').trim().toLowerCase();
  if (name === '') return DEFAULT_PLANNER_PROVIDER;
  if (Object.hasOwn(PLANNERS, name)) return name as PlannerProvider;
  throw new UnknownPlannerError(value ?? '');
}

/**
 * The planner configuration names. Unless it is a model's planner (whose free-form lines the LLM
 * interpreter carries out), every step line it hands out has been parsed (a line outside the step
 * language is a PlannerOutputError), and a generation stopped while it was
 * under way rejects with AbortedError rather than resolve late.
 */
export function createPlanner(config: PlannerConfig = {}): Planner {
  return new CheckedPlanner(PLANNERS[plannerProvider(config.provider)](config));
}

class CheckedPlanner implements Planner {
  constructor(private readonly inner: Planner) {}

  get engine(): string {
    return this.inner.engine;
  }

  get freeForm(): boolean {
    return this.inner.freeForm ?? false;
  }

  get vision(): boolean {
    return this.inner.vision ?? false;
  }

  async generate(request: PlanRequest, options: GenerateOptions = {}): Promise<TestCase[]> {
    const cases = await this.inner.generate(request, options);
    throwIfStopped(options.signal);
    // A model's planner may write free-form lines; the interpreter carries them out at run time.
    return this.freeForm ? cases : checkSteps(this.inner.engine, cases);
  }
}
