import type { Locator, Page } from 'playwright-core';
import { clipboardAction, performClipboard, refuseChording } from '../clipboard';
import { checkedNow, readFocus } from '../page-functions';
import type { VerbAction } from './verb-action';
import { poll } from './waiting';

// The verbs that act on the page as a person would: click, type, fill, choose, tick, press keys.

export const click: VerbAction<'click'> = async (kit, step) => {
  const { page, left } = kit;
  // A control with no name is found by its place: in a region, else in the block holding the text.
  const within =
    step.target === undefined && step.region !== undefined
      ? await kit.placeOf(step.region)
      : await kit.regionOf(step.region);
  const { locator, selector } =
    step.target === undefined && within
      ? await kit.roleIn(within, step.role ?? 'button')
      : await kit.findRevealing(step.target ?? '', 'click', step.role, within);
  await kit.beforeChange();
  await locator.click({ timeout: left() });
  await page.waitForLoadState('domcontentloaded', { timeout: left() }).catch(() => {});
  return selector;
};

export const doubleClick: VerbAction<'doubleClick'> = async (kit, step) => {
  const within = await kit.regionOf(step.region);
  const { locator, selector } = await kit.findRevealing(step.target, 'text', undefined, within);
  await kit.beforeChange();
  await locator.dblclick({ timeout: kit.left() });
  return selector;
};

export const hover: VerbAction<'hover'> = async (kit, step) => {
  const within = await kit.regionOf(step.region);
  const { locator, selector } = await kit.find(step.target, 'any', undefined, within);
  await kit.beforeChange();
  await locator.hover({ timeout: kit.left() });
  return selector;
};

export const type: VerbAction<'type'> = async (kit, step) => {
  await focusedField(kit.page, `type "${step.value}" into`, kit.left(), kit.signal);
  refuseChording(kit.clipboard);
  await kit.beforeChange();
  await kit.page.keyboard.type(step.value);
  return null;
};

export const fillFocused: VerbAction<'fillFocused'> = async (kit, step) => {
  await focusedField(kit.page, `fill with "${step.value}"`, kit.left(), kit.signal);
  await kit.beforeChange();
  await kit.page.locator('*:focus').first().fill(step.value, { timeout: kit.left() });
  return ':focus';
};

export const fill: VerbAction<'fill'> = async (kit, step) => {
  const { locator, selector } = await kit.find(step.field, 'field');
  await kit.beforeChange();
  await locator.fill(step.value, { timeout: kit.timeout });
  return selector;
};

export const clear: VerbAction<'clear'> = async (kit, step) => {
  const { locator, selector } = await kit.find(step.field, 'field');
  await kit.beforeChange();
  await locator.clear({ timeout: kit.timeout });
  return selector;
};

export const select: VerbAction<'select'> = async (kit, step) => {
  const { timeout } = kit;
  const { locator, selector } = await kit.find(step.field, 'field');
  await kit.beforeChange();
  await locator
    .selectOption({ label: step.option }, { timeout })
    .catch(() => locator.selectOption(step.option, { timeout }));
  return selector;
};

export const check: VerbAction<'check'> = async (kit, step) => {
  const within =
    step.target === undefined && step.region !== undefined
      ? await kit.placeOf(step.region)
      : await kit.regionOf(step.region);
  const { locator, selector } =
    step.target === undefined && within
      ? await kit.roleIn(within, 'checkbox')
      : await kit.findRevealing(step.target ?? '', 'check', undefined, within);
  await kit.beforeChange();
  await setChecked(kit.page, locator, step.checked, kit.left(), kit.signal);
  return selector;
};

export const press: VerbAction<'press'> = async (kit, step) => {
  const { page, timeout, clipboard } = kit;
  // Copy, cut and paste use the session's clipboard, never the browser's (shared by every user).
  const action = clipboardAction(step.key, clipboard.held);
  if (step.field) {
    const { locator, selector } = await kit.find(step.field, 'field');
    await kit.beforeChange();
    if (action) {
      await locator.focus({ timeout });
      await performClipboard(page, clipboard, action);
      return selector;
    }
    await locator.press(step.key, { timeout });
    await page.waitForLoadState('domcontentloaded', { timeout }).catch(() => {});
    return selector;
  }
  await kit.beforeChange();
  if (action) {
    await performClipboard(page, clipboard, action);
    return null;
  }
  await page.keyboard.press(step.key);
  await page.waitForLoadState('domcontentloaded', { timeout }).catch(() => {});
  return null;
};

/**
 * Waits until an editable element has focus (a field, a text area, something contenteditable), else
 * fails naming what has focus instead.
 */
async function focusedField(page: Page, doing: string, timeout: number, signal: AbortSignal): Promise<void> {
  let last = { editable: false, what: 'nothing' };
  const ok = await poll(
    async () => {
      last = await page.evaluate(readFocus);
      return last.editable;
    },
    timeout,
    signal,
  );
  if (!ok)
    throw new Error(`Expected a focused field to ${doing}, but ${last.what} has focus on ${page.url()}`);
}

/**
 * Clicks a checkbox or radio unless it already is as wanted, then waits for it to be. Not Playwright's
 * `setChecked`: an app that re-renders its list on a change replaces the element clicked, and one whose
 * filter then hides the item leaves nothing to find again. The checkbox as found again decides; only
 * when it is gone does the one clicked (its state as it left the page).
 */
async function setChecked(
  page: Page,
  locator: Locator,
  checked: boolean,
  timeout: number,
  signal: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeout;
  const left = () => Math.max(1, deadline - Date.now());
  // The handle is taken again when the page re-rendered the checkbox between finding and clicking it
  // (a list redrawn after a filter link): that element is gone, its replacement is the one to click.
  let handle = await locator.elementHandle({ timeout: left() });
  for (let attempt = 1; ; attempt++) {
    try {
      if ((await handle.evaluate(checkedNow)) === checked) {
        await handle.dispose().catch(() => {});
        return;
      }
      await handle.click({ timeout: left() });
      break;
    } catch (error) {
      await handle.dispose().catch(() => {});
      const detached = /not attached to the DOM|detached|Execution context was destroyed/i.test(
        String(error),
      );
      if (!detached || attempt >= 5 || Date.now() >= deadline || signal.aborted) throw error;
      handle = await locator.elementHandle({ timeout: left() });
    }
  }
  try {
    const ok = await poll(
      async () =>
        ((await locator.count()) > 0 ? await locator.isChecked() : await handle.evaluate(checkedNow)) ===
        checked,
      left(),
      signal,
    );
    if (!ok) {
      throw new Error(
        `Clicked the checkbox to ${checked ? 'check' : 'uncheck'} it, but it is still ${checked ? 'not checked' : 'checked'} on ${page.url()}`,
      );
    }
  } finally {
    await handle.dispose().catch(() => {});
  }
}
