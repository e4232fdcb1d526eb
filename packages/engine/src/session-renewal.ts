import type { Step } from '@argus/protocol';
import { type BrowserSession, type ExchangeWatch, type PageActivity, PageLeftError } from './browser-session';
import { AbortedError, cleanError } from './errors';
import { isWebPage } from './web-url';

/** How a signed-in run notices an expired session and signs in again (see `SignedInSessions.renewal`). */
export interface SessionRenewal {
  /** Whether the session now shows the sign-in page (its address, or the form the run signed in with). */
  isSignInPage(session: BrowserSession): Promise<boolean>;
  /** Signs in again in this session (and keeps the new sign-in for the run's later tests). Throws on failure. */
  signInAgain(session: BrowserSession, signal?: AbortSignal): Promise<void>;
  /**
   * Whether an address is the sign-in page's: a fetch redirected there met an expired session, and a
   * step that navigates there goes on purpose. Without it, only the page showing the sign-in page or
   * an answer of 401 or 403 tells.
   */
  isSignInUrl?(url: string): boolean;
}

/** How a step met an expired session, in words for the log. */
export interface ExpirySign {
  reason: string;
  /**
   * Only a 403: also what an app answers a signed-in user who may not do something. Met again just
   * after signing in, it is the app's answer, not an expiry.
   */
  forbiddenOnly: boolean;
}

/** Steps that leave the page as it was: never done again to rebuild the point before a step. */
function passive(step: Step): boolean {
  return step.verb.startsWith('verify') || step.verb === 'wait' || step.verb === 'screenshot';
}

/** How long a step's own requests (a fetch its click sent) may take to be answered before it is judged. */
export const ANSWER_WAIT_MS = 1_500;

/** A step that signs out on purpose lands on the sign-in page: that is not an expired session. */
export function signsOut(line: string): boolean {
  return /\b(log|sign)\s?(out|off)\b/i.test(line);
}

function pathOf(url: string): string {
  try {
    const { pathname, search } = new URL(url);
    return `${pathname}${search}`;
  } catch {
    return url;
  }
}

/**
 * Whether what the page exchanged during a step says the session expired: an answer of 401 or 403 to
 * the page's own request (a fetch, an XHR, a form post), or such a request redirected to the sign-in
 * page. Null when nothing says so.
 */
export function expirySign(
  activity: PageActivity,
  isSignInUrl?: (url: string) => boolean,
): ExpirySign | null {
  const refused = activity.exchanges.filter((e) => e.status === 401 || e.status === 403);
  const sent = activity.exchanges.find((e) => e.redirectedFrom !== null && isSignInUrl?.(e.url));
  if (sent) {
    return {
      reason: `${sent.method} ${pathOf(sent.redirectedFrom ?? '')} was sent to the sign-in page`,
      forbiddenOnly: false,
    };
  }
  if (refused.length === 0) return null;
  const first = refused.find((e) => e.status === 401) ?? refused[0];
  return {
    reason: `${first.method} ${pathOf(first.url)} was answered ${first.status}`,
    forbiddenOnly: refused.every((e) => e.status === 403),
  };
}

/** What a step did, as the point before a later step is rebuilt from it. */
interface DoneStep {
  index: number;
  step: Step;
  line: string;
}

export interface RenewingOptions {
  signal?: AbortSignal;
  /** When the test runs out of time (ms since the epoch). */
  deadline: number;
  stepTimeoutMs: number;
  log: (level: 'info' | 'warn', message: string) => void;
}

/**
 * Performs a signed-in test's steps so that an expired session met mid-step is survived: when a
 * step's action meets the sign-in page (the page lands on it, or one of the page's own requests is
 * answered 401/403 or sent there), the test signs in again, goes back to the point before the step
 * (the page the step was on, loaded afresh, with the steps done on it since it loaded that asked the
 * server nothing: filling fields, opening a dialog) and does the step again, once. What the step was
 * to make is then checked by the test's own later steps, as always. A step that meets the sign-in page
 * again while it is redone fails the test.
 */
export class RenewingSteps {
  private readonly watch: ExchangeWatch;
  /** The page's document now: where it was loaded from and the steps since that can be done again. */
  private page: { url: string; steps: DoneStep[] } = { url: 'about:blank', steps: [] };
  /** The page showed the sign-in page after the last step: landing there again is no news. */
  private onSignIn = false;
  /** The test signed out on purpose: what follows is about a signed-out visitor. */
  private signedOut = false;

  constructor(
    private readonly session: BrowserSession,
    private readonly renewal: SessionRenewal,
    private readonly options: RenewingOptions,
  ) {
    this.watch = session.watchExchanges();
  }

  private left(): number {
    return Math.max(1, this.options.deadline - Date.now());
  }

  private stepTime(): number {
    return Math.max(1, Math.min(this.options.stepTimeoutMs, this.left()));
  }

