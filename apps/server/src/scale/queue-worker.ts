import { type Job, Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

export interface QueueWorkerOptions {
  /** The BullMQ queue it takes jobs from. */
  queue: string;
  /** The pub/sub channel of web processes' requests about that work (stop, chat…). */
  control: string;
  process: (job: Job, token?: string) => Promise<void>;
  /** A control message, as published; errors are logged. */
  onControl: (text: string) => Promise<void>;
  /** Subscribed to `control` (a connection in subscriber mode, shared by a worker's queues). */
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
 * What every queue of a worker process shares (scale/automation-worker.ts, comparison-worker.ts,
 * conversation-worker.ts): a BullMQ Worker whose jobs are taken up again once after their worker died
 * (`maxStalledCount` 1: a job that kills its worker twice fails), and the control channel it listens on.
 */
export class QueueWorker {
  private worker: Worker | null = null;

  constructor(private readonly options: QueueWorkerOptions) {}

  async start(): Promise<void> {
    const { subscriber, control, log } = this.options;
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== control) return;
      this.options
        .onControl(text)
        .catch((error: unknown) => log.error({ err: error, channel }, 'a control message failed'));
    });
    await subscriber.subscribe(control);
    const lockMs = this.options.lockMs ?? 30_000;
    this.worker = new Worker(this.options.queue, (job, token) => this.options.process(job, token), {
      connection: this.options.connection,
      concurrency: this.options.concurrency,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      maxStalledCount: 1,
    });
    this.worker.on('error', (error) => log.error({ err: error, queue: this.options.queue }, 'queue worker'));
  }

  /** Takes no new job until `resume`; the jobs under way go on. */
  async pause(): Promise<void> {
    await this.worker?.pause();
  }

  resume(): void {
    this.worker?.resume();
  }

  /** Takes no new job and resolves once the jobs under way have ended. */
  async stop(): Promise<void> {
    await this.worker?.close();
    await this.options.subscriber.unsubscribe(this.options.control).catch(() => {});
  }
}
