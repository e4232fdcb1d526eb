import type { Page } from 'playwright-core';
import { type PageSnapshot, readSnapshot } from '../behaviour/snapshot';
import { observePage, type PageObservation } from '../observe';
import type { PageTracker } from '../page-tracker';
import { untraced } from '../recording/untraced';
import type { Navigator } from './navigate';
import type { NavigationGuard } from './navigation-guard';
import type { OperationOptions } from './options';

/** How long reading the page may take unless told otherwise. */
const READ_TIMEOUT_MS = 15_000;

/**
 * Reading the session's page without changing it: what the planners, explorers and reviewers see. These
 * reads are the engine's own, kept out of a recorded trace (recording/untraced.ts).
 */
export class PageReader {
  constructor(
    private readonly page: Page,
    private readonly tracker: PageTracker,
    private readonly guard: NavigationGuard,
    private readonly navigator: Navigator,
  ) {}

  /** `BrowserSession.observe`. */
  observe(options: OperationOptions = {}): Promise<PageObservation> {
    const timeout = options.timeoutMs ?? READ_TIMEOUT_MS;
    return this.guard.reading(options, timeout, `Observing the page timed out after ${timeout} ms`, () =>
      untraced(this.page, () => observePage(this.page, this.tracker, this.navigator.lastStatus)),
    );
  }

  /** `BrowserSession.snapshot`. */
  snapshot(options: OperationOptions = {}): Promise<PageSnapshot> {
    const timeout = options.timeoutMs ?? READ_TIMEOUT_MS;
    return this.guard.reading(options, timeout, `Reading the page timed out after ${timeout} ms`, () =>
      untraced(this.page, () => readSnapshot(this.page)).then((s) => ({
        ...s,
        consoleErrors: this.tracker.consoleErrors().length,
        failedRequests: this.tracker.failedRequests().length,
      })),
    );
  }

  /** `BrowserSession.evaluate`. */
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A, options: OperationOptions = {}): Promise<R> {
    const timeout = options.timeoutMs ?? READ_TIMEOUT_MS;
    return this.guard.reading(options, timeout, `Reading the page timed out after ${timeout} ms`, () =>
      untraced(this.page, () => this.page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown)),
    );
  }
}
