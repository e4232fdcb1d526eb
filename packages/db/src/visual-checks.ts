import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Drizzle } from './database';
import { ownedRows } from './owned-rows';
import {
  environments,
  testRuns,
  type VisualBaselineRow,
  type VisualCheckRow,
  visualBaselines,
  visualChecks,
} from './schema';
import { isUuid } from './users';
import {
  madeNow,
  type NewVisualCheck,
  type Tx,
  type VisualCheckWithBaseline,
  type VisualDecision,
  visualBaselinesRepository,
  visualKeyOf,
} from './visual-baselines';

export * from './visual-baselines';

/**
 * Visual checks' baselines (visual-baselines.ts) and each run's checks (docs/VISUAL-CHECKS.md): a run
 * stores its checks, and review decides them (an approval adds the key's newest baseline). Every call
 * takes the owner's (organization's) id, so another owner's row reads as a missing one. Checks go with
 * their run (a baseline approved from it stays, its source_run_id cleared).
 */
export function visualChecksRepository(orm: Drizzle) {
  const checks = ownedRows(orm, visualChecks);
  const baselineOwned = (ownerId: string) => eq(visualBaselines.user_id, ownerId);
  const checkOwned = (ownerId: string) => eq(visualChecks.user_id, ownerId);

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
        // A check that named its baseline's picture stored none of its own (it is never pending).
        bytes: check.bytes,
        moving_masks: check.moving_masks,
        user_masks: carried?.user_masks ?? [],
        element_masks: carried?.element_masks ?? [],
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

  /** Records on an approved check the baseline it made (its review then opens that baseline's history). */
  async function madeBaseline(
    tx: Tx,
    check: VisualCheckRow,
    baseline: VisualBaselineRow,
  ): Promise<VisualCheckRow> {
    const [row] = await tx
      .update(visualChecks)
      .set({ made_baseline_id: baseline.id })
      .where(eq(visualChecks.id, check.id))
      .returning();
    return row ?? check;
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
    ...visualBaselinesRepository(orm),

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

    /** A run's checks in case and step order (then as taken), each with the baseline it was compared with. */
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
        .orderBy(
          asc(visualChecks.case_index),
          asc(visualChecks.step_index),
          asc(visualChecks.created_at),
          asc(visualChecks.id),
        );
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
      input: { decision: 'approve' | 'reject'; decided_by: string; reason?: string | null },
    ): Promise<VisualDecision | undefined> {
      if (!isUuid(checkId)) return undefined;
      return orm.transaction(async (tx) => {
        const [check] = await tx
          .update(visualChecks)
          .set({
            review: input.decision === 'approve' ? 'approved' : 'rejected',
            decided_by: input.decided_by,
            decided_at: new Date(),
            decision_reason: input.decision === 'reject' ? (input.reason ?? null) : null,
          })
          .where(and(checkOwned(ownerId), eq(visualChecks.id, checkId), eq(visualChecks.review, 'pending')))
          .returning();
        if (!check) return undefined;
        await reviewed(tx, ownerId, check.test_run_id, 1);
        if (input.decision === 'reject') return { check };
        const carried = (await comparedWith(tx, ownerId, [check])).get(check.baseline_id ?? '');
        const baseline = await approveInto(tx, ownerId, check, input.decided_by, carried);
        return baseline ? { check: await madeBaseline(tx, check, baseline), baseline } : { check };
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
          const made = await approveInto(tx, ownerId, check, decidedBy, carried.get(check.baseline_id ?? ''));
          if (made) await madeBaseline(tx, check, made);
        }
        return approved.length;
      });
    },
  };
}
export type VisualChecksRepository = ReturnType<typeof visualChecksRepository>;
