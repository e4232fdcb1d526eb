import { type Job, Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { UserChannel } from '../realtime/user-channel';

/**
 * One queue's work as a worker process does it (automation-worker.ts, comparison-worker.ts,
 * conversation-worker.ts): how a job is done, and how a control message about the work is answered.
 */
export interface QueueJobs {
  /** The BullMQ queue the jobs come from. */
  readonly queue: string;
  /** The pub/sub channel of web processes' requests about that work (stop, chat…). */
  readonly controlChannel: string;
  process(job: Job, token?: string): Promise<void>;
  /** A control message, as published; errors are logged. */
  onControl(text: string): Promise<void>;
  /**
   * Called once the queue takes no new job, while the jobs under way end: what this work does before
   * the worker stops (a run hands itself back, live browsers close). @default nothing
   */
  onStop?(): Promise<void> | void;
}

/** What each queue's work uses besides its service. */
export interface JobsDeps {
  /** The user's sockets, through Redis (RedisUserChannel, with its presence from presence.ts on a worker). */
  channel: UserChannel;
  /** Commands and publishing. */
  redis: Redis;
  log: FastifyBaseLogger;
}

export interface QueueWorkerOptions {
  /** Subscribed to the control channel (a connection in subscriber mode, shared by a worker's queues). */
  subscriber: Redis;
  /** BullMQ's own connection. */
  connection: Redis;
  /** Jobs at once. */
  concurrency: number;
  /**
   * How long a job's lock lasts without its worker renewing it (WORKER_LOCK_MS): a job whose worker
   * died is taken up again within about twice this. @default 30000
   */
  lockMs?: number;
  log: FastifyBaseLogger;
}

/**
 * What every queue of a worker process shares: a BullMQ Worker whose jobs are taken up again once after
 * their worker died (`maxStalledCount` 1: a job that kills its worker twice fails), the control channel
 * it listens on, and its start, pause and stop. compose/worker.ts builds one per queue.
 */
export class QueueWorker {
  private worker: Worker | null = null;
  /** Jobs this worker has taken (for tests and diagnostics). */
  taken = 0;

  constructor(
    private readonly jobs: QueueJobs,
    private readonly options: QueueWorkerOptions,
  ) {}

  async start(): Promise<void> {
    const { subscriber, log } = this.options;
    const { queue, controlChannel } = this.jobs;
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== controlChannel) return;
      this.jobs
        .onControl(text)
        .catch((error: unknown) => log.error({ err: error, channel }, 'a control message failed'));
    });
    await subscriber.subscribe(controlChannel);
    const lockMs = this.options.lockMs ?? 30_000;
    const process = (job: Job, token?: string) => {
      this.taken++;
      return this.jobs.process(job, token);
    };
    this.worker = new Worker(queue, process, {
      connection: this.options.connection,
      concurrency: this.options.concurrency,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      maxStalledCount: 1,
    });
    this.worker.on('error', (error) => log.error({ err: error, queue }, 'queue worker'));
  }

  /** Takes no new job until `resume`; the jobs under way go on. */
  async pause(): Promise<void> {
    await this.worker?.pause();
  }

  resume(): void {
    this.worker?.resume();
  }

  /** Takes no new job, lets the work do what it does on a stop (`onStop`), and resolves once the jobs under way have ended. */
  async stop(): Promise<void> {
    const closing = this.close();
    await this.jobs.onStop?.();
    await closing;
  }

  private async close(): Promise<void> {
    await this.worker?.close();
    await this.options.subscriber.unsubscribe(this.jobs.controlChannel).catch(() => {});
  }
}
