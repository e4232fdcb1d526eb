import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, inArray, lt, min, notInArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Drizzle } from './database';
import {
  caseArtifacts,
  comparisonImages,
  comparisons,
  conversationMessages,
  conversations,
  designUploads,
  type RetentionSweepRow,
  retentionSweeps,
  screenshots,
  testRuns,
  visualBaselines,
  visualChecks,
} from './schema';

/** What one user keeps (GET /api/settings/storage): the bytes the quota counts, per kind, and counts. */
export interface StorageTotals {
  /** A run's files: its screenshots, and its cases' traces, videos and diagnostics (case_artifacts). */
  screenshotBytes: number;
  comparisonBytes: number;
  uploadBytes: number;
  runs: number;
  comparisons: number;
  oldestRunAt: Date | null;
}

export type NewRetentionSweep = Omit<RetentionSweepRow, 'id'>;

/** Runs still being recorded: never removed, however old (a suite generated and waiting is 'pending'). */
const UNFINISHED = ['pending', 'running'];

/** A table retention deletes from: rows with an id and a time they were made. */
type AgingTable = PgTable & { id: PgColumn; created_at: PgColumn };

/**
 * The statement deleting up to `batch` rows of `table` that `where` picks (the oldest first when
 * `oldestFirst`), skipping rows another sweep has locked, returning their ids. One statement, so one
 * transaction: its locks and the time it holds the database are those of `batch` rows.
 */
function deleteBatchQuery(
  orm: Drizzle,
  table: AgingTable,
  where: SQL | undefined,
  batch: number,
  { oldestFirst }: { oldestFirst: boolean },
) {
  const picked = orm
    .select({ id: table.id })
    .from(table as PgTable)
    .where(where)
    .$dynamic();
  const ids = (oldestFirst ? picked.orderBy(asc(table.created_at)) : picked)
    .limit(batch)
    .for('update', { skipLocked: true });
  // `= ANY(ARRAY(…))`, not `IN (…)`: the ids are found first, then each row by its primary key. With
  // `IN` the planner may join the picked ids to a scan of the whole table (it did at 3,000 runs).
  return orm
    .delete(table as PgTable)
    .where(sql`${table.id} = ANY(ARRAY${ids})`)
    .returning({ id: table.id });
}

async function deleteBatch(...args: Parameters<typeof deleteBatchQuery>): Promise<number> {
  return (await deleteBatchQuery(...args)).length;
}

/** Finished runs created (and, for a suite recorded long before it ran, completed) before `cutoff`. */
function expiredRuns(cutoff: Date): SQL | undefined {
  return and(
    lt(testRuns.created_at, cutoff),
    notInArray(testRuns.status, UNFINISHED),
    sql`coalesce(${testRuns.completed_at}, ${testRuns.created_at}) < ${cutoff}`,
  );
}

/**
 * History retention (docs/HISTORY.md#retention): removes what is older than a cutoff across every
 * user, one batch of at most `batch` rows per call, each one statement and so one transaction, so a
 * sweep never holds locks on a whole table, holds the database only as long as one batch (the caller
 * paces the batches), and a crash loses at most nothing (what is left is removed by the next sweep).
 * Each call returns how many rows it deleted: fewer than `batch` means none are left. Several
 * processes may sweep at once: rows another sweep has locked are skipped, rows already gone count 0.
 * Which blobs rows still use is asked per batch of blob names (`referencedBlobs`).
 */
