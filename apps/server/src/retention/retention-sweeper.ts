import type { Repositories } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { formatBytes } from '../limits/quotas';
import type { BlobFile, BlobStore } from '../storage/blob-store';

/** What one sweep removed (also stored in retention_sweeps; Settings shows the last one). */
export interface SweepReport {
  startedAt: Date;
  finishedAt: Date;
  cutoff: Date;
  runsDeleted: number;
  comparisonsDeleted: number;
  /** Conversations whose last message was older than the cutoff (the log says it; not in the sweep row). */
  conversationsDeleted: number;
  blobsDeleted: number;
  bytesFreed: number;
}

export interface RetentionSweeperDeps {
  config: Pick<Config, 'historyRetentionDays' | 'retentionSweepIntervalMs'>;
  repos: Pick<Repositories, 'retention'>;
  blobs: Pick<BlobStore, 'files' | 'removeUnlessTouched' | 'restore'>;
  log: FastifyBaseLogger;
  /** The wait before the first sweep, so a start is not slowed by one. @default 60000 (1 minute) */
  firstSweepDelayMs?: number;
  /**
   * A blob file written or re-used this long before a sweep starts (or later) is never removed: the
   * row naming it may not be written yet (a screenshot is stored before its row). @default 900000 (15 min)
   */
  blobGraceMs?: number;
  /**
   * Run after each tick, retention on or off: the embedded database has no autovacuum, so without an
   * ANALYZE now and then its planner has no statistics and picked plans 10 to 600 times slower at
   * 20,000 runs (docs/PERFORMANCE.md#history-and-analytics). Absent on PostgreSQL, which gathers its own.
   */
  refreshStatistics?: () => Promise<void>;
  /** Rows deleted per statement (one transaction each). @default 500 */
  batchSize?: number;
  /** The clock. @default () => new Date() */
  now?: () => Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Blob names asked about per query. */
const BLOB_BATCH = 1000;

/**
 * History retention (HISTORY_RETENTION_DAYS; docs/HISTORY.md#retention): every
 * RETENTION_SWEEP_INTERVAL_MS each process removes finished test runs (with their results and
 * screenshot rows) and design comparisons (with the images and uploads only they used) created before
 * the cutoff, then the blob files no row names any more.
 *
 * Rows go first, files after: a crash in between leaves files no row names, and since the file pass
 * looks at every file under DATA_DIR/blobs (not only those of the rows just deleted) the next sweep
 * removes them, as it removes what a deleted user, a failed write or an older server left behind.
 * Blobs are shared across rows and users (content-addressed), so a file is removed only when no row of
 * any user names it, and never one written or re-used (BlobStore.put refreshes its time) since the
 * sweep began or within the grace before: BlobStore.removeUnlessTouched settles the last instant.
 * Processes sweeping at once skip each other's locked rows and files already gone.
 */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<SweepReport | null> | null = null;
  private stopped = false;

  constructor(private readonly deps: RetentionSweeperDeps) {}

  /**
   * Sweeps a minute after start, then every RETENTION_SWEEP_INTERVAL_MS (no sweep when retention is
   * off), each time refreshing the embedded database's statistics.
   */
  start(): void {
    const { refreshStatistics } = this.deps;
    if (this.timer || this.stopped) return;
    if (this.deps.config.historyRetentionDays === 0 && !refreshStatistics) return;
    const run = (next: number) => {
      this.timer = setTimeout(() => {
        void this.sweep()
          .catch((error: unknown) => this.deps.log.error({ err: error }, 'retention sweep failed'))
          .then(() => refreshStatistics?.())
          .catch((error: unknown) => this.deps.log.error({ err: error }, 'refreshing statistics failed'))
          .finally(() => {
            if (!this.stopped) run(this.deps.config.retentionSweepIntervalMs);
          });
      }, next);
      this.timer.unref();
    };
    run(this.deps.firstSweepDelayMs ?? 60_000);
  }

