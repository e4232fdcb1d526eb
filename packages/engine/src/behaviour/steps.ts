import type { Step } from '@argus/protocol';

/**
 * The steps behaviour exploration writes: the step language's `Step` (region-scoped targets,
 * doubleClick, verifyChecked, verifyExactCount, fillFocused, verifyState), one alias for the
 * explorer, the assertions and the planners.
 */
export type BehaviourStep = Step;

/** Performs a step through the session (the one place steps are carried out). */
export const asStep = (step: BehaviourStep): Step => step;
