import type { Step } from '@argus/protocol';
import { SessionClipboard } from './clipboard';
import { type StepContext, stepKit } from './steps/step-kit';
import type { VerbAction } from './steps/verb-action';
import { VERBS } from './steps/verbs';

export type { StepContext };

/**
 * Performs one step of the step language on the page (its verb's entry in `VERBS`); answers the
 * selector it used, if any.
 */
export async function performStep(ctx: StepContext, step: Step): Promise<string | null> {
  const verb = VERBS[step.verb];
  if (!verb) throw new Error(`Unsupported step ${step.verb}`);
  const kit = stepKit(ctx, ctx.clipboard ?? new SessionClipboard());
  return (verb.perform as VerbAction<Step['verb']>)(kit, step);
}
