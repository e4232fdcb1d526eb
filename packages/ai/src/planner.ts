import { AbortedError, type Behaviour, type PageObservation } from '@argus/engine';
import { parseStep, StepSyntaxError, type TestCase } from '@argus/protocol';

export interface PlanRequest {
  /** The page the user gave. */
  url: string;
  /** What the user asked for, in command mode. */
  command?: string;
  /** The explored pages, start page first. */
  pages: PageObservation[];
  /**
   * What the app did when acted on (@argus/engine's `exploreBehaviours`): each a setup, an action and
   * the checks that held in every replay, all as steps. Planners write tests of these first.
   */
  behaviours?: Behaviour[];
  /** The start page as a JPEG, for planners whose model reads images. */
  screenshot?: Buffer;
}

export interface GenerateOptions {
  /**
   * Stop: the planner checks it between units of work and, once it has fired, rejects with an
   * `AbortedError` (from @argus/engine) and does no more work (no model call, no page opened).
   */
  signal?: AbortSignal;
  /** What the planner is doing, in words a user reads ("Writing form tests: Sign in"). */
  onProgress?: (message: string) => void;
  /**
   * Something the user should read with the result, said once: in command mode, what the command
   * asked that nothing found matches (and that an LLM engine would understand it).
   */
  onNotice?: (message: string) => void;
}

/**
 * Turns observations of a site into test cases written in the step language. A planner builds its
 * steps as `Step`s (`StepSchema` in @argus/protocol) and writes each as a line with `formatStep`.
 */
export interface Planner {
  /** Shown with every result, so nobody mistakes rules for a model. */
  readonly engine: string;
  /** Whether its cases may hold free-form lines (carried out by an interpreter at run time). */
  readonly freeForm?: boolean;
  /** Whether it reads a screenshot of the start page. */
  readonly vision?: boolean;
  generate(request: PlanRequest, options?: GenerateOptions): Promise<TestCase[]>;
}

/**
 * Between two units of a planner's work: rejects with `AbortedError` once the signal has fired,
 * reports `message` (when given), and lets the event loop turn, so a Stop that arrives meanwhile is
 * seen at the next checkpoint rather than after the whole generation.
 */
export async function checkpoint(options: GenerateOptions, message?: string): Promise<void> {
  throwIfStopped(options.signal);
  if (message) options.onProgress?.(message);
  await new Promise<void>((resolve) => setImmediate(resolve));
  throwIfStopped(options.signal);
}

export function throwIfStopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortedError('Generation stopped');
}

/** A planner wrote a line that is not in the step language: a bug in that planner, said plainly. */
export class PlannerOutputError extends Error {
  constructor(engine: string, testName: string, cause: StepSyntaxError) {
    super(`The ${engine} planner wrote a step outside the step language in "${testName}": ${cause.line}`);
    this.name = 'PlannerOutputError';
  }
}

/** Parses every step line of every case; the first that does not parse throws a PlannerOutputError. */
export function checkSteps(engine: string, cases: TestCase[]): TestCase[] {
  for (const testCase of cases) {
    for (const line of testCase.steps) {
      try {
        parseStep(line);
      } catch (error) {
        if (error instanceof StepSyntaxError) throw new PlannerOutputError(engine, testCase.test_name, error);
        throw error;
      }
    }
  }
  return cases;
}
