import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { ownedRows } from './owned-rows';
import {
  environments,
  testRuns,
  type VisualBaselineRow,
  type VisualCheckRow,
  type VisualMaskRow,
  visualBaselines,
  visualChecks,
} from './schema';
import { isUuid } from './users';

export type { VisualBaselineRow, VisualCheckRow, VisualMaskRow };

/** What a baseline is kept under (0021_visual_checks.sql): a check's capture is compared with its key's newest. */
export type VisualKey = {
  project_id: string;
  environment_id: string;
  /** '' is the project's default branch. */
  branch: string;
  case_name: string;
  check_name: string;
  viewport_width: number;
  viewport_height: number;
  browser: string;
};

export type NewVisualBaseline = Omit<typeof visualBaselines.$inferInsert, 'id' | 'user_id'>;
export type NewVisualCheck = Omit<typeof visualChecks.$inferInsert, 'id' | 'user_id' | 'test_run_id'>;

/** A baseline's settings: what the next approval of its key carries over. */
export interface VisualSettings {
  user_masks?: VisualMaskRow[];
  threshold?: number;
}

/** A run's check with the baseline it was compared with (undefined for a new check, or once it went). */
export interface VisualCheckWithBaseline {
  check: VisualCheckRow;
  baseline: VisualBaselineRow | undefined;
}

/** A review's outcome: the decided check and, for an approval, the baseline it made. */
export interface VisualDecision {
  check: VisualCheckRow;
  baseline?: VisualBaselineRow;
}

/** Which baselines a listing or a promotion covers: one branch of a project, one environment or all. */
export interface VisualScope {
  project_id: string;
  environment_id?: string;
  branch: string;
}

type Tx = Parameters<Parameters<Drizzle['transaction']>[0]>[0];
type Runner = Drizzle | Tx;

const KEY_COLUMNS = [
  'project_id',
  'environment_id',
  'branch',
  'case_name',
  'check_name',
  'viewport_width',
  'viewport_height',
  'browser',
] as const;

/** The key fields of a baseline or a check. */
export function visualKeyOf(row: VisualKey): VisualKey {
  const key = {} as Record<string, unknown>;
  for (const column of KEY_COLUMNS) key[column] = row[column];
  return key as VisualKey;
}

/** One string per key, branch left out (promotion matches a branch's keys with the default branch's). */
const keyText = (row: VisualKey) =>
  JSON.stringify([
    row.environment_id,
    row.case_name,
    row.check_name,
    row.viewport_width,
    row.viewport_height,
    row.browser,
  ]);

/**
 * When a baseline made now is made: the statement's clock, not the transaction's start, so a row added
 * later in the same transaction (decideAll, a restore after a read) is still the newer one; `offset`
 * microseconds on, so the rows of one multi-row insert keep their order even within one microsecond.
 */
const madeNow = (offset = 0) => sql`clock_timestamp() + ${sql.raw(`interval '${offset} microseconds'`)}`;

/** Newest first; the id settles rows made at the same instant, so every read picks the same one. */
const NEWEST_FIRST = [desc(visualBaselines.created_at), desc(visualBaselines.id)];

/**
 * Visual checks' baselines and each run's checks (docs/VISUAL-CHECKS.md). A key's rows are its history:
 * approving, restoring or promoting adds the key's newest row (never an update of the picture), so
 * what was compared with stays readable. Every call takes the owner's (organization's) id, so another
 * owner's row reads as a missing one. Baselines go with their project or environment; checks with
 * their run (a baseline approved from it stays, its source_run_id cleared).
 */
