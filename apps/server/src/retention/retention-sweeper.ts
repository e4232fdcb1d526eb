import { dirname } from 'node:path';
import type { Repositories } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { formatBytes } from '../limits/quotas';
import type { BlobFile, BlobStore } from '../storage/blob-store';
import { BatchPacer } from './batch-pacer';
import { type RetentionPace, retentionPace } from './retention-pace';

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
  /**
   * false: the sweep stopped at its time budget (or the server stopping) with rows or files older than
   * the cutoff left; the next sweep, soon after, goes on with them from there. true: it went through to
   * the end (from where the last one stopped, if that one did not).
   */
  complete: boolean;
  /** Statements it ran (deleting a batch, or asking which of a batch of files rows name). */
  batches: number;
  /** The longest of them, ms: the longest the sweep held the database at once. */
  longestBatchMs: number;
}

export interface RetentionSweeperDeps {
  config: Pick<Config, 'historyRetentionDays' | 'retentionSweepIntervalMs'> &
    Partial<Pick<Config, 'retentionPace'>>;
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
  /**
   * The wait before the next sweep when one stopped at its budget with work left. @default 5000 (5 s)
   */
  resumeDelayMs?: number;
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
 * Gently: one small batch per statement (RETENTION_BATCH_SIZE), a pause between batches
 * (RETENTION_BATCH_PAUSE_MS) so other requests get the database, and a time budget per sweep
 * (RETENTION_SWEEP_BUDGET_MS). A sweep that spends its budget stops between two batches and the next
 * one comes a few seconds later: rows are deleted oldest first, so it goes on where the last stopped,
 * and the file pass skips the blob directories it already went through. On the embedded database a
 * statement holds the server's thread while it runs: no one waits longer than one batch.
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
  private readonly stopping = new AbortController();
  /** Blob directories the file pass went through since it last went through them all. */
  private readonly blobDirsDone = new Set<string>();
  /** The phase (runs, comparisons, …, files) the last sweep stopped in at its budget. */
  private resumeAt = 0;

  constructor(private readonly deps: RetentionSweeperDeps) {}

  /**
   * Sweeps a minute after start, then every RETENTION_SWEEP_INTERVAL_MS (no sweep when retention is
   * off), each time refreshing the embedded database's statistics; a sweep that stopped at its budget
   * is followed by the next one a few seconds later (the statistics wait until it has caught up).
   */
  start(): void {
    if (this.timer || this.stopping.signal.aborted) return;
    if (this.deps.config.historyRetentionDays === 0 && !this.deps.refreshStatistics) return;
    const run = (next: number) => {
      this.timer = setTimeout(() => {
        void this.tick().then((after) => {
          if (!this.stopping.signal.aborted) run(after);
        });
      }, next);
      this.timer.unref();
    };
    run(this.deps.firstSweepDelayMs ?? 60_000);
  }

