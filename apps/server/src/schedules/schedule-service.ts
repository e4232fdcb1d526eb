import type { Repositories, ScheduleListing } from '@argus/db';
import {
  presetOf,
  SCHEDULE_PRESETS,
  type Schedule,
  type ScheduleInputSchema,
  type ScheduleOutcome,
  type ScheduleUpdateSchema,
} from '@argus/protocol';
import { Cron } from 'croner';
import type { z } from 'zod';
import { AppError } from '../errors';
import type { ProjectService } from '../projects/project-service';

type ScheduleInputBody = z.output<typeof ScheduleInputSchema>;
type ScheduleUpdateBody = z.output<typeof ScheduleUpdateSchema>;

/** Two due times of a schedule are at least this far apart: a schedule runs at most once a minute. */
export const MIN_SCHEDULE_INTERVAL_MS = 60_000;

/** Why `cron` in `timezone` cannot be a schedule (croner's words), or null. */
export function cronProblem(cron: string, timezone: string, now = new Date()): string | null {
  let job: Cron;
  try {
    job = new Cron(cron, { timezone, paused: true });
  } catch (error) {
    return `Not a valid cron expression: ${(error as Error).message.replace(/^CronPattern: /, '')}`;
  }
  let runs: Date[];
  try {
    runs = job.nextRuns(2, now);
  } catch {
    return `Unknown time zone: ${timezone}`;
  }
  if (runs.length === 0) return 'This cron expression never comes due';
  if (runs.length === 2 && runs[1].getTime() - runs[0].getTime() < MIN_SCHEDULE_INTERVAL_MS)
    return 'A schedule may run at most once a minute';
  return null;
}

/** The first due time of `cron` in `timezone` strictly after `after` (null when there is none). */
export function nextDue(cron: string, timezone: string, after: Date): Date | null {
  return new Cron(cron, { timezone, paused: true }).nextRun(after);
}

export function toApiSchedule({ schedule, suite_name, environment_name }: ScheduleListing): Schedule {
  return {
    id: schedule.id,
    project_id: schedule.project_id,
    suite_id: schedule.suite_id,
    suite_name,
    environment_id: schedule.environment_id,
    environment_name,
    cron: schedule.cron,
    preset: presetOf(schedule.cron),
    timezone: schedule.timezone,
    enabled: schedule.enabled,
    next_run_at: schedule.enabled ? (schedule.next_run_at?.toISOString() ?? null) : null,
    last_run_at: schedule.last_run_at?.toISOString() ?? null,
    last_run_id: schedule.last_run_id,
    last_outcome: (schedule.last_outcome as ScheduleOutcome | null) ?? null,
    last_message: schedule.last_message,
    created_at: schedule.created_at.toISOString(),
  };
}

export interface ScheduleServiceDeps {
  repos: Pick<Repositories, 'schedules'>;
  projects: Pick<ProjectService, 'get' | 'getSuite'>;
  /** @default () => new Date() */
  now?: () => Date;
}

/** A project's schedules: what the routes read and write (the scheduler runs them: scheduler.ts). */
export class ScheduleService {
  constructor(private readonly deps: ScheduleServiceDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The project's environment `environmentId` (its default when absent): 404s like the project's routes. */
  private async environment(
    userId: string,
    projectId: string,
    environmentId?: string | null,
  ): Promise<string> {
    const project = await this.deps.projects.get(userId, projectId);
    const found =
      environmentId === undefined || environmentId === null
        ? (project.environments.find((one) => one.is_default) ?? project.environments[0])
        : project.environments.find((one) => one.id.toLowerCase() === environmentId.toLowerCase());
    if (!found) throw new AppError('ENVIRONMENT_NOT_FOUND');
    return found.id;
  }

  async list(userId: string, projectId: string): Promise<Schedule[]> {
    await this.deps.projects.get(userId, projectId);
    return (await this.deps.repos.schedules.list(userId, projectId)).map(toApiSchedule);
  }

  private async listing(userId: string, projectId: string, id: string): Promise<Schedule> {
    const found = await this.deps.repos.schedules.get(userId, projectId, id);
    if (!found) throw new AppError('SCHEDULE_NOT_FOUND');
    return toApiSchedule(found);
  }

  /** The cron expression a preset or an expression stands for, checked; 422 naming the field otherwise. */
  private expression(preset: string | null | undefined, cron: string | undefined, timezone: string): string {
    const expression = preset ? SCHEDULE_PRESETS[preset as keyof typeof SCHEDULE_PRESETS] : (cron ?? '');
    const problem = cronProblem(expression, timezone, this.now());
    if (problem)
      throw new AppError('VALIDATION', [
        { loc: ['body', preset ? 'preset' : 'cron'], msg: problem, type: 'cron_invalid' },
      ]);
    return expression.trim().replace(/\s+/g, ' ');
  }

  async create(userId: string, projectId: string, input: ScheduleInputBody): Promise<Schedule> {
    // 404s for another user's project, suite or environment, as for a missing one.
    await this.deps.projects.getSuite(userId, projectId, input.suite_id);
    const environmentId = await this.environment(userId, projectId, input.environment_id);
    const cron = this.expression(input.preset, input.cron, input.timezone);
    const row = await this.deps.repos.schedules.create(userId, {
      project_id: projectId,
      suite_id: input.suite_id,
      environment_id: environmentId,
      cron,
      timezone: input.timezone,
      enabled: input.enabled,
      next_run_at: input.enabled ? nextDue(cron, input.timezone, this.now()) : null,
    });
    return this.listing(userId, projectId, row.id);
  }

  async update(userId: string, projectId: string, id: string, patch: ScheduleUpdateBody): Promise<Schedule> {
    await this.deps.projects.get(userId, projectId);
    const found = await this.deps.repos.schedules.get(userId, projectId, id);
    if (!found) throw new AppError('SCHEDULE_NOT_FOUND');
    const current = found.schedule;
    const environmentId =
      patch.environment_id === undefined
        ? current.environment_id
        : await this.environment(userId, projectId, patch.environment_id);
    const timezone = patch.timezone ?? current.timezone;
    const cron =
      patch.preset || patch.cron !== undefined
        ? this.expression(patch.preset, patch.cron, timezone)
        : this.expression(null, current.cron, timezone);
    const enabled = patch.enabled ?? current.enabled;
    // The next due time is worked out again from now: a changed expression or zone takes effect at once.
    const row = await this.deps.repos.schedules.update(userId, projectId, id, {
      environment_id: environmentId,
      cron,
      timezone,
      enabled,
      next_run_at: enabled ? nextDue(cron, timezone, this.now()) : null,
      ...(!enabled && { retry_at: null, retry_until: null }),
    });
    if (!row) throw new AppError('SCHEDULE_NOT_FOUND');
    return this.listing(userId, projectId, id);
  }

  async delete(userId: string, projectId: string, id: string): Promise<void> {
    await this.deps.projects.get(userId, projectId);
    if (!(await this.deps.repos.schedules.delete(userId, projectId, id)))
      throw new AppError('SCHEDULE_NOT_FOUND');
  }
}