  /** Performs step `index` (its line `line`); answers the selector it used, as `BrowserSession.perform`. */
  async perform(step: Step, index: number, line: string): Promise<string | null> {
    // A new document loaded by something else (a free-form step of the interpreter) is the page now.
    if (this.watch.take().newDocument) this.page = { url: this.session.url, steps: [] };
    if (this.signedOut) return this.session.perform(step, { timeoutMs: this.stepTime() });
    const first = await this.attempt(step);
    if (signsOut(line) || this.goesToSignIn(step)) {
      this.signedOut ||= signsOut(line);
      this.onSignIn = await this.renewal.isSignInPage(this.session).catch(() => false);
      this.remember(step, index, line, first.activity);
      return first.done();
    }
    const met = await this.met(first.activity);
    if (!met) {
      this.remember(step, index, line, first.activity);
      return first.done();
    }
    return this.redo(step, index, line, met);
  }

  /** Stops watching the page (the session may go on). */
  stop(): void {
    this.watch.stop();
  }

  /** The step once, its failure kept (not thrown) so that an expiry behind it can be told first. */
  private async attempt(step: Step): Promise<{ activity: PageActivity; done: () => string | null }> {
    let selector: string | null = null;
    let failure: unknown = null;
    try {
      selector = await this.session.perform(step, { timeoutMs: this.stepTime() });
    } catch (error) {
      if (error instanceof AbortedError || error instanceof PageLeftError) throw error;
      failure = error;
    }
    await this.watch.settle(Math.min(ANSWER_WAIT_MS, this.left()), this.options.signal);
    const activity = this.watch.take();
    return {
      activity,
      done: () => {
        if (failure !== null) throw failure;
        return selector;
      },
    };
  }

  /** Whether the step met the sign-in page: how, or null. */
  private async met(activity: PageActivity): Promise<ExpirySign | null> {
    const wasOnSignIn = this.onSignIn;
    this.onSignIn = await this.renewal.isSignInPage(this.session).catch(() => false);
    // What the page's requests say is the more telling reason: it names the request that met it.
    const sign = expirySign(activity, this.renewal.isSignInUrl?.bind(this.renewal));
    if (sign) return sign;
    return this.onSignIn && !wasOnSignIn
      ? { reason: 'the app showed its sign-in page', forbiddenOnly: false }
      : null;
  }

  /** A step that opens the sign-in page by its address goes there on purpose. */
  private goesToSignIn(step: Step): boolean {
    if (step.verb !== 'navigate' || !this.renewal.isSignInUrl) return false;
    try {
      return this.renewal.isSignInUrl(
        new URL(step.url, isWebPage(this.session.url) ? this.session.url : undefined).href,
      );
    } catch {
      return false;
    }
  }

  private remember(step: Step, index: number, line: string, activity: PageActivity): void {
    if (activity.newDocument) {
      this.page = { url: this.session.url, steps: [] };
      return;
    }
    // A step that asked the server to change something is kept by the server: doing it again would
    // do it twice. Checks read only; a pause or a screenshot changes nothing.
    if (!activity.changedServer && !passive(step)) this.page.steps.push({ index, step, line });
  }

  /** Signs in again, rebuilds the point before the step and does it once more. */
  private async redo(step: Step, index: number, line: string, met: ExpirySign): Promise<string | null> {
    const n = index + 1;
    const { session, renewal } = this;
    try {
      await renewal.signInAgain(session, this.options.signal);
    } catch (error) {
      if (error instanceof AbortedError) throw error;
      throw new Error(
        `The session expired during step ${n} (${met.reason}), and signing in again failed: ${cleanError(error)}`,
      );
    }
    const again = (how: string) =>
      new Error(`Signed out again while redoing step ${n} (${line}) after signing in again: ${how}`);
    // A navigation is its own point before: it loads its page afresh whatever was shown.
    const opens = step.verb === 'navigate';
    const from = opens ? { url: session.url, steps: [] } : this.page;
    if (!opens && isWebPage(from.url)) {
      await session.navigate(from.url, { signal: this.options.signal, timeoutMs: this.left() });
    }
    this.watch.take();
    this.onSignIn = false;
    for (const done of from.steps) {
      if (await renewal.isSignInPage(session).catch(() => false))
        throw again('the app showed its sign-in page');
      try {
        await session.perform(done.step, { timeoutMs: this.stepTime() });
      } catch (error) {
        if (error instanceof AbortedError || error instanceof PageLeftError) throw error;
        throw new Error(
          `Signed in again after the session expired during step ${n}, but step ${done.index + 1} (${done.line}) could not be done again: ${cleanError(error)}`,
        );
      }
    }
    this.watch.take();
    const second = await this.attempt(step);
    const metAgain = await this.met(second.activity);
    if (metAgain && !(metAgain.forbiddenOnly && met.forbiddenOnly)) throw again(metAgain.reason);
    const replayed = from.steps.length
      ? `, after doing step ${from.steps.map((s) => s.index + 1).join(', ')} again`
      : '';
    const where = opens ? '' : `; redone from ${from.url}${replayed}`;
    this.options.log(
      'warn',
      `Session expired during step ${n}; signed in again and redid it (${met.reason}${where})`,
    );
    if (metAgain) {
      this.options.log(
        'info',
        `Step ${n}: ${metAgain.reason} again once signed in: the app's answer, not an expired session`,
      );
    }
    this.page = from;
    this.remember(step, index, line, second.activity);
    return second.done();
  }
}
