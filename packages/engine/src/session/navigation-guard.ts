import type { Page } from 'playwright-core';
import { AbortedError } from '../errors';
import type { PageTracker } from '../page-tracker';
import { isWebPage, SchemeRefusedError } from '../web-url';
import type { CapturesInFlight } from './captures';
import type { SessionLifecycle } from './lifecycle';
import type { OperationOptions } from './options';
import { race } from './race';

/** The page left the web (a link or script took it to `file:` or `view-source:`): it was left for about:blank. */
export class PageLeftError extends SchemeRefusedError {
  /** The selector the step used before the page went, if any. */
  selector: string | null = null;
}

/**
 * Keeps the session's page on the web. The target policy stops a navigation to another scheme before it
 * starts (see `navigate.ts`) and the policy proxy judges every request; still, a link, a script or a
 * redirect the proxy did not see can take the page to `file:` or `view-source:`. So, after anything
 * that may move the page and before anything reads or photographs it, a page that is not a web page is
 * sent to about:blank and the operation fails with the policy's message (docs/ARCHITECTURE.md).
 */
export class NavigationGuard {
  /** How many times a page that left the web was sent to about:blank, and the last URL it showed. */
  private left = { count: 0, url: '' };

  constructor(
    private readonly page: Page,
    private readonly tracker: PageTracker,
    private readonly captures: CapturesInFlight,
    private readonly lifecycle: SessionLifecycle,
  ) {}

  /**
   * An operation that may move the page: raced against its timeout; afterwards, whatever happened, a
   * page that is not a web page is left for about:blank and the operation fails with the policy's
   * message (so does an operation during which a screenshot found the page gone from the web); a
   * crashed page fails it with 'The page crashed'. `work` gets the count of departures it started at.
   */
  changing<T>(
    options: OperationOptions,
    timeoutMs: number,
    timeoutMessage: string,
    work: (signal: AbortSignal, since: number) => Promise<T>,
  ): Promise<T> {
    return this.lifecycle.operation(options, async (signal) => {
      const since = this.left.count;
      let result: T | undefined;
      let failure: unknown = null;
      try {
        result = await race(work(signal, since), timeoutMs, timeoutMessage, signal);
      } catch (error) {
        failure = error;
      }
      if (!(failure instanceof AbortedError && this.lifecycle.stopped)) {
        const left = await this.leaveNonWebPage();
        if (left) throw new PageLeftError(left);
        if (this.left.count !== since) throw new PageLeftError(this.left.url);
        if (this.tracker.crashed) throw new Error('The page crashed');
      }
      if (failure) throw failure;
      return result as T;
    });
  }

  /** An operation that reads the page: refused on a page off the web, raced against its timeout. */
  reading<T>(
    options: { signal?: AbortSignal },
    timeoutMs: number,
    timeoutMessage: string,
    work: () => Promise<T>,
  ): Promise<T> {
    return this.lifecycle.operation(options, async (signal) => {
      await this.refuseNonWebPage();
      return race(work(), timeoutMs, timeoutMessage, signal);
    });
  }

  /**
   * Before anything changes the page: the screenshots asked for are taken first; if one of them found
   * the page gone from the web since the operation began, the operation changes nothing and fails.
   */
  async beforeChange(since: number): Promise<void> {
    await this.captures.settle();
    if (this.left.count !== since) throw new PageLeftError(this.left.url);
  }

  /** Fails on a page off the web (leaving it first) or a crashed one. */
  async refuseNonWebPage(): Promise<void> {
    const left = await this.leaveNonWebPage();
    if (left) throw new PageLeftError(left);
    if (this.tracker.crashed) throw new Error('The page crashed');
  }

  /**
   * After a picture was taken: the page may have gone somewhere that is not a web page (a script, a
   * late navigation) meanwhile, and the picture may show it; then it is thrown away, by failing.
   */
  async refuseIfLeft(): Promise<void> {
    if (!isWebPage(this.page.url())) throw new PageLeftError(await this.leave());
  }

  /**
   * Whatever led there (a link, a script, a redirect the proxy did not see), a page that is not a web
   * page is left before anything is photographed or read from it. Answers the URL it left, if any.
   */
  private async leaveNonWebPage(): Promise<string | null> {
    const page = this.page;
    if (page.isClosed() || this.tracker.crashed || isWebPage(page.url())) return null;
    return this.leave();
  }

  /** Sends the page to about:blank, counting the departure; answers the URL it left. */
  private async leave(): Promise<string> {
    const shown = this.page.url();
    this.left = { count: this.left.count + 1, url: shown };
    await this.captures.settle();
    await this.page.goto('about:blank', { timeout: 5_000 }).catch(() => {});
    return shown;
  }
}