export function retentionRepository(orm: Drizzle) {
  return {
    /**
     * One batch of the finished runs created (and completed) before `cutoff`, oldest first, with their
     * results and screenshot rows (ON DELETE CASCADE, every key it goes through indexed:
     * 0013_cascade_indexes.sql); the number of runs.
     */
    deleteRuns(cutoff: Date, batch: number): Promise<number> {
      return deleteBatch(orm, testRuns, expiredRuns(cutoff), batch, { oldestFirst: true });
    },
    /** The statement `deleteRuns` runs (the retention benchmark shows its plan). */
    deleteRunsQuery(cutoff: Date, batch: number) {
      return deleteBatchQuery(orm, testRuns, expiredRuns(cutoff), batch, { oldestFirst: true });
    },
    /**
     * One batch of the conversations started before `cutoff` whose newest message is older too, with
     * their messages (ON DELETE CASCADE); one still going has a newer message and stays. The number.
     */
    deleteConversations(cutoff: Date, batch: number): Promise<number> {
      const where = and(
        lt(conversations.created_at, cutoff),
        sql`NOT EXISTS (SELECT 1 FROM ${conversationMessages} m
          WHERE m.conversation_id = ${conversations.id} AND m.created_at >= ${cutoff})`,
      );
      return deleteBatch(orm, conversations, where, batch, { oldestFirst: true });
    },
    /** One batch of the design comparisons created before `cutoff`; their images go with `deleteUnusedImages`. */
    deleteComparisons(cutoff: Date, batch: number): Promise<number> {
      return deleteBatch(orm, comparisons, lt(comparisons.created_at, cutoff), batch, {
        oldestFirst: true,
      });
    },
    /**
     * One batch of the comparison images created before `cutoff` that no comparison names in its `images` (those of the
     * comparisons just deleted, and those of a comparison stopped after its images were stored). An
     * image is made for one comparison just before it, so one older than the cutoff is not a younger
     * comparison's, unless that comparison was under way at the cutoff: the check keeps it then.
     */
    deleteUnusedImages(cutoff: Date, batch: number): Promise<number> {
      const where = and(
        lt(comparisonImages.created_at, cutoff),
        sql`NOT EXISTS (
          SELECT 1 FROM ${comparisons} c, jsonb_each(c.images) AS e(viewport, image)
          WHERE c.user_id = ${comparisonImages.user_id}
            AND ${comparisonImages.id}::text IN (e.image ->> 'site', e.image ->> 'design'))`,
      );
      return deleteBatch(orm, comparisonImages, where, batch, { oldestFirst: false });
    },
    /**
     * One batch of the design uploads made before `cutoff` that no remaining comparison was made from: an upload is
     * the input of a comparison in the history (nothing lists uploads to reuse them), so it goes
     * with the last comparison that used it, or at the cutoff if none did.
     */
    deleteUnusedUploads(cutoff: Date, batch: number): Promise<number> {
      const where = and(
        lt(designUploads.created_at, cutoff),
        sql`NOT EXISTS (SELECT 1 FROM ${comparisons} c WHERE c.user_id = ${designUploads.user_id} AND c.file_id = ${designUploads.id})`,
      );
      return deleteBatch(orm, designUploads, where, batch, { oldestFirst: false });
    },
    /**
     * Which of these blob names (SHA-256) a row still stores: every column holding a blob's name
     * (screenshots, cases' traces, videos and diagnostics, comparison images, design uploads and their
     * thumbnails, visual baselines, visual checks' captures and differences).
     */
    async referencedBlobs(names: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>();
      if (names.length === 0) return found;
      const list = [...names];
      const queries = [
        orm
          .selectDistinct({ sha: screenshots.sha256 })
          .from(screenshots)
          .where(inArray(screenshots.sha256, list)),
        orm
          .selectDistinct({ sha: comparisonImages.sha256 })
          .from(comparisonImages)
          .where(inArray(comparisonImages.sha256, list)),
        orm
          .selectDistinct({ sha: designUploads.sha256 })
          .from(designUploads)
          .where(inArray(designUploads.sha256, list)),
        orm
          .selectDistinct({ sha: caseArtifacts.sha256 })
          .from(caseArtifacts)
          .where(inArray(caseArtifacts.sha256, list)),
        orm
          .selectDistinct({ sha: designUploads.thumbnail_sha256 })
          .from(designUploads)
          .where(inArray(designUploads.thumbnail_sha256, list)),
        // Visual checks' baselines (kept while approved, whatever their age) and runs' captures and
        // difference pictures (0021_visual_checks.sql).
        orm
          .selectDistinct({ sha: visualBaselines.sha256 })
          .from(visualBaselines)
          .where(inArray(visualBaselines.sha256, list)),
        orm
          .selectDistinct({ sha: visualChecks.sha256 })
          .from(visualChecks)
          .where(inArray(visualChecks.sha256, list)),
        orm
          .selectDistinct({ sha: visualChecks.diff_sha256 })
          .from(visualChecks)
          .where(inArray(visualChecks.diff_sha256, list)),
      ];
      // A check's difference picture is null when it did not change (never in the `IN` list, but typed so).
      for (const query of queries) for (const row of await query) if (row.sha !== null) found.add(row.sha);
      return found;
    },
    async recordSweep(sweep: NewRetentionSweep): Promise<RetentionSweepRow> {
      const [row] = await orm
        .insert(retentionSweeps)
        .values({ ...sweep, id: randomUUID() })
        .returning();
      return row;
    },
    /** The latest sweep of any process, or null. */
    async lastSweep(): Promise<RetentionSweepRow | null> {
      const [row] = await orm
        .select()
        .from(retentionSweeps)
        .orderBy(sql`${retentionSweeps.finished_at} DESC`)
        .limit(1);
      return row ?? null;
    },
    /** The user's stored bytes and history, counted as MAX_STORED_BYTES_PER_USER counts them (per row). */
    async storage(userId: string): Promise<StorageTotals> {
      const [shots] = await orm
        .select({ total: sql<string | number | null>`sum(${screenshots.bytes})` })
        .from(screenshots)
        .where(eq(screenshots.user_id, userId));
      const [caseFiles] = await orm
        .select({ total: sql<string | number | null>`sum(${caseArtifacts.bytes})` })
        .from(caseArtifacts)
        .where(eq(caseArtifacts.user_id, userId));
      const [images] = await orm
        .select({ total: sql<string | number | null>`sum(${comparisonImages.bytes})` })
        .from(comparisonImages)
        .where(eq(comparisonImages.user_id, userId));
      const [uploads] = await orm
        .select({
          total: sql<string | number | null>`sum(${designUploads.size} + ${designUploads.thumbnail_bytes})`,
        })
        .from(designUploads)
        .where(eq(designUploads.user_id, userId));
      const [runs] = await orm
        .select({ runs: count(), oldest: min(testRuns.created_at) })
        .from(testRuns)
        .where(eq(testRuns.user_id, userId));
      const [compared] = await orm
        .select({ comparisons: count() })
        .from(comparisons)
        .where(eq(comparisons.user_id, userId));
      const oldest = runs?.oldest ?? null;
      return {
        screenshotBytes: Number(shots?.total ?? 0) + Number(caseFiles?.total ?? 0),
        comparisonBytes: Number(images?.total ?? 0),
        uploadBytes: Number(uploads?.total ?? 0),
        runs: Number(runs?.runs ?? 0),
        comparisons: Number(compared?.comparisons ?? 0),
        // min() of a timestamptz comes back as text on some drivers.
        oldestRunAt: oldest === null ? null : new Date(oldest),
      };
    },
  };
}
export type RetentionRepository = ReturnType<typeof retentionRepository>;
