import type { TestRunsRepository } from '@argus/db';
import type { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';

/** Job states in which a job still holds its run: it will run, or runs now, or is about to be taken up again. */
const LIVE_STATES = ['active', 'waiting', 'delayed', 'prioritized', 'waiting-children'] as const;

export interface OrphanRunSweepDeps {
  queue: Queue;
  testRuns: Pick<TestRunsRepository, 'interruptOrphans'>;
  /** Runs waiting their turn in the line (their jobs are turns not yet bound to them): kept too. */
  waitingRuns?: () => Promise<string[]>;
  log: FastifyBaseLogger;
  /**
   * A run younger than this is left alone: its row may exist before its job (a saved run is recorded,
   * then queued) or its job may not name it yet (a screen run names it once recorded). @default 120000
   */
  graceMs?: number;
  /** Between sweeps. @default 60000 */
  intervalMs?: number;
}

/**
 * Runs whose job is lost (docs/DEPLOYMENT.md#runs-whose-job-is-lost): with workers, no process can
 * mark every run left running at its start, as one process does, since another worker may hold it.
 * Instead a web process asks the queue which runs its live jobs hold, and marks the others still
 * pending or running interrupted: a job lost with a Redis that kept nothing, a job that killed its
 * worker twice and failed, a run whose worker lost its database for good. Every web process sweeps;
 * a sweep is idempotent.
 */
export class OrphanRunSweeper {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: OrphanRunSweepDeps) {}

  /** One sweep: answers the runs it marked. */
  async sweep(now = Date.now()): Promise<{ id: string; user_id: string }[]> {
    const jobs = await this.deps.queue.getJobs([...LIVE_STATES]);
    const keep = new Set<string>();
    for (const job of jobs) {
      const runId = (job?.data as { data?: { test_run_id?: unknown } } | undefined)?.data?.test_run_id;
      if (typeof runId === 'string') keep.add(runId);
    }
    for (const runId of (await this.deps.waitingRuns?.()) ?? []) keep.add(runId);
    const marked = await this.deps.testRuns.interruptOrphans(
      [...keep],
      new Date(now - (this.deps.graceMs ?? 120_000)),
    );
    if (marked.length)
      this.deps.log.warn(
        { runs: marked.map((run) => run.id) },
        `marked ${marked.length} run(s) interrupted: their queued work is gone`,
      );
    return marked;
  }

  /** Sweeps now, then every `intervalMs`, until `stop`. */
  start(): void {
    const tick = () => {
      this.sweeping = this.sweep().catch((error: unknown) =>
        this.deps.log.error({ err: error }, 'the sweep of runs whose job is lost failed'),
      );
    };
    tick();
    this.timer = setInterval(tick, this.deps.intervalMs ?? 60_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
  }
}
