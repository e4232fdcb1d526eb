import type { Step, StepVerb } from '@argus/protocol';
import type { StepKit } from './step-kit';

/** The step of one verb. */
export type StepOf<V extends StepVerb> = Extract<Step, { verb: V }>;

/** What a verb does on the page; answers the selector it used, if any. */
export type VerbAction<V extends StepVerb> = (kit: StepKit, step: StepOf<V>) => Promise<string | null>;
