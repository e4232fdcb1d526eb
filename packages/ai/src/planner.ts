import type { PageObservation } from '@argus/engine';
import type { TestCase } from '@argus/protocol';

export interface PlanRequest {
  /** The page the user gave. */
  url: string;
  /** What the user asked for, in command mode. */
  command?: string;
  /** The explored pages, start page first. */
  pages: PageObservation[];
}

/** Turns observations of a site into test cases written in the step language. */
export interface Planner {
  /** Shown with every result, so nobody mistakes rules for a model. */
  readonly engine: string;
  generate(request: PlanRequest): Promise<TestCase[]>;
}
