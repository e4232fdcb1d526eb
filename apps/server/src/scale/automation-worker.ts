import { ErrorCodeSchema, type ServerMessageInput } from '@argus/protocol';
import { DelayedError, type Job } from 'bullmq';
import type { AutomationService, RunControl } from '../automation/automation-service';
import { AppError } from '../errors';
import { echoing, type Send } from '../realtime/user-channel';
import type { RedisLine } from '../run-lines/redis-line';
import { AutomationJobSchema, type JobReply, TurnJobSchema, WorkerControlSchema } from './automation-jobs';
import { bindUserWork, endUserWork } from './automation-line';
import type { JobsDeps, QueueJobs } from './queue-worker';
import { AUTOMATION_QUEUE, jobReplies, LINE_MOVED, LINE_RUNS, userVideo, WORKER_CONTROL } from './redis-keys';

export interface AutomationWorkerDeps extends JobsDeps {
  automation: AutomationService;
  /** The line work waits in (scale/automation-line.ts). */
  line: RedisLine;
  /** ORG_MAX_CONCURRENT_RUNS: an organization's work going at once, over every worker. */
  perOrg: number;
  /** How long a turn waits before asking again when every waiting organization is at its limit. @default 500 */
  busyRetryMs?: number;
}

/**
 * A worker process's side of the automation queue (docs/DEPLOYMENT.md#how-work-flows): takes turns,
 * binds each to the line's next work (organizations taking turns), runs it through the same
 * AutomationService one process uses, over this process's browsers, and says what happens on the
 * work's reply channel and the user's. It also answers the web processes' control messages for the
 * work it holds: stop, video, where it stands. A QueueWorker takes its jobs.
 */
export class AutomationWorker implements QueueJobs {
  readonly queue = AUTOMATION_QUEUE;
  readonly controlChannel = WORKER_CONTROL;

  constructor(private readonly deps: AutomationWorkerDeps) {}

  /**
   * On a stop: a run under way finishes the cases it has started, then goes back to the queue for
   * another worker to resume (`runControl`); a generation finishes.
   */
  onStop(): void {
    this.stopping = true;
  }

  /** Set on a stop: the runs under way take no new case and go back to the queue (`runControl`). */
  private stopping = false;

  /**
   * A turn: the line's next work is bound to the job, or the job ends (nothing waits: its work left
   * the line), or it waits a moment (every waiting organization is at ORG_MAX_CONCURRENT_RUNS).
   */
  private async bind(job: Job, token: string | undefined): Promise<unknown | null> {
    const { line, perOrg, redis, log } = this.deps;
    const taken = await line.take(perOrg, String(job.id));
    if (taken === 'empty') return null;
    if (taken === 'busy') {
      if (!token) return null;
      await job.moveToDelayed(Date.now() + (this.deps.busyRetryMs ?? 500), token);
      throw new DelayedError();
    }
    let work: Record<string, unknown>;
    try {
      work = JSON.parse(taken.payload) as Record<string, unknown>;
    } catch {
      log.error({ entry: taken.id }, 'a line entry could not be read');
      return null;
    }
    const bound = { ...work, bound_at: { attempts: job.attemptsStarted, stalled: job.stalledCounter } };
    await job.updateData(bound);
    const userId = String(work.user_id);
    await bindUserWork(redis, userId, taken.id, { bound: String(job.id) });
    const runId = (work.data as { test_run_id?: unknown } | undefined)?.test_run_id;
    if (typeof runId === 'string') await redis.hdel(LINE_RUNS, runId);
    await redis.publish(LINE_MOVED, '1');
    return bound;
  }

