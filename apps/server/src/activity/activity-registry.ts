import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../errors';
import type { BrowserBudget } from '../limits/quotas';

/** The capabilities whose work runs on the server, holds browsers, and is followed by a user's tabs. */
export type WorkFeature = 'automation' | 'conversational' | 'design';

/**
 * One piece of work under way for a user: a generation, a test run, and later a live browser or a
 * design comparison. `progress` is the feature's own record of where it stands, kept so that a tab
 * that connects while it goes on can be told (automation: `automation_in_progress`).
 */
export interface Activity<P = unknown, K extends string = string> {
  readonly userId: string;
  readonly feature: WorkFeature;
  /** What the work is, in the feature's words (automation: 'generating' or 'running'). */
  readonly kind: K;
  /** The session the work belongs to; null when the client named none. */
  readonly sessionId: string | null;
  /** Fires when the work is stopped (the user, a clean-up, a shutdown). */
  readonly signal: AbortSignal;
  readonly startedAt: number;
  /** Browser contexts it holds of the user's MAX_BROWSERS_PER_USER (at least one). */
  readonly browsers: number;
  readonly progress: P;
  /** Settles when the work is over; never rejects (a failure is logged). */
  readonly done: Promise<void>;
}

export interface BeginOptions<P, K extends string> {
  userId: string;
  feature: WorkFeature;
  kind: K;
  sessionId: string | null;
  /** Browser contexts the work would like; it gets what the user has free, at least one, or is refused. */
  browsers: number;
  progress: P;
  /**
   * Browsers granted already, by a line the work waited in (run-lines/run-line.ts): used instead of
   * the user's budget, and released when the work is over. Automation's runs and generations come so.
   */
  lease?: { readonly browsers: number; release(): void };
  /**
   * Whether the new work may run beside `existing` work of the same user: the refusal to throw, or
   * null. A design comparison refuses beside another of the user's.
   */
  conflict?: (existing: Activity) => Error | null;
}

interface Entry extends Activity {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * What is under way, per user: work begins here (taking its browsers from the user's budget, refused
 * with what holds them when they are all busy or when it conflicts with work already under way, or
 * with browsers a line granted it already), is found here by the
 * user's other tabs and by stop and clean-up requests, and leaves when it is over. Shared by every
 * capability that runs work on the server.
 */
export class ActivityRegistry {
  private readonly byUser = new Map<string, Set<Entry>>();

  constructor(
    private readonly deps: {
      /** MAX_BROWSERS_PER_USER, one budget for every capability. */
      browsers: BrowserBudget;
      log: FastifyBaseLogger;
    },
  ) {}

  /** The user's work under way, oldest first; narrowed to one feature and/or one session. */
  list(userId: string, filter: { feature?: WorkFeature; sessionId?: string | null } = {}): Activity[] {
    const entries = [...(this.byUser.get(userId) ?? [])];
    return entries.filter(
      (entry) =>
        (filter.feature === undefined || entry.feature === filter.feature) &&
        (filter.sessionId === undefined || entry.sessionId === filter.sessionId),
    );
  }

  /** The user's (first) work of one feature under way, if any. */
  find<P = unknown, K extends string = string>(
    userId: string,
    feature: WorkFeature,
  ): Activity<P, K> | undefined {
    return this.list(userId, { feature })[0] as Activity<P, K> | undefined;
  }

  /**
   * Starts work synchronously, so two starts cannot both pass the checks: its browsers are taken
   * first (BROWSER_LIMIT_REACHED when none is free), then every piece of the user's work under way is
   * offered to `conflict`. Returns at once; `work` runs in the background until `done` settles.
   */
  begin<P, K extends string>(
    options: BeginOptions<P, K>,
    work: (activity: Activity<P, K>) => Promise<void>,
  ): Activity<P, K> {
    const { userId } = options;
    const lease = options.lease
      ? { count: options.lease.browsers, release: () => options.lease?.release() }
      : this.takeBrowsers(userId, options.browsers);
    for (const existing of this.byUser.get(userId) ?? []) {
      const refusal = options.conflict?.(existing);
      if (refusal) {
        lease.release();
        throw refusal;
      }
    }
    const controller = new AbortController();
    const entry: Entry = {
      userId,
      feature: options.feature,
      kind: options.kind,
      sessionId: options.sessionId,
      signal: controller.signal,
      startedAt: Date.now(),
      browsers: lease.count,
      progress: options.progress,
      controller,
      done: Promise.resolve(),
    };
    let set = this.byUser.get(userId);
    if (!set) {
      set = new Set();
      this.byUser.set(userId, set);
    }
    set.add(entry);
    const activity = entry as unknown as Activity<P, K>;
    entry.done = work(activity)
      .catch((error) => {
        this.deps.log.error({ err: error, feature: entry.feature, kind: entry.kind }, 'work failed');
      })
      .finally(() => {
        lease.release();
        const owned = this.byUser.get(userId);
        owned?.delete(entry);
        if (owned?.size === 0) this.byUser.delete(userId);
      });
    return activity;
  }

  /**
   * Browsers from the user's budget, or BROWSER_LIMIT_REACHED saying which of the user's work holds
   * them (feature and session), so they know where to stop it instead of waiting blind.
   */
  private takeBrowsers(userId: string, wanted: number): { count: number; release: () => void } {
    try {
      return this.deps.browsers.take(userId, wanted);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'BROWSER_LIMIT_REACHED') throw error;
      const holders = this.list(userId).map(describeHolder);
      if (holders.length === 0) throw error;
      throw new AppError(
        'BROWSER_LIMIT_REACHED',
        `${error.message} Held by ${holders.join('; ')}: stop it there (its tab's Stop button), or wait for it to end.`,
      );
    }
  }

  /** Stops one piece of work: its signal fires; resolves when it is over. */
  async stop(activity: Activity): Promise<void> {
    (activity as Entry).controller.abort();
    await activity.done;
  }

  /** Server shutdown: stops everything (of one feature, or all); resolves with what was stopped once it is over. */
  async shutdown(feature?: WorkFeature): Promise<Activity[]> {
    const stopping = [...this.byUser.values()].flatMap((set) =>
      [...set].filter((entry) => feature === undefined || entry.feature === feature),
    );
    for (const entry of stopping) entry.controller.abort();
    await Promise.all(stopping.map((entry) => entry.done));
    return stopping;
  }
}

/** What holds a user's browsers, in their words: "a live browser (session 3f2a…)". */
function describeHolder(activity: Activity): string {
  const what =
    activity.feature === 'conversational'
      ? 'a live browser on the Conversational screen'
      : activity.feature === 'design'
        ? 'a design comparison'
        : activity.kind === 'generating'
          ? 'a generation on the Automation screen'
          : 'a test run on the Automation screen';
  const browsers = `${activity.browsers} browser${activity.browsers === 1 ? '' : 's'}`;
  return `${what} (${browsers}${activity.sessionId ? `, session ${activity.sessionId}` : ''})`;
}
