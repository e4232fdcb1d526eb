import type { TestCase } from '@argus/protocol';
import { BuiltinPlanner } from './builtin-planner';
import { checkSteps, type GenerateOptions, type Planner, type PlanRequest, throwIfStopped } from './planner';

/** Which planner to run: the server's AI_PROVIDER (DESIGN.md §4). */
export interface PlannerConfig {
  /** A name from PLANNER_PROVIDERS; unset or empty means 'builtin'. */
  provider?: string;
}

type Factory = (config: PlannerConfig) => Planner;
const builtin: Factory = () => new BuiltinPlanner();

/** Every planner this build can run, by the name AI_PROVIDER gives it. */
const PLANNERS = { builtin };

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
 * The planner configuration names. Whatever it is, every step line it hands out has been parsed
 * (a line outside the step language is a PlannerOutputError), and a generation stopped while it was
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

  async generate(request: PlanRequest, options: GenerateOptions = {}): Promise<TestCase[]> {
    const cases = await this.inner.generate(request, options);
    throwIfStopped(options.signal);
    return checkSteps(this.inner.engine, cases);
  }
}
