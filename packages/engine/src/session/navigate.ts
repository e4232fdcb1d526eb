import type { Page } from 'playwright-core';
import { cleanError } from '../errors';
import type { PageTracker } from '../page-tracker';
import { BLOCKED_HEADER } from '../policy-proxy';
import { resolveWebUrl } from '../web-url';
import type { NavigationGuard } from './navigation-guard';
import { type OperationOptions, SETTLING_MS } from './options';

export interface NavigateResult {
  /** The URL asked for, resolved (http or https). */
  requested: string;
  /** Where the page is now, redirects followed. */
  url: string;
  /** The main document's HTTP status (0 when there was no response, e.g. a same-document jump). */
  status: number;
}

/**
 * Opening URLs in the session's page, behind the target policy: only http(s) is opened, and a refusal
 * by the policy proxy is explained in its own words rather than as a network error.
 */
export class Navigator {
  /** The main document's HTTP status after the last navigation (what `observe` reports). */
  lastStatus = 0;

  constructor(
    private readonly page: Page,
    private readonly tracker: PageTracker,
    private readonly guard: NavigationGuard,
    private readonly settings: {
      baseUrl?: string;
      stepTimeoutMs: number;
      /** The policy proxy's reason for refusing `host`. */
      refusalFor: (host: string) => Promise<string | undefined>;
    },
  ) {}

  /** `BrowserSession.navigate`: one operation that may move the page. */
  navigate(url: string, options: OperationOptions = {}): Promise<NavigateResult> {
    const timeout = options.timeoutMs ?? this.settings.stepTimeoutMs;
    return this.guard.changing(
      options,
      timeout + SETTLING_MS,
      `Navigation timed out after ${timeout} ms`,
      (_signal, since) => this.goto(url, timeout, since),
    );
  }

  /** Opens `target` within an operation that started at departure count `since` (steps navigate too). */
  async goto(target: string, timeout: number, since: number): Promise<NavigateResult> {
    const current = this.page.url();
    // Relative targets resolve against the page (else the base URL); only http(s) may be opened.
    const url = resolveWebUrl(target, current.startsWith('http') ? current : this.settings.baseUrl);
    await this.guard.beforeChange(since);
    this.tracker.reset();
    let response: Awaited<ReturnType<Page['goto']>>;
    try {
      response = await this.page.goto(url, { timeout, waitUntil: 'load' });
    } catch (error) {
      const refusal = await this.settings.refusalFor(new URL(url).hostname);
      throw new Error(refusal ?? `Could not open ${url}: ${cleanError(error)}`);
    }
    // Only the proxy's own refusal of a plain-HTTP request counts: over HTTPS the proxy sees a tunnel
    // (a refusal there is a failed navigation, above), so a header there is the site's own.
    const blocked =
      response?.status() === 403 && response.url().startsWith('http:')
        ? response.headers()[BLOCKED_HEADER]
        : undefined;
    if (blocked) throw new Error(decodeURIComponent(blocked));
    this.lastStatus = response?.status() ?? 0;
    return { requested: url, url: this.page.url(), status: this.lastStatus };
  }
}
