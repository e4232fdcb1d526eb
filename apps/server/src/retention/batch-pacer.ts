import { setTimeout as sleep } from 'node:timers/promises';
import type { RetentionPace } from './retention-pace';

/**
 * Paces one retention sweep's statements (docs/HISTORY.md#retention): a pause before each batch but the
 * first, so other requests get the database in between, and no batch started once the sweep's time
 * budget is spent or the sweeper is stopping. On the embedded database a statement holds the server's
 * thread while it runs, so the longest single batch is what another user may wait: it is recorded.
 */
export class BatchPacer {
  /** Statements run. */
  batches = 0;
  /** The longest of them, ms. */
  longestBatchMs = 0;
  private readonly deadline: number;
  private stoppedEarly = false;

  constructor(
    private readonly pace: RetentionPace,
    private readonly signal: AbortSignal,
  ) {
    this.deadline = performance.now() + pace.budgetMs;
  }

  /** false once a batch was refused: what is left waits for the next sweep. */
  get complete(): boolean {
    return !this.stoppedEarly;
  }

  /** Whether the sweeper is stopping (rather than the budget spent). */
  get stopping(): boolean {
    return this.signal.aborted;
  }

  /**
   * Deletes `deleteBatch(batchSize)` again and again until a batch comes back short (nothing left) or
   * the sweep must stop; the rows deleted.
   */
  async drain(deleteBatch: (size: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      if (!(await this.next())) return total;
      const deleted = await this.timed(() => deleteBatch(this.pace.batchSize));
      total += deleted;
      if (deleted < this.pace.batchSize) return total;
    }
  }

  /** Waits out the pause after the previous batch; false when no other batch may start. */
  async next(): Promise<boolean> {
    if (!this.mayGoOn()) return false;
    if (this.batches > 0 && this.pace.pauseMs > 0)
      await sleep(this.pace.pauseMs, undefined, { signal: this.signal }).catch(() => undefined);
    return this.mayGoOn();
  }

  /** Runs one batch, counted and timed. */
  async timed<T>(batch: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await batch();
    } finally {
      this.batches++;
      this.longestBatchMs = Math.max(this.longestBatchMs, performance.now() - started);
    }
  }

  private mayGoOn(): boolean {
    if (this.signal.aborted || performance.now() >= this.deadline) this.stoppedEarly = true;
    return !this.stoppedEarly;
  }
}
