import type { SessionOpener } from './browser-pool';
import type { BrowserSession, StorageState } from './browser-session';
import { AbortedError } from './errors';
import {
  isSignInAddress,
  onSignInPage,
  SignInError,
  type SignInOptions,
  type SignInPlan,
  signIn,
  signInHere,
  signInPageOf,
} from './sign-in';
import { type SignInAccount, signInAccounts } from './sign-in-accounts';
import type { SessionRenewal } from './test-runner';

/** A lane's sign-in, as the run log tells it: which lane, which account, how long it took. */
export interface LaneSignIn {
  /** 1-based, as a user reads it. */
  lane: number;
  /** The account's number in the pool, or null for the login's plain variables. */
  account: number | null;
  ms: number;
}

export interface SignInLanesOptions extends SignInOptions {
  /** Lanes at most (a run's browsers); a session asked for beyond them waits for a lane to be free. @default Infinity */
  maxLanes?: number;
  /** Each lane's sign-in, once done (the cost of a session per lane, for the run log). */
  onSignedIn?: (signIn: LaneSignIn) => void;
  /** A lane beyond the first could not sign in: its sessions wait for the lanes that did. */
  onLaneFailed?: (lane: number, error: SignInError) => void;
}

interface Lane {
  index: number;
  account: SignInAccount;
  state: StorageState;
  /** The sign-in form the lane signed in with (`onSignInPage`). */
  form: string | null;
  busy: boolean;
}

/**
 * A run's signed-in browsers, one lane per session open at the same time
 * (docs/PROJECTS.md#sites-behind-a-login). Each lane signs in on its own, so it has a server session
 * (and with an account pool, an account) of its own; a session opened through this takes a free lane,
 * starts from that lane's storage state, and gives the lane back when it closes. Sessions open at once
 * never share a server session: whatever the app keeps in it (flash messages, a CSRF token, a cart, a
 * wizard's step) is the case's own, and the cases of one lane run one after another. Lanes are signed
 * in as they are first needed; `start()` signs in the first, so a wrong password fails before any case.
 */
export class SignInLanes implements SessionOpener {
  /** The accounts lanes take in turn (`signInAccounts`). */
  readonly accounts: SignInAccount[];
  private readonly lanes: Lane[] = [];
  private readonly waiting: (() => void)[] = [];
  private readonly laneOf = new WeakMap<BrowserSession, Lane>();
  private readonly page: URL | null;
  /** Lanes being signed in, counted toward `maxLanes`. */
  private growing = 0;
  /** A lane beyond the first failed to sign in: no more are tried, sessions wait for the lanes there are. */
  private stopGrowing = false;

  constructor(
    private readonly pool: SessionOpener,
    private readonly plan: SignInPlan | null,
    private readonly options: SignInLanesOptions,
  ) {
    this.accounts = signInAccounts(plan, options.variables);
    this.page = plan ? signInPageOf(plan, options.baseUrl) : null;
  }

  /** Signs the first lane in (nothing to do without a login). Throws SignInError. */
  async start(): Promise<void> {
    if (!this.plan || this.lanes.length > 0) return;
    const lane = await this.signInLane(0);
    lane.busy = false;
    this.lanes.push(lane);
  }

  /** Lanes signed in so far. */
  get laneCount(): number {
    return this.lanes.length;
  }

  openSession(options: Parameters<SessionOpener['openSession']>[0] = {}): Promise<BrowserSession> {
    const base = {
      ...options,
      // A mobile project's sessions are phones, the explorer's too (it names no viewport of its own).
      viewport: options.viewport ?? this.options.viewport,
    };
    if (!this.plan)
      return this.pool.openSession({ ...base, variables: options.variables ?? this.options.variables });
    return this.openInLane(base);
  }

  private async openInLane(
    options: Parameters<SessionOpener['openSession']>[0] = {},
  ): Promise<BrowserSession> {
    const lane = await this.take(options.signal);
    let session: BrowserSession;
    try {
      session = await this.pool.openSession({
        ...options,
        storageState: lane.state,
        variables: lane.account.variables,
        onClose: (reason) => {
          this.give(lane);
          options.onClose?.(reason);
        },
      });
    } catch (error) {
      this.give(lane);
      throw error;
    }
    this.laneOf.set(session, lane);
    return session;
  }

  /** For the test runner: signed out mid-case, the session's lane signs in again (undefined without a login). */
  get renewal(): SessionRenewal | undefined {
    const plan = this.plan;
    if (!plan) return undefined;
    return {
      isSignInPage: (session) => onSignInPage(session, this.page, this.laneOf.get(session)?.form ?? null),
      isSignInUrl: (url) => isSignInAddress(url, this.page),
      signInAgain: async (session, signal) => {
        const lane = this.laneOf.get(session);
        const form = await signInHere(session, plan, {
          ...this.options,
          variables: lane?.account.variables ?? this.options.variables,
          signal: signal ?? this.options.signal,
        });
        if (!lane) return;
        // The lane's next cases start from the new sign-in, not the expired one.
        lane.form = form ?? lane.form;
        lane.state = await session.storageState();
      },
    };
  }

  /** A free lane, marked busy: one signed in before, a new one while `maxLanes` allows, else the next freed. */
  private async take(signal: AbortSignal | undefined): Promise<Lane> {
    for (;;) {
      if (signal?.aborted) throw new AbortedError();
      const free = this.lanes.find((l) => !l.busy);
      if (free) {
        free.busy = true;
        return free;
      }
      const max = this.options.maxLanes ?? Number.POSITIVE_INFINITY;
      if (!this.stopGrowing && this.lanes.length + this.growing < max) {
        const lane = await this.grow(signal);
        if (lane) return lane;
        continue;
      }
      await this.freed(signal);
    }
  }

  /** A new lane, signed in and busy; null when it could not sign in (and a lane exists to wait for). */
  private async grow(signal: AbortSignal | undefined): Promise<Lane | null> {
    const index = this.lanes.length + this.growing;
    this.growing++;
    try {
      const lane = await this.signInLane(index, signal);
      this.lanes.push(lane);
      return lane;
    } catch (error) {
      // The first lane's failure is the run's (a wrong password); a later one's is a lane fewer.
      if (!(error instanceof SignInError) || this.lanes.length === 0) throw error;
      this.stopGrowing = true;
      this.options.onLaneFailed?.(index + 1, error);
      return null;
    } finally {
      this.growing--;
      this.wake();
    }
  }

  private async signInLane(index: number, signal?: AbortSignal): Promise<Lane> {
    const account = this.accounts[index % this.accounts.length];
    const started = performance.now();
    const { state, form } = await signIn(this.pool, this.plan as SignInPlan, {
      ...this.options,
      variables: account.variables,
      signal: signal ?? this.options.signal,
    });
    this.options.onSignedIn?.({
      lane: index + 1,
      account: account.number,
      ms: Math.round(performance.now() - started),
    });
    return { index, account, state, form, busy: true };
  }

  private give(lane: Lane): void {
    if (!lane.busy) return;
    lane.busy = false;
    this.wake();
  }

  private wake(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  private freed(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(new AbortedError());
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }
}
