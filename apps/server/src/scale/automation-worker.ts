import type { ServerMessageInput } from '@argus/protocol';
import { DelayedError, type Job } from 'bullmq';
import type { AutomationService, RunControl } from '../automation/automation-service';
import { AppError } from '../errors';
import { echoing, type Send } from '../realtime/user-channel';
import { AutomationJobSchema, type JobReply, WorkerControlSchema } from './automation-jobs';
import type { JobsDeps, QueueJobs } from './queue-worker';
import {
  AUTOMATION_QUEUE,
  jobReplies,
  RELEASE_USER_KEY,
  userAutomation,
  userVideo,
  WORKER_CONTROL,
} from './redis-keys';

export interface AutomationWorkerDeps extends JobsDeps {
  automation: AutomationService;
}

/**
 * A worker process's side of the automation queue (docs/DEPLOYMENT.md#how-work-flows): takes jobs,
 * runs each through the same AutomationService one process uses, over this process's browsers, and
 * says what happens on the job's reply channel and the user's. It also answers the web processes'
 * control messages for the work it holds: stop, video, where it stands. A QueueWorker takes its jobs.
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

  async process(job: Job, token?: string): Promise<void> {
    const { automation, channel, redis, log } = this.deps;
    const reply = (message: JobReply) => redis.publish(jobReplies(String(job.id)), JSON.stringify(message));
    const parsed = AutomationJobSchema.safeParse(job.data);
    if (!parsed.success) {
      log.error({ jobId: job.id, issues: parsed.error.issues.slice(0, 5) }, 'an automation job was refused');
      await reply({ type: 'ended', error: { code: 'VALIDATION', message: 'The queued work was malformed' } });
      return;
    }
    const work = parsed.data;
    const userId = work.user_id;
    // Taken up again after the worker that had it stopped (BullMQ's stalled-job check): its run
    // resumes, keeping the cases recorded. A generation just starts over.
    const resumed = job.attemptsStarted > 1 || job.stalledCounter > 0;
    if (resumed) log.warn({ jobId: job.id, kind: work.kind }, 'resuming a job whose worker stopped');
    const control = runControl(resumed, () => this.stopping);
    const send: Send =
      work.notify === 'user'
        ? echoing((message: ServerMessageInput) => channel.sendToUser(userId, message), work.request_id)
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
        ({ done } = await automation.generate(userId, work.data, send));
        await reply({ type: 'started' });
      } else if (work.kind === 'run') {
        const started = await automation.run(userId, work.data, send, control);
        done = started.done;
        runId = started.runId;
        await reply({ type: 'started' });
        void started.runId.then(async (id) => {
          // Kept on the job: a worker that takes it up after this one died resumes this run.
          if (id && !work.data.test_run_id)
            await job.updateData({ ...work, data: { ...work.data, test_run_id: id } });
          await this.recorded(userId, String(job.id), id, reply);
        });
      } else {
        const started = await automation.runSavedSuite(userId, work.data, send, control);
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
      await reply({
        type: 'ended',
        error: {
          code: known ? error.code : 'INTERNAL',
          message: known ? error.message : 'Internal server error',
        },
      });
    } finally {
      if (!handedBack) await redis.eval(RELEASE_USER_KEY, 1, userAutomation(userId), String(job.id));
    }
  }

  /** The run's id, for the web process that queued it and for `activeRun` on every web process. */
  private async recorded(
    userId: string,
    jobId: string,
    runId: string | null,
    reply: (message: JobReply) => Promise<number>,
  ): Promise<void> {
    await reply({ type: 'run_id', run_id: runId });
    if (runId) await this.deps.redis.eval(SET_RUN_SCRIPT, 1, userAutomation(userId), jobId, runId);
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
    if (message.type === 'stop') {
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

/** Writes the run id into the user's key, if it still names this job. */
const SET_RUN_SCRIPT = `
local value = redis.call('GET', KEYS[1])
if not value or not string.find(value, ARGV[1], 1, true) then return 0 end
local entry = cjson.decode(value)
entry['run_id'] = ARGV[2]
redis.call('SET', KEYS[1], cjson.encode(entry), 'KEEPTTL')
return 1`;
