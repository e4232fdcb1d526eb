import type { ServerMessageInput } from '@argus/protocol';
import type { ActivityRegistry } from '../activity/activity-registry';
import type { RunLine, Ticket } from '../run-lines/run-line';
import type { Actor, AutomationActivity, AutomationKind } from './automation-deps';
import type { AutomationMessages } from './automation-messages';
import { AutomationProgress, type AutomationWork } from './automation-progress';

/** A run or generation waiting its turn in the line. */
export interface WaitingWork {
  readonly userId: string;
  readonly orgId: string;
  readonly kind: AutomationKind;
  readonly sessionId: string | null;
  /** The run's row, when it has one already (a saved suite's run): how the run API finds it. */
  readonly runId: string | null;
  readonly ticket: Ticket;
}

export interface TurnRequest {
  kind: AutomationKind;
  work: AutomationWork;
  /** Browsers it would like (it starts with what is free then, at least one). */
  browsers: number;
  runId?: string | null;
  say: AutomationMessages;
}

/**
 * Automation work's way to its start: into the line (run-lines/run-line.ts) for its organization,
 * told its place (`automation_queued`) while it waits, then begun in the activity registry with the
 * browsers its turn granted. Nothing is refused for being busy; work may leave the line (a stop, a
 * cancel), and then it never starts.
 */
export class WorkTurns {
  private readonly waiting = new Set<WaitingWork>();

  constructor(private readonly deps: { line: RunLine; activities: ActivityRegistry }) {}

  /** Enters the line; `done` settles when the work is over, or when it left the line before its turn. */
  take(
    actor: Actor,
    request: TurnRequest,
    body: (activity: AutomationActivity) => Promise<void>,
  ): { done: Promise<void> } {
    const { kind, work, say } = request;
    const runId = request.runId ?? null;
    const ticket = this.deps.line.enter({
      orgId: actor.orgId,
      browsers: request.browsers,
      key: runId ?? undefined,
      onPlace: (ahead) => say.queued(kind, ahead, runId),
    });
    const waiting: WaitingWork = {
      userId: actor.userId,
      orgId: actor.orgId,
      kind,
      sessionId: work.session_id,
      runId,
      ticket,
    };
    this.waiting.add(waiting);
    const done = ticket.admitted.then(
      (lease) => {
        this.waiting.delete(waiting);
        try {
          const activity = this.deps.activities.begin(
            {
              userId: actor.userId,
              feature: 'automation',
              kind,
              sessionId: work.session_id,
              browsers: lease.browsers,
              lease,
              progress: progressOf(work, runId),
            },
            body,
          );
          return activity.done;
        } catch (error) {
          lease.release();
          throw error;
        }
      },
      () => {
        this.waiting.delete(waiting);
      },
    );
    return { done };
  }

  /** The user's work waiting, oldest first; narrowed to one session when it is named. */
  waitingOf(userId: string, sessionId?: string | null): WaitingWork[] {
    return [...this.waiting].filter(
      (w) => w.userId === userId && (sessionId === undefined || w.sessionId === sessionId),
    );
  }

  /** The waiting run whose row is `runId`, if it waits. */
  waitingRun(runId: string): WaitingWork | undefined {
    return [...this.waiting].find((w) => w.runId === runId);
  }

  /** How many start before the run whose row is `runId`, or null when it does not wait here. */
  placeOfRun(runId: string): number | null {
    return this.deps.line.placeOfKey(runId);
  }

  /** For a socket that connects while the user's work only waits: its place, or null. */
  queuedMessage(userId: string): ServerMessageInput | null {
    const first = this.waitingOf(userId)[0];
    const ahead = first?.ticket.place();
    if (!first || ahead === null || ahead === undefined) return null;
    return {
      type: 'automation_queued',
      session_id: first.sessionId,
      data: { kind: first.kind, ahead, test_run_id: first.runId },
    };
  }

  /** Takes every waiting piece of work out of the line (a shutdown); answers what left. */
  leaveAll(): WaitingWork[] {
    const left = [...this.waiting].filter((w) => w.ticket.leave());
    return left;
  }
}

/** The work's progress, naming its run's row from the start when it has one (a cancel finds it at once). */
function progressOf(work: AutomationWork, runId: string | null): AutomationProgress {
  const progress = new AutomationProgress(work);
  if (runId) progress.runId = runId;
  return progress;
}
