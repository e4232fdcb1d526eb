import type { ElementKey, Step } from '@argus/protocol';
import type { Page } from 'playwright-core';
import type { SessionClipboard } from '../clipboard';
import { readElementKey } from '../element-key';
import { AbortedError } from '../errors';
import type { PageTracker } from '../page-tracker';
import { performStep, type StepContext } from '../perform-step';
import { untraced } from '../recording/untraced';
import * as checks from '../steps/check-verbs';
import * as pageChecks from '../steps/page-check-verbs';
import { VERBS } from '../steps/verbs';
import type { StepVisual } from '../visual/session-visuals';
import type { Navigator } from './navigate';
import { type NavigationGuard, PageLeftError } from './navigation-guard';
import { type OperationOptions, SETTLING_MS } from './options';

/** The Verify steps about what a person sees (check-verbs.ts) and about the page as a whole (page-check-verbs.ts). */
const LOOKS = new Set<unknown>(Object.values(checks));
const PAGE_CHECKS = new Set<unknown>(Object.values(pageChecks));

/** Performing steps of the step language in the session's page (`perform-step.ts` carries each out). */
export class StepPerformer {
  /** The stable attributes of the element the last step found (element-key.ts), if any. */
  lastElement: ElementKey | null = null;

  constructor(
    private readonly page: Page,
    private readonly tracker: PageTracker,
    private readonly guard: NavigationGuard,
    private readonly navigator: Navigator,
    /** The session's own clipboard, shared with its keyboard input. */
    private readonly clipboard: SessionClipboard,
    private readonly stepTimeoutMs: number,
    /** The run's visual checks (`… looks as approved`), when it was given a port. */
    private readonly visual?: StepVisual,
  ) {}

  /** `BrowserSession.perform`: answers the selector it used, if any, also on a page-left failure. */
  async perform(step: Step, options: OperationOptions = {}): Promise<string | null> {
    const timeout = options.timeoutMs ?? this.stepTimeoutMs;
    let selector: string | null = null;
    this.lastElement = null;
    try {
      return await this.guard.changing(
        options,
        timeout + SETTLING_MS,
        `Step timed out after ${timeout} ms`,
        async (signal, since) => {
          selector = await this.carryOut(step, {
            page: this.page,
            tracker: this.tracker,
            timeout,
            signal,
            beforeChange: () => this.guard.beforeChange(since),
            navigate: (target, ms) => this.navigator.goto(target, ms, since),
            clipboard: this.clipboard,
            visual: this.visual,
            noteElement: async (locator) => {
              this.lastElement = await readElementKey(locator);
            },
          });
          return selector;
        },
      );
    } catch (error) {
      if (error instanceof PageLeftError) error.selector = selector;
      throw error;
    }
  }

  /**
   * A Verify step only reads the page, so none of its reads enters a recorded trace (they are many: a
   * count polled every 50 ms, axe's run; recording/untraced.ts). A failed one that looks for something
   * looks once more, traced and at once, so the trace shows what it looked at, as the page was then.
   */
  private async carryOut(step: Step, ctx: StepContext): Promise<string | null> {
    const perform = VERBS[step.verb]?.perform;
    if (!LOOKS.has(perform) && !PAGE_CHECKS.has(perform)) return performStep(ctx, step);
    try {
      return await untraced(this.page, () => performStep(ctx, step));
    } catch (error) {
      if (LOOKS.has(perform) && !ctx.signal.aborted && !(error instanceof AbortedError))
        await performStep({ ...ctx, timeout: 1 }, step).catch(() => {});
      throw error;
    }
  }
}
