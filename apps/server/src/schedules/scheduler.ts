import type { Repositories, ScheduleRow } from '@argus/db';
import type { FastifyBaseLogger } from 'fastify';
import type { AutomationFront } from '../automation/automation-front';
import type { Config } from '../config';
import { AppError } from '../errors';
import { nextDue } from './schedule-service';

/** What one tick started: each run's id and when it is over (tests wait on it). */
export interface TickResult {
  started: { scheduleId: string; runId: string; done: Promise<void> }[];
}

export interface SchedulerDeps {
  config: Pick<Config, 'schedulerTickMs' | 'scheduleBusyRetryMs' | 'scheduleBusyWindowMs'>;
  repos: Pick<Repositories, 'schedules'>;
  automation: Pick<AutomationFront, 'runSavedSuite' | 'isBusy'>;
  /** Deliveries left due (a retry of another process, one from before a restart): swept each tick. */
  deliverDue?: (now: Date) => Promise<void>;
  log: FastifyBaseLogger;
}

/**
 * Runs saved suites when their schedules come due (docs/SCHEDULES.md). Every server process runs one;
 * each tick reads the due schedules and claims each due time with a conditional update in the
 * database (`schedules.claim`: next_run_at moves on only if it still holds the due time this process
 * read), so among processes sharing a database exactly one starts the run. Due times missed while no
 * server ran are not made up: the next tick runs the schedule once and moves on to its next time.
 *
 * A user runs one automation activity at a time: a due time that finds theirs busy is tried again
 * every SCHEDULE_BUSY_RETRY_MS (claimed the same way) until SCHEDULE_BUSY_WINDOW_MS after it or the
 * schedule's next due time, whichever is first; then it is recorded as skipped, with the reason.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<unknown> | null = null;
  private stopped = false;

  constructor(private readonly deps: SchedulerDeps) {}

  /** Starts ticking every SCHEDULER_TICK_MS (the first tick at once). */
  start(): void {
    if (this.timer || this.stopped) return;
    const run = () => {
      if (this.ticking || this.stopped) return;
      this.ticking = this.tick(new Date())
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'scheduler tick failed'))
        .finally(() => {
          this.ticking = null;
        });
    };
    this.timer = setInterval(run, this.deps.config.schedulerTickMs);
    this.timer.unref();
    run();
  }

  /** Stops ticking and waits for a tick under way (runs it started go on, and are stopped with the app). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  /** One pass over what is due at `now`: schedules' due times and retries, then due deliveries. */
  async tick(now: Date): Promise<TickResult> {
    const result: TickResult = { started: [] };
    const due = await this.deps.repos.schedules.due(now);
    for (const row of due) {
      try {
        const started =
          row.enabled && row.next_run_at && row.next_run_at <= now
            ? await this.dueTime(row, row.next_run_at, now)
            : row.retry_at && row.retry_at <= now
              ? await this.retry(row, row.retry_at, now)
              : null;
        if (started) result.started.push(started);
      } catch (error) {
        this.deps.log.error({ err: error, schedule: row.id }, 'scheduled run failed to start');
      }
    }
    if (this.deps.deliverDue) await this.deps.deliverDue(now);
    return result;
  }

  private async dueTime(row: ScheduleRow, due: Date, now: Date) {
    const next = nextDue(row.cron, row.timezone, now);
    const claimed = await this.deps.repos.schedules.claim(row.id, due, next);
    if (!claimed) return null;
    // A retry of an earlier due time still waiting is dropped by the claim: this due time replaces it.
    const replaced = row.retry_at
      ? ' (the previous due time, still waiting for your busy automation, was skipped)'
      : '';
    return this.begin(
      claimed,
      due,
      now,
      new Date(due.getTime() + this.deps.config.scheduleBusyWindowMs),
      replaced,
    );
  }

  private async retry(row: ScheduleRow, retryAt: Date, now: Date) {
    const claimed = await this.deps.repos.schedules.claimRetry(row.id, retryAt);
    if (!claimed) return null;
    const due = claimed.last_run_at ?? retryAt;
    const until = claimed.retry_until ?? new Date(due.getTime() + this.deps.config.scheduleBusyWindowMs);
    return this.begin(claimed, due, now, until, '');
  }

  /** Starts the schedule's run, or plans a retry while the user is busy, and records what came of it. */
  private async begin(schedule: ScheduleRow, due: Date, now: Date, retryUntil: Date, note: string) {
    const { automation, repos, config, log } = this.deps;
    const userId = schedule.user_id;
    try {
      if (await automation.isBusy(userId)) throw new BusyError();
      const started = await automation.runSavedSuite(
        // A schedule belongs to its organization (schedules.user_id holds the organization's id) and
        // acts as no person: the organization itself is the actor, its run started by no one.
        { userId, orgId: userId },
        {
          project_id: schedule.project_id,
          suite_id: schedule.suite_id,
          environment_id: schedule.environment_id,
          trigger: 'schedule',
        },
        // Nothing is pushed to the user's sockets: the project page lists the run.
        () => {},
      );
      const done = started.done.catch((error: unknown) =>
        log.error({ err: error, schedule: schedule.id }, 'scheduled run failed'),
      );
      await repos.schedules.recordOutcome(schedule.id, {
        last_outcome: 'started',
        last_run_id: started.test_run_id,
        last_message: note ? `Started${note}` : null,
      });
      return { scheduleId: schedule.id, runId: started.test_run_id, done };
    } catch (error) {
      const busy =
        error instanceof BusyError ||
        (error instanceof AppError &&
          (error.code === 'BROWSER_LIMIT_REACHED' ||
            (error.code === 'BAD_REQUEST' && (await automation.isBusy(userId)))));
      const at = due.toISOString().replace('.000Z', 'Z');
      if (busy) {
        const retryAt = new Date(now.getTime() + config.scheduleBusyRetryMs);
        const limit = Math.min(
          retryUntil.getTime(),
          schedule.next_run_at?.getTime() ?? Number.POSITIVE_INFINITY,
        );
        if (retryAt.getTime() < limit) {
          await repos.schedules.recordOutcome(schedule.id, {
            last_outcome: 'waiting',
            last_message: `Your automation was busy at ${at}; trying again at ${retryAt.toISOString()}${note}`,
            retry_at: retryAt,
            retry_until: retryUntil,
          });
        } else {
          await repos.schedules.recordOutcome(schedule.id, {
            last_outcome: 'skipped',
            last_message: `Skipped the run due at ${at}: another run or generation of yours was under way until it was too late${note}`,
            retry_at: null,
            retry_until: null,
          });
        }
        return null;
      }
      const reason = error instanceof Error ? error.message : String(error);
      log.info({ schedule: schedule.id, reason }, 'scheduled run could not start');
      await repos.schedules.recordOutcome(schedule.id, {
        last_outcome: 'error',
        last_message: `The run due at ${at} could not start: ${reason}${note}`,
        retry_at: null,
        retry_until: null,
      });
      return null;
    }
  }
}

class BusyError extends Error {
  constructor() {
    super('busy');
  }
}
