import type { Step, StepVerb } from '@argus/protocol';
import * as actions from './action-code';
import * as checks from './check-code';
import type { Scope } from './code-text';
import { type StepCode, stepCodeKit } from './step-code-kit';

/** The code of a step, or why there is none (left as a TODO comment). */
export interface Translation {
  /** Lines of code; empty for a TODO. */
  code: string[];
  todo?: string;
}

/**
 * Every verb of the step language as Playwright code, one entry each: what the engine's verb table
 * (packages/engine/src/steps/verbs.ts) does, written out. A verb added to `StepSchema` fails to
 * compile here until it has its entry.
 */
const STEP_CODE: { readonly [V in StepVerb]: StepCode<V> } = { ...actions, ...checks };

/** The code of one parsed step (without its `test.step` wrapper). */
export function translateStep(step: Step, scope: Scope): Translation {
  const write = STEP_CODE[step.verb] as StepCode<StepVerb> | undefined;
  if (!write) return { code: [], todo: `no translation for the step ${step.verb}` };
  const kit = stepCodeKit(scope);
  const todo = write(step, kit);
  return todo ? { code: [], todo } : { code: kit.code };
}
