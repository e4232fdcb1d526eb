import type { StepOf, StepVerb } from '@argus/protocol';
import type { StepKit } from './step-kit';

/** What a verb does on the page; answers the selector it used, if any. */
export type VerbAction<V extends StepVerb> = (kit: StepKit, step: StepOf<V>) => Promise<string | null>;