  /** Stops sweeping and waits for the batch under way (each batch is whole, so stopping between is safe). */
  async stop(): Promise<void> {
    this.stopping.abort();
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

  /** One timer tick: a sweep, then the statistics; the wait before the next tick. */
  private async tick(): Promise<number> {
    const { config, log, refreshStatistics } = this.deps;
    let report: SweepReport | null = null;
    try {
      report = await this.sweep();
    } catch (error) {
      log.error({ err: error }, 'retention sweep failed');
    }
    if (report && !report.complete) return this.deps.resumeDelayMs ?? 5000;
    try {
      await refreshStatistics?.();
    } catch (error) {
      log.error({ err: error }, 'refreshing statistics failed');
    }
    return config.retentionSweepIntervalMs;
  }

  private async sweepOnce(): Promise<SweepReport | null> {
    const { config, repos } = this.deps;
    if (config.historyRetentionDays === 0) return null;
    const pace: RetentionPace = config.retentionPace ?? retentionPace({});
    const pacer = new BatchPacer(pace, this.stopping.signal);
    const now = this.deps.now ?? (() => new Date());
    const startedAt = now();
    const cutoff = new Date(startedAt.getTime() - config.historyRetentionDays * DAY_MS);
    const { retention } = repos;
    const removed = { runs: 0, comparisons: 0, conversations: 0, blobs: 0, bytes: 0 };
    const keepSinceMs = startedAt.getTime() - (this.deps.blobGraceMs ?? 15 * 60_000);
    // Rows before files, so a file the rows of this sweep named is freed by this sweep.
    const phases = [
      async () => (removed.runs += await pacer.drain((batch) => retention.deleteRuns(cutoff, batch))),
      async () =>
        (removed.comparisons += await pacer.drain((batch) => retention.deleteComparisons(cutoff, batch))),
      async () =>
        (removed.conversations += await pacer.drain((batch) => retention.deleteConversations(cutoff, batch))),
      () => pacer.drain((batch) => retention.deleteUnusedImages(cutoff, batch)),
      () => pacer.drain((batch) => retention.deleteUnusedUploads(cutoff, batch)),
      async () => {
        const files = await this.removeUnusedBlobs(keepSinceMs, pacer);
        removed.blobs += files.blobsDeleted;
        removed.bytes += files.bytesFreed;
      },
    ];
    // A sweep begins where the last one stopped at its budget (its first batch is never refused, so
    // each sweep gets further) and goes on to the end; the next begins at the first phase again.
    for (let phase = this.resumeAt; phase < phases.length; phase++) {
      await phases[phase]();
      if (!pacer.complete) {
        this.resumeAt = phase;
        break;
      }
    }
    if (pacer.complete) this.resumeAt = 0;
    const report: SweepReport = {
      startedAt,
      finishedAt: now(),
      cutoff,
      runsDeleted: removed.runs,
      comparisonsDeleted: removed.comparisons,
      conversationsDeleted: removed.conversations,
      blobsDeleted: removed.blobs,
      bytesFreed: removed.bytes,
      complete: pacer.complete,
      batches: pacer.batches,
      longestBatchMs: Math.round(pacer.longestBatchMs),
    };
    await retention.recordSweep({
      started_at: report.startedAt,
      finished_at: report.finishedAt,
      cutoff,
      runs_deleted: report.runsDeleted,
      comparisons_deleted: report.comparisonsDeleted,
      blobs_deleted: report.blobsDeleted,
      bytes_freed: report.bytesFreed,
      complete: report.complete,
    });
    this.logReport(report, pace, pacer.stopping);
    return report;
  }

  private logReport(report: SweepReport, pace: RetentionPace, stopping: boolean) {
    const { config, log } = this.deps;
    const { runsDeleted, comparisonsDeleted, conversationsDeleted, blobsDeleted, bytesFreed } = report;
    const removed = `${runsDeleted} runs, ${comparisonsDeleted} design comparisons, ${conversationsDeleted} conversations and ${blobsDeleted} files older than ${config.historyRetentionDays} days removed, ${formatBytes(bytesFreed)} freed`;
    const ms = +report.finishedAt - +report.startedAt;
    const how = `in ${report.batches} batches over ${ms} ms (the longest ${report.longestBatchMs} ms)`;
    const outcome = report.complete
      ? 'retention sweep finished'
      : stopping
        ? 'retention sweep stopped with the server, the rest left for the next one'
        : `retention sweep stopped at its ${pace.budgetMs} ms budget, the rest left for the next one, in ${this.deps.resumeDelayMs ?? 5000} ms`;
    log.info(
      { retention: { ...report, days: config.historyRetentionDays } },
      `${outcome}: ${removed} ${how}`,
    );
  }

  /**
   * Files under the blob directory no row names and untouched since `keepSinceMs`, removed; a batch of
   * names asked about per statement, paced like the rows. Directories a pass stopped at its budget went
   * through are skipped by the next, until a pass goes through them all.
   */
  private async removeUnusedBlobs(keepSinceMs: number, pacer: BatchPacer) {
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
      const used = await pacer.timed(() => repos.retention.referencedBlobs(candidates.map(named)));
      for (const file of candidates) {
        if (!used.has(named(file))) await remove(file);
        // A blob a stopped sweep set aside that a row still names goes back (or, copied again, away).
        else if (file.setAsideOf && !(await blobs.restore(file))) await remove(file);
      }
    };
    // The directories seen, in order; all but the last are done once their candidates are checked.
    const seen: string[] = [];
    const checked = () => {
      for (const dir of seen.slice(0, -1)) this.blobDirsDone.add(dir);
      seen.splice(0, seen.length - 1);
    };
    let candidates: BlobFile[] = [];
    for await (const file of blobs.files()) {
      const dir = dirname(file.path);
      if (this.blobDirsDone.has(dir)) continue;
      if (seen.at(-1) !== dir) seen.push(dir);
      if (file.mtimeMs >= keepSinceMs) continue;
      // Set aside lately: another process's sweep is deciding about it.
      if (file.setAsideOf && file.ctimeMs >= keepSinceMs) continue;
      if (!file.sha256 && !file.setAsideOf) {
        await remove(file);
        continue;
      }
      candidates.push(file);
      if (candidates.length >= BLOB_BATCH) {
        if (!(await pacer.next())) return { blobsDeleted, bytesFreed };
        await check(candidates);
        candidates = [];
        checked();
      }
    }
    if (candidates.length > 0) {
      if (!(await pacer.next())) return { blobsDeleted, bytesFreed };
      await check(candidates);
    }
    this.blobDirsDone.clear();
    return { blobsDeleted, bytesFreed };
  }
}