  /** Stops sweeping and waits for a sweep under way (each batch is whole, so stopping between is safe). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.sweeping?.catch(() => undefined);
  }

  /** One sweep now (a sweep already under way in this process is joined); null when retention is off. */
  sweep(): Promise<SweepReport | null> {
    this.sweeping ??= this.sweepOnce().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async sweepOnce(): Promise<SweepReport | null> {
    const { config, repos, log } = this.deps;
    if (config.historyRetentionDays === 0) return null;
    const batch = this.deps.batchSize ?? 500;
    const now = this.deps.now ?? (() => new Date());
    const startedAt = now();
    const cutoff = new Date(startedAt.getTime() - config.historyRetentionDays * DAY_MS);
    const runsDeleted = await repos.retention.deleteRuns(cutoff, batch);
    const comparisonsDeleted = await repos.retention.deleteComparisons(cutoff, batch);
    const conversationsDeleted = await repos.retention.deleteConversations(cutoff, batch);
    await repos.retention.deleteUnusedImages(cutoff, batch);
    await repos.retention.deleteUnusedUploads(cutoff, batch);
    const { blobsDeleted, bytesFreed } = await this.removeUnusedBlobs(
      startedAt.getTime() - (this.deps.blobGraceMs ?? 15 * 60_000),
    );
    const report: SweepReport = {
      startedAt,
      finishedAt: now(),
      cutoff,
      runsDeleted,
      comparisonsDeleted,
      conversationsDeleted,
      blobsDeleted,
      bytesFreed,
    };
    await repos.retention.recordSweep({
      started_at: report.startedAt,
      finished_at: report.finishedAt,
      cutoff,
      runs_deleted: runsDeleted,
      comparisons_deleted: comparisonsDeleted,
      blobs_deleted: blobsDeleted,
      bytes_freed: bytesFreed,
    });
    log.info(
      { retention: { ...report, days: config.historyRetentionDays } },
      `retention sweep: ${runsDeleted} runs, ${comparisonsDeleted} design comparisons, ${conversationsDeleted} conversations and ${blobsDeleted} files older than ${config.historyRetentionDays} days removed, ${formatBytes(bytesFreed)} freed`,
    );
    return report;
  }

  /** Files under the blob directory no row names and untouched since `keepSinceMs`, removed. */
  private async removeUnusedBlobs(keepSinceMs: number) {
    const { repos, blobs } = this.deps;
    let blobsDeleted = 0;
    let bytesFreed = 0;
    const remove = async (file: BlobFile) => {
      const freed = await blobs.removeUnlessTouched(file, keepSinceMs);
      if (freed === null) return;
      bytesFreed += freed;
      // A leftover (half a write, half a sweep) frees its bytes but was never a blob.
      if (file.sha256) blobsDeleted++;
    };
    const check = async (candidates: BlobFile[]) => {
      const named = (file: BlobFile) => (file.sha256 ?? file.setAsideOf) as string;
      const used = await repos.retention.referencedBlobs(candidates.map(named));
      for (const file of candidates) {
        if (!used.has(named(file))) await remove(file);
        // A blob a stopped sweep set aside that a row still names goes back (or, copied again, away).
        else if (file.setAsideOf && !(await blobs.restore(file))) await remove(file);
      }
    };
    let candidates: BlobFile[] = [];
    for await (const file of blobs.files()) {
      if (file.mtimeMs >= keepSinceMs) continue;
      // Set aside lately: another process's sweep is deciding about it.
      if (file.setAsideOf && file.ctimeMs >= keepSinceMs) continue;
      if (!file.sha256 && !file.setAsideOf) {
        await remove(file);
        continue;
      }
      candidates.push(file);
      if (candidates.length >= BLOB_BATCH) {
        await check(candidates);
        candidates = [];
      }
    }
    if (candidates.length > 0) await check(candidates);
    return { blobsDeleted, bytesFreed };
  }
}
