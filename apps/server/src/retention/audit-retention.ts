import type { Repositories } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { BatchPacer } from './batch-pacer';
import { retentionPace } from './retention-pace';

/** What one audit sweep removed. */
export interface AuditSweepReport {
  cutoff: Date;
  deleted: number;
  /** false: it stopped at its time budget (or the server stopping) with older rows left for the next one. */
  complete: boolean;
  batches: number;
  longestBatchMs: number;
}

export interface AuditSweeperDeps {
  config: Pick<Config, 'auditRetentionDays' | 'retentionSweepIntervalMs'> &
    Partial<Pick<Config, 'retentionPace'>>;
  repos: Pick<Repositories, 'auditLog'>;
  log: FastifyBaseLogger;
  /** The wait before the first sweep, so a start is not slowed by one. @default 60000 (1 minute) */
  firstSweepDelayMs?: number;
  /** The wait before the next sweep when one stopped at its budget with rows left. @default 5000 */
  resumeDelayMs?: number;
  /** The clock. @default () => new Date() */
  now?: () => Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Audit log retention (AUDIT_RETENTION_DAYS, default 365; 0 keeps every row): separate from the
 * history's (HISTORY_RETENTION_DAYS), which is usually far shorter, so a record of who did what
 * outlives the runs it mentions. Every RETENTION_SWEEP_INTERVAL_MS each process deletes the rows
 * recorded before the cutoff, oldest first, in the history sweep's small batches with its pauses and
 * time budget (RETENTION_BATCH_SIZE, RETENTION_BATCH_PAUSE_MS, RETENTION_SWEEP_BUDGET_MS). This is the
 * only way a row leaves: the database refuses any other DELETE (0017_audit_log.sql).
 */
export class AuditSweeper {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<AuditSweepReport | null> | null = null;
  private readonly stopping = new AbortController();

  constructor(private readonly deps: AuditSweeperDeps) {}

  /** Sweeps a minute after start, then every RETENTION_SWEEP_INTERVAL_MS; nothing when retention is off. */
  start(): void {
    if (this.timer || this.stopping.signal.aborted || this.deps.config.auditRetentionDays === 0) return;
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

  /** Stops sweeping and waits for the batch under way. */
  async stop(): Promise<void> {
    this.stopping.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.sweeping?.catch(() => undefined);
  }

  /** One sweep now (joining one under way in this process); null when retention is off. */
  sweep(): Promise<AuditSweepReport | null> {
    this.sweeping ??= this.sweepOnce().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async tick(): Promise<number> {
    try {
      const report = await this.sweep();
      if (report && !report.complete) return this.deps.resumeDelayMs ?? 5000;
    } catch (error) {
      this.deps.log.error({ err: error }, 'audit log retention sweep failed');
    }
    return this.deps.config.retentionSweepIntervalMs;
  }

  private async sweepOnce(): Promise<AuditSweepReport | null> {
    const { config, repos, log } = this.deps;
    if (config.auditRetentionDays === 0) return null;
    const pacer = new BatchPacer(config.retentionPace ?? retentionPace({}), this.stopping.signal);
    const now = (this.deps.now ?? (() => new Date()))();
    const cutoff = new Date(now.getTime() - config.auditRetentionDays * DAY_MS);
    const deleted = await pacer.drain((batch) => repos.auditLog.deleteOlderThan(cutoff, batch));
    const report: AuditSweepReport = {
      cutoff,
      deleted,
      complete: pacer.complete,
      batches: pacer.batches,
      longestBatchMs: Math.round(pacer.longestBatchMs),
    };
    if (deleted > 0 || !report.complete) {
      log.info(
        { auditRetention: { ...report, days: config.auditRetentionDays } },
        `audit log retention: ${deleted} rows older than ${config.auditRetentionDays} days removed${report.complete ? '' : ', the rest left for the next sweep'}`,
      );
    }
    return report;
  }
}
