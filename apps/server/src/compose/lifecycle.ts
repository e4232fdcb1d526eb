/** One thing a role starts or stops; awaited before the next. */
export type Step = () => unknown;

/**
 * What a composed role starts once it is ready and stops at its end, each list in order: app.ts runs
 * them in its onReady and onClose hooks, worker.ts around the worker's life.
 */
export interface Lifecycle {
  start: Step[];
  stop: Step[];
}

export async function runSteps(steps: Step[]): Promise<void> {
  for (const step of steps) await step();
}
