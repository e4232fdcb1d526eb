import { intBetween } from '../config-values';

/**
 * How gently the retention sweep works (docs/HISTORY.md#retention), read from the environment beside
 * HISTORY_RETENTION_DAYS by config.ts. The defaults were measured at 60,000 runs over a year on the
 * embedded database, where a statement holds the server's thread for as long as it runs
 * (docs/PERFORMANCE.md#the-retention-sweep-over-a-year).
 */
export interface RetentionPace {
  /**
   * Rows deleted per statement (RETENTION_BATCH_SIZE, 1 to 5000): runs with their results, or
   * comparisons, conversations, images, uploads. One batch of 100 runs takes about 10-30 ms on the
   * embedded database at a year of history. @default 100
   */
  batchSize: number;
  /**
   * The wait between two batches (RETENTION_BATCH_PAUSE_MS, 0 to 10000), so other requests get the
   * database in between. @default 40
   */
  pauseMs: number;
  /**
   * How long one sweep goes on before it stops starting batches (RETENTION_SWEEP_BUDGET_MS, at least
   * 100): what is left waits for the next sweep, which then comes soon, not after the full
   * RETENTION_SWEEP_INTERVAL_MS. @default 10000
   */
  budgetMs: number;
}

export function retentionPace(env: NodeJS.ProcessEnv): RetentionPace {
  return {
    batchSize: intBetween(env.RETENTION_BATCH_SIZE, 'RETENTION_BATCH_SIZE', {
      fallback: 100,
      min: 1,
      max: 5000,
    }),
    pauseMs: intBetween(env.RETENTION_BATCH_PAUSE_MS, 'RETENTION_BATCH_PAUSE_MS', {
      fallback: 40,
      min: 0,
      max: 10_000,
    }),
    budgetMs: intBetween(env.RETENTION_SWEEP_BUDGET_MS, 'RETENTION_SWEEP_BUDGET_MS', {
      fallback: 10_000,
      min: 100,
      max: Number.MAX_SAFE_INTEGER,
    }),
  };
}
