import type { ServerMessageInput } from '@argus/protocol';
import type { AutomationService } from './automation-service';

type Awaitable<T> = T | Promise<T>;

/**
 * What routes, socket handlers and the scheduler ask of automation. One process answers with its own
 * `AutomationService`; with REDIS_URL a web process answers with `QueuedAutomation`
 * (scale/queued-automation.ts), which queues the work for worker processes and asks them where it
 * stands (docs/DEPLOYMENT.md#how-work-flows). The questions may therefore be answered later.
 */
export interface AutomationFront {
  generate: AutomationService['generate'];
  run: AutomationService['run'];
  runSavedSuite: AutomationService['runSavedSuite'];
  stop: AutomationService['stop'];
  isBusy(userId: string): Awaitable<boolean>;
  /** The session of the work under way: undefined when nothing is, null when it names none. */
  activeSession(userId: string): Awaitable<string | null | undefined>;
  /** The test run the user's run under way records into, if one does. */
  activeRun(userId: string): Awaitable<string | undefined>;
  /**
   * How many start before the run recorded as `runId` while it waits its turn (the run API's
   * `queue_position`); null when it does not wait (started, over, or not known here).
   */
  queuePlace(runId: string): Awaitable<number | null>;
  /**
   * The run API's cancel: `left` when the run waited its turn (it never starts; recorded stopped),
   * `stopping` when it was going and is asked to stop, null when it is neither here.
   */
  cancel(userId: string, runId: string): Promise<'left' | 'stopping' | null>;
  /** For a socket that connects while something is under way: where it stands, or null. */
  inProgress(userId: string): Awaitable<ServerMessageInput | null>;
  /** `automation_video`: the frames of the user's run go to their sockets watching `sessionId`, or stop. */
  watchSession(userId: string, sessionId: string | null): Awaitable<void>;
  shutdown(): Promise<void>;
}
