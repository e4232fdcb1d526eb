import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { describeViolations, isBlocking, runAxe, waitForSettledAnimations } from './axe';
import { screenshot } from './browser';

/** Where the screens' shots go, to be looked at. */
export const SHOTS = '/tmp/shots';

/** The page's blocking axe violations, each line prefixed with the state it was found in. */
export async function axeFailures(page: Page, state: string): Promise<string[]> {
  const violations = await runAxe(page);
  return describeViolations(violations.filter(isBlocking)).map((line) => `${state}: ${line}`);
}

/** How far the page scrolls sideways (0 when it does not). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const d = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return d.scrollWidth - d.clientWidth;
  });
}

/**
 * A full-page screenshot at 1440 and at 390 px (into SHOTS), each checked with axe (failures added to
 * `a11y`) and for sideways scrolling at 390 px. `ready` runs before each shot (images to load).
 */
export async function shootBoth(
  page: Page,
  name: string,
  a11y: string[],
  ready: (page: Page) => Promise<void> = async () => {},
): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await ready(page);
  // From the top, whatever a link scrolled into view: the shell's bar sticks.
  await page.evaluate(() =>
    (globalThis as unknown as { scrollTo: (x: number, y: number) => void }).scrollTo(0, 0),
  );
  await page.screenshot({ path: `${SHOTS}/${name}-1440.png`, fullPage: true });
  await screenshot(page, `${name}-1440`);
  a11y.push(...(await axeFailures(page, `${name} 1440`)));
  await page.setViewportSize({ width: 390, height: 844 });
  // The sidebar becomes an overlay below 1024 px and slides away: shot once it has.
  await page.waitForTimeout(100);
  await waitForSettledAnimations(page);
  expect(await horizontalOverflow(page), `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
  await ready(page);
  await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true });
  a11y.push(...(await axeFailures(page, `${name} 390`)));
  await page.setViewportSize({ width: 1440, height: 1000 });
}
