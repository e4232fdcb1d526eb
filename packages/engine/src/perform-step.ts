import type { Step, TargetRole } from '@argus/protocol';
import type { Locator, Page } from 'playwright-core';
import { AbortedError } from './errors';
import { locate, type TargetKind } from './locate';
import {
  accessibilityViolations,
  brokenLinks,
  fieldShowsError,
  horizontalOverflow,
  imagesWithoutAlt,
  visibleErrors,
} from './page-checks';
import type { PageTracker } from './page-tracker';

/** What a step needs from the session performing it. */
export interface StepContext {
  page: Page;
  tracker: PageTracker;
  /** Milliseconds the step may take. */
  timeout: number;
  /** Aborted once the step is given up on (stopped or timed out): the engine's own polling stops. */
  signal: AbortSignal;
  /**
   * Resolves once the screenshots already asked for are taken. Called before anything that changes the
   * page, so a screenshot shows the page as it was when it was asked for, however late it arrives.
   */
  beforeChange: () => Promise<void>;
  /** Opens `target` (relative to the page, else the session's base URL) through the session's checks. */
  navigate: (target: string, timeout: number) => Promise<{ requested: string; status: number }>;
}

/** Performs one step of the step language on the page; answers the selector it used, if any. */
export async function performStep(ctx: StepContext, step: Step): Promise<string | null> {
  const { page, tracker, timeout, signal, beforeChange } = ctx;
  const find = (target: string, kind: TargetKind, role?: TargetRole) =>
    locate(page, target, kind, timeout, role, signal);
  switch (step.verb) {
    case 'navigate': {
      const { requested, status } = await ctx.navigate(step.url, timeout);
      if (status >= 400) throw new Error(`${requested} answered HTTP ${status}`);
      return null;
    }
    case 'back':
      await beforeChange();
      await page.goBack({ timeout });
      return null;
    case 'reload':
      await beforeChange();
      tracker.reset();
      await page.reload({ timeout });
      return null;
    case 'click': {
      const { locator, selector } = await find(step.target, 'click', step.role);
      await beforeChange();
      await locator.click({ timeout });
      await page.waitForLoadState('domcontentloaded', { timeout }).catch(() => {});
      return selector;
    }
    case 'hover': {
      const { locator, selector } = await find(step.target, 'any');
      await beforeChange();
      await locator.hover({ timeout });
      return selector;
    }
    case 'fill': {
      const { locator, selector } = await find(step.field, 'field');
      await beforeChange();
      await locator.fill(step.value, { timeout });
      return selector;
    }
    case 'clear': {
      const { locator, selector } = await find(step.field, 'field');
      await beforeChange();
      await locator.clear({ timeout });
      return selector;
    }
    case 'select': {
      const { locator, selector } = await find(step.field, 'field');
      await beforeChange();
      await locator
        .selectOption({ label: step.option }, { timeout })
        .catch(() => locator.selectOption(step.option, { timeout }));
      return selector;
    }
    case 'check': {
      const { locator, selector } = await find(step.target, 'check');
      await beforeChange();
      await locator.setChecked(step.checked, { timeout });
      return selector;
    }
    case 'press': {
      if (step.field) {
        const { locator, selector } = await find(step.field, 'field');
        await beforeChange();
        await locator.press(step.key, { timeout });
        await page.waitForLoadState('domcontentloaded', { timeout }).catch(() => {});
        return selector;
      }
      await beforeChange();
      await page.keyboard.press(step.key);
      await page.waitForLoadState('domcontentloaded', { timeout }).catch(() => {});
      return null;
    }
    case 'scroll': {
      if (step.target === 'bottom' || step.target === 'top') {
        await beforeChange();
        await page.evaluate(
          (to) => window.scrollTo(0, to === 'bottom' ? document.body.scrollHeight : 0),
          step.target,
        );
        return null;
      }
      const { locator, selector } = await find(step.target, 'any');
      await beforeChange();
      await locator.scrollIntoViewIfNeeded({ timeout });
      return selector;
    }
    case 'wait':
      await page.waitForTimeout(Math.min(step.ms, timeout));
      return null;
    case 'waitForText':
      await page.getByText(step.text).first().waitFor({ state: 'visible', timeout });
      return `text*="${step.text}"`;
    case 'viewport':
      await beforeChange();
      await page.setViewportSize({ width: step.width, height: step.height });
      return null;
    case 'screenshot':
      return null;
    case 'verifyText': {
      const ok = await visibility(page.getByText(step.text), step.visible, timeout, signal);
      if (!ok)
        throw new Error(
          `Expected the text "${step.text}" ${step.visible ? 'to be' : 'not to be'} visible on ${page.url()}`,
        );
      return `text*="${step.text}"`;
    }
    case 'verifyElement': {
      const ok = await visibility(
        page.getByRole(step.role, { name: step.name }),
        step.visible,
        timeout,
        signal,
      );
      if (!ok) {
        throw new Error(
          `Expected a ${step.role} named "${step.name}" ${step.visible ? 'to be' : 'not to be'} visible on ${page.url()}`,
        );
      }
      return `role=${step.role}[name*="${step.name}"]`;
    }
    case 'verifyUrl': {
      const ok = await page
        .waitForURL((url) => url.href.includes(step.text), { timeout, waitUntil: 'commit' })
        .then(
          () => true,
          () => false,
        );
      if (!ok) throw new Error(`Expected the URL to contain "${step.text}", but it is ${page.url()}`);
      return null;
    }
    case 'verifyTitle': {
      const ok = await poll(async () => (await page.title()).includes(step.text), timeout, signal);
      if (!ok)
        throw new Error(`Expected the title to contain "${step.text}", but it is "${await page.title()}"`);
      return null;
    }
    case 'verifyValue': {
      const { locator, selector } = await find(step.field, 'field');
      const ok = await poll(async () => (await locator.inputValue()) === step.value, timeout, signal);
      if (!ok)
        throw new Error(
          `Expected "${step.field}" to hold "${step.value}", but it holds "${await locator.inputValue()}"`,
        );
      return selector;
    }
    case 'verifyInvalid': {
      const { locator, selector } = await find(step.field, 'field');
      const ok = await poll(() => fieldShowsError(locator), timeout, signal);
      if (!ok) throw new Error(`Expected "${step.field}" to show a validation error, but none is shown`);
      return selector;
    }
    case 'verifyNoErrors': {
      await page.waitForTimeout(200); // let a submit handler render its messages
      fail(await visibleErrors(page));
      return null;
    }
    case 'verifyCount': {
      const locator = page.getByRole(step.role).filter({ visible: true });
      const ok = await poll(async () => (await locator.count()) >= step.atLeast, timeout, signal);
      if (!ok)
        throw new Error(`Expected at least ${step.atLeast} ${step.role}s, found ${await locator.count()}`);
      return `role=${step.role}`;
    }
    case 'verifyNoConsoleErrors':
      await page.waitForLoadState('load', { timeout });
      fail(tracker.consoleErrors().map((p) => `Console error on ${p.url}: ${p.message}`));
      return null;
    case 'verifyNoFailedRequests':
      await page.waitForLoadState('load', { timeout });
      fail(tracker.failedRequests().map((p) => `Failed request: ${p.message}`));
      return null;
    case 'verifyLinksWork':
      fail(await brokenLinks(page));
      return 'a[href]';
    case 'verifyImagesAlt':
      fail(await imagesWithoutAlt(page));
      return 'img';
    case 'verifyNoOverflow':
      fail(await horizontalOverflow(page));
      return null;
    case 'verifyAccessibility':
      fail(await accessibilityViolations(page));
      return null;
    default: {
      const never: never = step;
      throw new Error(`Unsupported step ${(never as Step).verb}`);
    }
  }
}

async function poll(check: () => Promise<boolean>, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal.aborted) throw new AbortedError();
    if (await check().catch(() => false)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Whether some match becomes visible (or every match goes away) within the timeout. Appearing uses
 * Playwright's own waiting, which reacts to DOM changes; polling would add up to an interval per check.
 */
async function visibility(
  locator: Locator,
  visible: boolean,
  timeout: number,
  signal: AbortSignal,
): Promise<boolean> {
  const shown = locator.filter({ visible: true });
  if (!visible) return poll(async () => (await shown.count()) === 0, timeout, signal);
  return shown
    .first()
    .waitFor({ state: 'visible', timeout })
    .then(
      () => true,
      () => false,
    );
}

function fail(problems: string[]): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, 5).join('; ');
  throw new Error(problems.length > 5 ? `${shown}; and ${problems.length - 5} more` : shown);
}
