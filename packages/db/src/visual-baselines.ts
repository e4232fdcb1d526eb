import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { ownedRows } from './owned-rows';
import {
  type VisualBaselineRow,
  type VisualCheckRow,
  type VisualElementMaskRow,
  type VisualMaskRow,
  visualBaselines,
  type visualChecks,
} from './schema';
import { isUuid } from './users';

export type { VisualBaselineRow, VisualCheckRow, VisualElementMaskRow, VisualMaskRow };

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
  element_masks?: VisualElementMaskRow[];
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

export type Tx = Parameters<Parameters<Drizzle['transaction']>[0]>[0];
type Runner = Drizzle | Tx;

export const KEY_COLUMNS = [
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
export const madeNow = (offset = 0) =>
  sql`clock_timestamp() + ${sql.raw(`interval '${offset} microseconds'`)}`;

/** Newest first; the id settles rows made at the same instant, so every read picks the same one. */
export const NEWEST_FIRST = [desc(visualBaselines.created_at), desc(visualBaselines.id)];

/**
 * Visual checks' baselines (docs/VISUAL-CHECKS.md). A key's rows are its history: approving, restoring
 * or promoting adds the key's newest row (never an update of the picture), so what was compared with
 * stays readable. Every call takes the owner's (organization's) id, so another owner's row reads as a
 * missing one. Baselines go with their project or environment.
 */
export function visualBaselinesRepository(orm: Drizzle) {
  const baselines = ownedRows(orm, visualBaselines);
  const baselineOwned = (ownerId: string) => eq(visualBaselines.user_id, ownerId);

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
            bytes: earlier.bytes,
            moving_masks: earlier.moving_masks,
            user_masks: current.user_masks,
            element_masks: current.element_masks,
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
      if (settings.element_masks !== undefined) patch.element_masks = settings.element_masks;
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
            JSON.stringify(now.element_masks) !== JSON.stringify(row.element_masks) ||
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
            bytes: row.bytes,
            moving_masks: row.moving_masks,
            user_masks: row.user_masks,
            element_masks: row.element_masks,
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
  };
}