  async process(job: Job, token?: string): Promise<void> {
    const { automation, channel, redis, log, line } = this.deps;
    const data = TurnJobSchema.safeParse(job.data).success ? await this.bind(job, token) : job.data;
    if (data === null) return;
    const parsed = AutomationJobSchema.safeParse(data);
    const entryId = String((parsed.success && parsed.data.entry_id) || job.id);
    const reply = (message: JobReply) => redis.publish(jobReplies(entryId), JSON.stringify(message));
    if (!parsed.success) {
      log.error({ jobId: job.id, issues: parsed.error.issues.slice(0, 5) }, 'an automation job was refused');
      await reply({ type: 'ended', error: { code: 'VALIDATION', message: 'The queued work was malformed' } });
      return;
    }
    const work = parsed.data;
    const userId = work.user_id;
    const actor = { userId, orgId: work.org_id ?? userId };
    // Taken up again after the worker that had it stopped (BullMQ's stalled-job check): its run
    // resumes, keeping the cases recorded. A generation just starts over. Delays while it waited its
    // turn are not that.
    const since = work.bound_at ?? { attempts: 1, stalled: 0 };
    const resumed = job.attemptsStarted > since.attempts || job.stalledCounter > since.stalled;
    if (resumed) log.warn({ jobId: job.id, kind: work.kind }, 'resuming a job whose worker stopped');
    const control = runControl(resumed, () => this.stopping);
    const toUser = echoing(
      (message: ServerMessageInput) => channel.sendToUser(userId, message),
      work.request_id,
    );
    const send: Send =
      work.notify === 'user'
        ? toUser
        : work.notify === 'caller'
          ? (message: ServerMessageInput) => void reply({ type: 'message', message: { ...message } })
          : () => {};
    let handedBack = false;
    try {
      // The screen may have asked for video before this worker took the job.
      const watched = await redis.get(userVideo(userId));
      if (watched) automation.watchSession(userId, watched);
      let done: Promise<void>;
      let runId: Promise<string | null> = Promise.resolve(null);
      if (work.kind === 'generate') {
        ({ done } = await automation.generate(actor, work.data, send));
        await reply({ type: 'started' });
      } else if (work.kind === 'run') {
        const started = await automation.run(actor, work.data, send, control);
        done = started.done;
        runId = started.runId;
        await reply({ type: 'started' });
        void started.runId.then(async (id) => {
          // Kept on the job: a worker that takes it up after this one died resumes this run.
          if (id && !work.data.test_run_id)
            await job.updateData({ ...work, data: { ...work.data, test_run_id: id } });
          await this.recorded(userId, entryId, id, reply);
        });
      } else {
        const started = await automation.runSavedSuite(actor, work.data, send, control);
        done = started.done;
        runId = Promise.resolve(work.data.test_run_id);
        await reply({ type: 'started' });
      }
      await done;
      const id = await runId;
      if (id && control.handedBackRuns.has(id) && token) {
        // Back to the queue at once, still the user's: another worker takes it and resumes the run.
        handedBack = true;
        await job.moveToDelayed(Date.now(), token);
        log.info({ jobId: job.id, runId: id }, 'a stopping worker handed its run back to the queue');
        throw new DelayedError();
      }
      await reply({ type: 'ended', error: null });
    } catch (error) {
      if (error instanceof DelayedError) throw error;
      const known = error instanceof AppError;
      if (!known) log.error({ err: error, jobId: job.id }, 'automation job failed');
      const failure = {
        code: known ? error.code : 'INTERNAL',
        message: known ? error.message : 'Internal server error',
      };
      // Refused after it waited its turn (a session not theirs, a quota): the screen that asked is told.
      if (work.notify === 'user') {
        toUser({
          type: 'error',
          session_id: 'session_id' in work.data ? (work.data.session_id ?? null) : null,
          data: {
            message: failure.message,
            code: ErrorCodeSchema.catch('INTERNAL').parse(failure.code),
            feature: 'automation',
          },
        });
      }
      await reply({ type: 'ended', error: failure });
    } finally {
      if (!handedBack) {
        await line.done(actor.orgId, String(job.id));
        await endUserWork(redis, { job_id: entryId, run_id: null }, userId);
      }
    }
  }

  /** The run's id, for the web process that queued it and for `activeRun` on every web process. */
  private async recorded(
    userId: string,
    entryId: string,
    runId: string | null,
    reply: (message: JobReply) => Promise<number>,
  ): Promise<void> {
    await reply({ type: 'run_id', run_id: runId });
    if (runId) await bindUserWork(this.deps.redis, userId, entryId, { run_id: runId });
  }

  async onControl(text: string): Promise<void> {
    const { automation, channel, redis } = this.deps;
    const parsed = WorkerControlSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return;
    const message = parsed.data;
    const userId = message.user_id;
    if (message.type === 'video') {
      automation.watchSession(userId, message.session_id);
      return;
    }
    // Only the worker holding the user's work answers.
    if (!automation.isBusy(userId)) return;
    if (message.type === 'stop' && message.run_id) {
      // The run API's cancel: that run only, wherever it goes.
      await automation.cancel(userId, message.run_id);
    } else if (message.type === 'stop') {
      await automation.stop(userId, (m) => channel.sendToUser(userId, m), message.session_id);
    } else {
      const snapshot = automation.inProgress(userId);
      if (snapshot) {
        await redis.publish(
          message.reply,
          JSON.stringify({ type: 'message', message: snapshot } satisfies JobReply),
        );
      }
    }
  }
}

/**
 * How a run on this worker is steered (automation/run-control.ts): resumed when its job was taken up
 * again after the worker that had it stopped; handed back, its cases left for another worker, once
 * this one is stopping. `handedBackRuns` holds the runs that ended so.
 */
function runControl(resume: boolean, stopping: () => boolean): RunControl & { handedBackRuns: Set<string> } {
  const handedBackRuns = new Set<string>();
  return {
    resume,
    handedBackRuns,
    handingBack: stopping,
    handedBack: (runId) => void handedBackRuns.add(runId),
    resumedNotice: (recorded, total) => ({
      progress: `Resumed after its worker stopped: ${recorded} of ${total} tests were already recorded`,
      note: `Resumed on another worker: ${recorded} of ${total} tests were already recorded and are not run again`,
    }),
    handedBackNotice: (recorded, total) => ({
      progress: `Handed to another worker: ${recorded} of ${total} tests recorded`,
      note: `Handed back to the queue by a stopping worker: ${recorded} of ${total} tests recorded`,
    }),
  };
}
