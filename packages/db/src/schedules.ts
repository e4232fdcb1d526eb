import { and, asc, eq, isNotNull, lte, or } from 'drizzle-orm';
import type { Drizzle } from './database';
import { ownedRows, projectRows } from './owned-rows';
import { environments, type ScheduleRow, savedSuites, schedules } from './schema';
import { isUuid } from './users';

export type NewSchedule = Pick<
  ScheduleRow,
  'project_id' | 'suite_id' | 'environment_id' | 'cron' | 'timezone' | 'enabled' | 'next_run_at'
>;
export type SchedulePatch = Partial<
  Pick<
    ScheduleRow,
    'environment_id' | 'cron' | 'timezone' | 'enabled' | 'next_run_at' | 'retry_at' | 'retry_until'
  >
>;
export type ScheduleOutcomePatch = Pick<ScheduleRow, 'last_outcome' | 'last_message'> &
  Partial<Pick<ScheduleRow, 'last_run_id' | 'retry_at' | 'retry_until'>>;

/** A schedule with the names of what it runs, for the project page. */
export interface ScheduleListing {
  schedule: ScheduleRow;
  suite_name: string | null;
  environment_name: string | null;
}

/**
 * Schedules of saved suites (docs/SCHEDULES.md). What the project page reads and writes is scoped to
 * the owner and project; what the scheduler reads (`due`) spans every user, and its claims are
 * conditional updates, so that among processes sharing the database exactly one wins each due time.
 */
export function schedulesRepository(orm: Drizzle) {
  const scoped = projectRows(orm, schedules);
  const owned = ownedRows(orm, schedules);
  const listing = {
    schedule: schedules,
    suite_name: savedSuites.name,
    environment_name: environments.name,
  };
  return {
    /** The project's schedules, oldest first, with their suite's and environment's names. */
    async list(userId: string, projectId: string): Promise<ScheduleListing[]> {
      if (!isUuid(projectId)) return [];
      return orm
        .select(listing)
        .from(schedules)
        .leftJoin(savedSuites, eq(savedSuites.id, schedules.suite_id))
        .leftJoin(environments, eq(environments.id, schedules.environment_id))
        .where(scoped.inProject(userId, projectId))
        .orderBy(asc(schedules.created_at), asc(schedules.id));
    },
    async get(userId: string, projectId: string, id: string): Promise<ScheduleListing | undefined> {
      if (!isUuid(projectId) || !isUuid(id)) return undefined;
      const [row] = await orm
        .select(listing)
        .from(schedules)
        .leftJoin(savedSuites, eq(savedSuites.id, schedules.suite_id))
        .leftJoin(environments, eq(environments.id, schedules.environment_id))
        .where(scoped.one(userId, projectId, id));
      return row;
    },
    /** The caller has checked that the suite and environment are the user's, in this project. */
    create: (userId: string, input: NewSchedule): Promise<ScheduleRow> => owned.add(userId, input),
    update: (userId: string, projectId: string, id: string, patch: SchedulePatch) =>
      scoped.update(userId, projectId, id, patch),
    delete: scoped.delete,
    /** Every user's enabled schedules with a due time or a retry at or before `now`, earliest first. */
    async due(now: Date, limit = 100): Promise<ScheduleRow[]> {
      return orm
        .select()
        .from(schedules)
        .where(
          or(
            and(
              eq(schedules.enabled, true),
              isNotNull(schedules.next_run_at),
              lte(schedules.next_run_at, now),
            ),
            and(isNotNull(schedules.retry_at), lte(schedules.retry_at, now)),
          ),
        )
        .orderBy(asc(schedules.next_run_at))
        .limit(limit);
    },
    /**
     * Takes the due time `due` of a schedule and moves it on to `next`: only the first caller whose
     * `due` is still the row's next_run_at gets the row back (every other process gets undefined). A
     * retry still waiting for an earlier due time is dropped by the claim (the caller says so).
     */
    async claim(id: string, due: Date, next: Date | null): Promise<ScheduleRow | undefined> {
      const [row] = await orm
        .update(schedules)
        .set({
          next_run_at: next,
          last_run_at: due,
          retry_at: null,
          retry_until: null,
          updated_at: new Date(),
        })
        .where(and(eq(schedules.id, id), eq(schedules.enabled, true), eq(schedules.next_run_at, due)))
        .returning();
      return row;
    },
    /** Takes a retry due at `retryAt` (cleared for everyone else), the same way as `claim`. */
    async claimRetry(id: string, retryAt: Date): Promise<ScheduleRow | undefined> {
      const [row] = await orm
        .update(schedules)
        .set({ retry_at: null, updated_at: new Date() })
        .where(and(eq(schedules.id, id), eq(schedules.retry_at, retryAt)))
        .returning();
      return row;
    },
    /** What came of the last due time (and a retry to come, when one is set). */
    async recordOutcome(id: string, outcome: ScheduleOutcomePatch): Promise<void> {
      await orm
        .update(schedules)
        .set({ ...outcome, updated_at: new Date() })
        .where(eq(schedules.id, id));
    },
  };
}
export type SchedulesRepository = ReturnType<typeof schedulesRepository>;
