import type { Step } from '@argus/protocol';

/** The new step shapes, until the step language carries them (then `BehaviourStep` is `Step`). */
type Pending =
  | { verb: 'click'; target: string; role?: string; region?: string }
  | { verb: 'doubleClick'; target: string; region?: string }
  | { verb: 'check'; target?: string; checked: boolean; region?: string }
  | { verb: 'hover'; target: string; region?: string }
  | { verb: 'verifyText'; text: string; visible: boolean; region?: string }
  | { verb: 'verifyChecked'; target?: string; region?: string; checked: boolean }
  | { verb: 'verifyExactCount'; role: string; count: number; region?: string }
  | { verb: 'type'; value: string }
  | { verb: 'fillFocused'; value: string }
  | { verb: 'verifyState'; target: string; state: string; marked: boolean; region?: string };

/**
 * The steps behaviour exploration writes: the step language's `Step` (region-scoped targets,
 * doubleClick, verifyChecked, verifyExactCount, fillFocused, verifyState).
 */
export type BehaviourStep = Step | Pending;

/** Performs a step through the session (the one place steps are carried out). */
export const asStep = (step: BehaviourStep): Step => step as Step;