export function visualChecksRepository(orm: Drizzle) {
  const baselines = ownedRows(orm, visualBaselines);
  const checks = ownedRows(orm, visualChecks);
  const baselineOwned = (ownerId: string) => eq(visualBaselines.user_id, ownerId);
  const checkOwned = (ownerId: string) => eq(visualChecks.user_id, ownerId);

  /** The owner's rows of `key` (its branch included). */
  const ofKey = (ownerId: string, key: VisualKey): SQL | undefined =>
    and(baselineOwned(ownerId), ...KEY_COLUMNS.map((column) => eq(visualBaselines[column], key[column])));

  const validKey = (key: VisualKey) => isUuid(key.project_id) && isUuid(key.environment_id);

  async function newest(db: Runner, ownerId: string, key: VisualKey): Promise<VisualBaselineRow | undefined> {
    const [row] = await db
      .select()
      .from(visualBaselines)
      .where(ofKey(ownerId, key))
      .orderBy(...NEWEST_FIRST)
      .limit(1);
    return row;
  }

  /** The newest baseline of every key on one branch, in case, check and viewport order. */
  function newestPerKey(
    db: Runner,
    ownerId: string,
    scope: VisualScope,
    limit?: number,
  ): Promise<VisualBaselineRow[]> {
    const b = visualBaselines;
    const conditions: SQL[] = [
      baselineOwned(ownerId),
      eq(b.project_id, scope.project_id),
      eq(b.branch, scope.branch),
    ];
    if (scope.environment_id !== undefined) conditions.push(eq(b.environment_id, scope.environment_id));
    // DISTINCT ON keeps the first row of each key in ORDER BY's order: the key's newest.
    const perKey = [
      b.case_name,
      b.check_name,
      b.viewport_width,
      b.viewport_height,
      b.browser,
      b.environment_id,
    ];
    const query = db
      .selectDistinctOn(perKey)
      .from(b)
      .where(and(...conditions))
      .orderBy(...perKey.map((column) => asc(column)), ...NEWEST_FIRST)
      .$dynamic();
    return limit === undefined ? query : query.limit(limit);
  }

  const validScope = (scope: VisualScope) =>
    isUuid(scope.project_id) && (scope.environment_id === undefined || isUuid(scope.environment_id));

  /**
   * Adds the baseline `check`'s approval makes, its user masks and threshold carried over from the
   * baseline it was compared with (a user's settings outlive the picture), or the defaults for a new
   * check. None when the key's environment (or project) is gone: its baselines went with it, so the
   * approval has nothing to keep. The environment's row is held (FOR KEY SHARE) until the transaction
   * ends, so it cannot go between this look and the insert.
   */
  async function approveInto(
    tx: Tx,
    ownerId: string,
    check: VisualCheckRow,
    approvedBy: string,
    carried: VisualBaselineRow | undefined,
  ): Promise<VisualBaselineRow | undefined> {
    const [environment] = await tx
      .select({ id: environments.id })
      .from(environments)
      .where(
        and(
          eq(environments.id, check.environment_id),
          eq(environments.project_id, check.project_id),
          eq(environments.user_id, ownerId),
        ),
      )
      .for('key share');
    if (!environment) return undefined;
    const [row] = await tx
      .insert(visualBaselines)
      .values({
        ...visualKeyOf(check),
        id: randomUUID(),
        user_id: ownerId,
        sha256: check.sha256,
        width: check.width,
        height: check.height,
        moving_masks: check.moving_masks,
        user_masks: carried?.user_masks ?? [],
        threshold: carried?.threshold ?? 0,
        approved_by: approvedBy,
        source_run_id: check.test_run_id,
        copied_from: null,
        created_at: madeNow(),
      })
      .returning();
    return row;
  }

  /** The baselines these checks were compared with, by id (the owner's only). */
  async function comparedWith(tx: Tx, ownerId: string, decided: VisualCheckRow[]) {
    const ids = [...new Set(decided.map((c) => c.baseline_id).filter((id): id is string => id !== null))];
    if (ids.length === 0) return new Map<string, VisualBaselineRow>();
    const found = await tx
      .select()
      .from(visualBaselines)
      .where(and(baselineOwned(ownerId), inArray(visualBaselines.id, ids)));
    return new Map(found.map((row) => [row.id, row]));
  }

  /** Takes `decided` checks off their run's count of checks to review (never below 0). */
  async function reviewed(tx: Tx, ownerId: string, runId: string, decided: number) {
    if (decided === 0) return;
    await tx
      .update(testRuns)
      .set({ visual_to_review: sql`greatest(${testRuns.visual_to_review} - ${decided}, 0)` })
      .where(and(eq(testRuns.id, runId), eq(testRuns.user_id, ownerId)));
  }

  return {
    /**
     * The baseline a check of `key` is compared with: the newest on its branch, else (a branch with
     * none of its own yet) the newest on the default branch ''. Undefined when neither has one.
     */
    async baselineFor(ownerId: string, key: VisualKey): Promise<VisualBaselineRow | undefined> {
      if (!validKey(key)) return undefined;
      const own = await newest(orm, ownerId, key);
      if (own || key.branch === '') return own;
      return newest(orm, ownerId, { ...key, branch: '' });
    },

    getBaseline: (ownerId: string, id: string): Promise<VisualBaselineRow | undefined> =>
      baselines.get(ownerId, id),

    /** A new newest baseline of its key (the caller has checked the project and environment are the owner's). */
    async addBaseline(ownerId: string, values: NewVisualBaseline): Promise<VisualBaselineRow> {
      const [row] = await orm
        .insert(visualBaselines)
        .values({ created_at: madeNow(), ...values, id: randomUUID(), user_id: ownerId })
        .returning();
      return row;
    },

    /** Every baseline of the key (same branch) of baseline `baselineId`, newest first; [] when not the owner's. */
    async baselineHistory(ownerId: string, baselineId: string, limit = 100): Promise<VisualBaselineRow[]> {
      const one = await baselines.get(ownerId, baselineId);
      if (!one) return [];
      return orm
        .select()
        .from(visualBaselines)
        .where(ofKey(ownerId, one))
        .orderBy(...NEWEST_FIRST)
        .limit(limit);
    },

    /** The newest baseline of each key on one branch (a project's, or one environment's), in case, check and viewport order. */
    async currentBaselines(ownerId: string, scope: VisualScope, limit = 500): Promise<VisualBaselineRow[]> {
      if (!validScope(scope)) return [];
      return newestPerKey(orm, ownerId, scope, limit);
    },

    /**
     * Makes an earlier baseline its key's newest again, by copying it (`copied_from` names it; no
     * source run): the history keeps every row it had. The current newest's user masks and threshold
     * are kept: a restore brings back the picture, not old settings. Restoring the newest adds nothing
     * and answers it. Undefined when it is not the owner's.
     */
    async restoreBaseline(
      ownerId: string,
      baselineId: string,
      approvedBy: string,
    ): Promise<VisualBaselineRow | undefined> {
      if (!isUuid(baselineId)) return undefined;
      return orm.transaction(async (tx) => {
        const [earlier] = await tx
          .select()
          .from(visualBaselines)
          .where(and(baselineOwned(ownerId), eq(visualBaselines.id, baselineId)));
        if (!earlier) return undefined;
        const current = (await newest(tx, ownerId, earlier)) ?? earlier;
        if (current.id === earlier.id) return earlier;
        const [row] = await tx
          .insert(visualBaselines)
          .values({
            ...visualKeyOf(earlier),
            id: randomUUID(),
            user_id: ownerId,
            sha256: earlier.sha256,
            width: earlier.width,
            height: earlier.height,
            moving_masks: earlier.moving_masks,
            user_masks: current.user_masks,
            threshold: current.threshold,
            approved_by: approvedBy,
            source_run_id: null,
            copied_from: earlier.id,
            created_at: madeNow(),
          })
          .returning();
        return row;
      });
    },

    /**
     * Changes a baseline's user masks or threshold in place. Settings live on the key's newest row
     * (the one compared with) and are copied forward by each approval, restore and promotion.
     * Undefined when it is not the owner's.
     */
    async updateSettings(
      ownerId: string,
      baselineId: string,
      settings: VisualSettings,
    ): Promise<VisualBaselineRow | undefined> {
      const patch: VisualSettings = {};
      if (settings.user_masks !== undefined) patch.user_masks = settings.user_masks;
      if (settings.threshold !== undefined) patch.threshold = settings.threshold;
      if (Object.keys(patch).length === 0) return baselines.get(ownerId, baselineId);
      return baselines.update(ownerId, baselineId, patch);
    },

    /**
     * Promotes a branch's baselines to the default branch (its work merged), in one transaction: each
     * key's newest on `branch` is copied as the key's newest on '' (`copied_from` names it) unless the
     * default branch's newest already has the same picture and settings. Other branches keep theirs.
     * Answers how many were promoted.
     */
    async promote(ownerId: string, scope: VisualScope & { approved_by: string }): Promise<number> {
      if (!validScope(scope) || scope.branch === '') return 0;
      const { approved_by, ...where } = scope;
      return orm.transaction(async (tx) => {
        const branch = await newestPerKey(tx, ownerId, where);
        if (branch.length === 0) return 0;
        const main = new Map(
          (await newestPerKey(tx, ownerId, { ...where, branch: '' })).map((row) => [keyText(row), row]),
        );
        const differs = (row: VisualBaselineRow) => {
          const now = main.get(keyText(row));
          return (
            !now ||
            now.sha256 !== row.sha256 ||
            now.threshold !== row.threshold ||
            JSON.stringify(now.user_masks) !== JSON.stringify(row.user_masks) ||
            JSON.stringify(now.moving_masks) !== JSON.stringify(row.moving_masks)
          );
        };
        const promoted = branch.filter(differs);
        if (promoted.length === 0) return 0;
        await tx.insert(visualBaselines).values(
          promoted.map((row, i) => ({
            ...visualKeyOf(row),
            branch: '',
            id: randomUUID(),
            user_id: ownerId,
            sha256: row.sha256,
            width: row.width,
            height: row.height,
            moving_masks: row.moving_masks,
            user_masks: row.user_masks,
            threshold: row.threshold,
            approved_by,
            source_run_id: null,
            copied_from: row.id,
            created_at: madeNow(i),
          })),
        );
        return promoted.length;
      });
    },

    /**
     * Stores a run's checks and adds those waiting for review to the run's `visual_to_review`, in one
     * transaction. [] (nothing stored) when the run is not the owner's.
     */
    async addChecks(
      ownerId: string,
      runId: string,
      rows: readonly NewVisualCheck[],
    ): Promise<VisualCheckRow[]> {
      if (rows.length === 0 || !isUuid(runId)) return [];
      return orm.transaction(async (tx) => {
        const pending = rows.filter((row) => row.review === 'pending').length;
        const [run] = await tx
          .update(testRuns)
          .set({ visual_to_review: sql`${testRuns.visual_to_review} + ${pending}` })
          .where(and(eq(testRuns.id, runId), eq(testRuns.user_id, ownerId)))
          .returning({ id: testRuns.id });
        if (!run) return [];
        const ids = rows.map(() => randomUUID());
        const added = await tx
          .insert(visualChecks)
          .values(
            rows.map((row, i) => ({
              created_at: madeNow(i),
              ...row,
              id: ids[i],
              user_id: ownerId,
              test_run_id: runId,
            })),
          )
          .returning();
        // In the order given (RETURNING promises none; a Date holds no microseconds to sort by).
        const byId = new Map(added.map((row) => [row.id, row]));
        return ids.map((id) => byId.get(id) as VisualCheckRow);
      });
    },

    /** A run's checks in the order they were taken, each with the baseline it was compared with. */
    async forRun(ownerId: string, runId: string): Promise<VisualCheckWithBaseline[]> {
      if (!isUuid(runId)) return [];
      const found = await orm
        .select({ check: visualChecks, baseline: visualBaselines })
        .from(visualChecks)
        .leftJoin(
          visualBaselines,
          and(eq(visualBaselines.id, visualChecks.baseline_id), baselineOwned(ownerId)),
        )
        .where(and(checkOwned(ownerId), eq(visualChecks.test_run_id, runId)))
        .orderBy(asc(visualChecks.created_at), asc(visualChecks.id));
      return found.map(({ check, baseline }) => ({ check, baseline: baseline ?? undefined }));
    },

    getCheck: (ownerId: string, id: string): Promise<VisualCheckRow | undefined> => checks.get(ownerId, id),

    /**
     * Decides a check waiting for review, in one transaction: its review, who and when; one fewer to
     * review on its run; for an approval, its capture as the key's newest baseline. Only a pending
     * check is decided, by a conditional UPDATE: of two reviewers deciding at once, the second waits
     * for the first's row lock, then finds it decided and gets undefined. Undefined too when the check
     * is missing or not the owner's. An approval whose environment is gone makes no baseline.
     */
    async decide(
      ownerId: string,
      checkId: string,
      input: { decision: 'approve' | 'reject'; decided_by: string },
    ): Promise<VisualDecision | undefined> {
      if (!isUuid(checkId)) return undefined;
      return orm.transaction(async (tx) => {
        const [check] = await tx
          .update(visualChecks)
          .set({
            review: input.decision === 'approve' ? 'approved' : 'rejected',
            decided_by: input.decided_by,
            decided_at: new Date(),
          })
          .where(and(checkOwned(ownerId), eq(visualChecks.id, checkId), eq(visualChecks.review, 'pending')))
          .returning();
        if (!check) return undefined;
        await reviewed(tx, ownerId, check.test_run_id, 1);
        if (input.decision === 'reject') return { check };
        const carried = (await comparedWith(tx, ownerId, [check])).get(check.baseline_id ?? '');
        const baseline = await approveInto(tx, ownerId, check, input.decided_by, carried);
        return baseline ? { check, baseline } : { check };
      });
    },

    /** Approves every check of the run still waiting for review, in one transaction (as `decide` does); how many. */
    async decideAll(ownerId: string, runId: string, decidedBy: string): Promise<number> {
      if (!isUuid(runId)) return 0;
      return orm.transaction(async (tx) => {
        const approved = await tx
          .update(visualChecks)
          .set({ review: 'approved', decided_by: decidedBy, decided_at: new Date() })
          .where(
            and(checkOwned(ownerId), eq(visualChecks.test_run_id, runId), eq(visualChecks.review, 'pending')),
          )
          .returning();
        if (approved.length === 0) return 0;
        await reviewed(tx, ownerId, runId, approved.length);
        const carried = await comparedWith(tx, ownerId, approved);
        // In the order they were taken (the database's, to the microsecond), so a key checked twice in
        // the run keeps its later capture.
        const inOrder = await tx
          .select()
          .from(visualChecks)
          .where(
            inArray(
              visualChecks.id,
              approved.map((check) => check.id),
            ),
          )
          .orderBy(asc(visualChecks.created_at), asc(visualChecks.id));
        for (const check of inOrder) {
          await approveInto(tx, ownerId, check, decidedBy, carried.get(check.baseline_id ?? ''));
        }
        return approved.length;
      });
    },
  };
}
export type VisualChecksRepository = ReturnType<typeof visualChecksRepository>;
