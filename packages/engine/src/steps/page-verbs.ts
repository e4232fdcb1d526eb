import { viewportProblem } from '@argus/protocol';
import type { VerbAction } from './verb-action';

// The verbs that move the page or wait on it: open, go back, reload, scroll, wait, resize, photograph.

export const navigate: VerbAction<'navigate'> = async (kit, step) => {
  const { requested, status } = await kit.navigate(step.url, kit.timeout);
  if (status >= 400) throw new Error(`${requested} answered HTTP ${status}`);
  return null;
};

export const back: VerbAction<'back'> = async (kit) => {
  await kit.beforeChange();
  await kit.page.goBack({ timeout: kit.timeout });
  return null;
};

export const reload: VerbAction<'reload'> = async (kit) => {
  await kit.beforeChange();
  kit.tracker.reset();
  await kit.page.reload({ timeout: kit.timeout });
  return null;
};

export const scroll: VerbAction<'scroll'> = async (kit, step) => {
  if (step.target === 'bottom' || step.target === 'top') {
    await kit.beforeChange();
    await kit.page.evaluate(
      (to) => window.scrollTo(0, to === 'bottom' ? document.body.scrollHeight : 0),
      step.target,
    );
    return null;
  }
  const { locator, selector } = await kit.find(step.target, 'any');
  await kit.beforeChange();
  await locator.scrollIntoViewIfNeeded({ timeout: kit.timeout });
  return selector;
};

export const wait: VerbAction<'wait'> = async (kit, step) => {
  await kit.page.waitForTimeout(Math.min(step.ms, kit.timeout));
  return null;
};

export const waitForText: VerbAction<'waitForText'> = async (kit, step) => {
  await kit.page.getByText(step.text).first().waitFor({ state: 'visible', timeout: kit.timeout });
  return `text*="${step.text}"`;
};

export const viewport: VerbAction<'viewport'> = async (kit, step) => {
  // Steps built by a planner or a chat reach here without the parser: the limit holds all the same.
  const problem = viewportProblem(step.width, step.height);
  if (problem) throw new Error(problem);
  await kit.beforeChange();
  await kit.page.setViewportSize({ width: step.width, height: step.height });
  return null;
};

/** The screenshot every step gets is the whole of it. */
export const screenshot: VerbAction<'screenshot'> = async () => null;
