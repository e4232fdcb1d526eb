import type { Step } from '@argus/protocol';
import type { Page } from 'playwright-core';
import type { SessionClipboard } from '../clipboard';
import type { PageTracker } from '../page-tracker';
import { performStep } from '../perform-step';
import type { Navigator } from './navigate';
import { type NavigationGuard, PageLeftError } from './navigation-guard';
import { type OperationOptions, SETTLING_MS } from './options';

/** Performing steps of the step language in the session's page (`perform-step.ts` carries each out). */
export class StepPerformer {
  constructor(
    private readonly page: Page,
    private readonly tracker: PageTracker,
    private readonly guard: NavigationGuard,
    private readonly navigator: Navigator,
    /** The session's own clipboard, shared with its keyboard input. */
    private readonly clipboard: SessionClipboard,
    private readonly stepTimeoutMs: number,
  ) {}

  /** `BrowserSession.perform`: answers the selector it used, if any, also on a page-left failure. */
  async perform(step: Step, options: OperationOptions = {}): Promise<string | null> {
    const timeout = options.timeoutMs ?? this.stepTimeoutMs;
    let selector: string | null = null;
    try {
      return await this.guard.changing(
        options,
        timeout + SETTLING_MS,
        `Step timed out after ${timeout} ms`,
        async (signal, since) => {
          selector = await performStep(
            {
              page: this.page,
              tracker: this.tracker,
              timeout,
              signal,
              beforeChange: () => this.guard.beforeChange(since),
              navigate: (target, ms) => this.navigator.goto(target, ms, since),
              clipboard: this.clipboard,
            },
            step,
          );
          return selector;
        },
      );
    } catch (error) {
      if (error instanceof PageLeftError) error.selector = selector;
      throw error;
    }
  }
}
