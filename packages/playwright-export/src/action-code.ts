import { literal, nameFor } from './code-text';
import { STEP_TIMEOUT_MS } from './project-files';
import type { StepCode } from './step-code-kit';

// The code of the verbs that act on the page: open, click, type, fill, choose, tick, press, scroll, wait.

export const navigate: StepCode<'navigate'> = (step, { code, s }) => {
  code.push(`const response = await page.goto(${s(step.url)});`);
  code.push('expect(response?.status() ?? 200).toBeLessThan(400);');
  return undefined;
};

export const back: StepCode<'back'> = (_, { code }) => {
  code.push('await page.goBack();');
  return undefined;
};

export const reload: StepCode<'reload'> = (_, { code }) => {
  code.push('await page.reload();');
  return undefined;
};

export const click: StepCode<'click'> = (step, { code, h, rootOf, targetCall }) => {
  if (step.target === undefined) {
    const root = rootOf(step.region, true);
    h('controlIn');
    const role = step.role ?? 'button';
    code.push(`const ${nameFor(role, 'button')} = await controlIn(${root}, '${role}');`);
    code.push(`await ${nameFor(role, 'button')}.click();`);
    return undefined;
  }
  const root = rootOf(step.region);
  const name = nameFor(step.role, 'element');
  code.push(`const ${name} = ${targetCall(step.target, 'click', step.role, root)};`);
  code.push(`await ${name}.click();`);
  return undefined;
};

export const doubleClick: StepCode<'doubleClick'> = (step, { code, rootOf, targetCall }) => {
  const root = rootOf(step.region);
  code.push(`const element = ${targetCall(step.target, 'text', undefined, root)};`);
  code.push('await element.dblclick();');
  return undefined;
};

export const hover: StepCode<'hover'> = (step, { code, rootOf, targetCall }) => {
  const root = rootOf(step.region);
  code.push(`const element = ${targetCall(step.target, 'any', undefined, root)};`);
  code.push('await element.hover();');
  return undefined;
};

export const fill: StepCode<'fill'> = (step, { code, s, fieldCall }) => {
  code.push(`const input = ${fieldCall(step.field)};`);
  code.push(`await input.fill(${s(step.value)});`);
  return undefined;
};

export const clear: StepCode<'clear'> = (step, { code, fieldCall }) => {
  code.push(`const input = ${fieldCall(step.field)};`);
  code.push('await input.clear();');
  return undefined;
};

export const select: StepCode<'select'> = (step, { code, s, fieldCall }) => {
  code.push(`const input = ${fieldCall(step.field)};`);
  code.push(`await input.selectOption({ label: ${s(step.option)} });`);
  return undefined;
};

export const check: StepCode<'check'> = (step, { code, h, rootOf, targetCall }) => {
  h('setChecked');
  if (step.target === undefined) {
    const root = rootOf(step.region);
    h('controlIn');
    code.push(`await setChecked(await controlIn(${root}, 'checkbox'), ${step.checked});`);
    return undefined;
  }
  const root = rootOf(step.region);
  code.push(`await setChecked(${targetCall(step.target, 'check', undefined, root)}, ${step.checked});`);
  return undefined;
};

export const press: StepCode<'press'> = (step, { code, fieldCall }) => {
  if (step.field !== undefined) {
    code.push(`const input = ${fieldCall(step.field)};`);
    code.push(`await input.press(${literal(step.key)});`);
  } else code.push(`await page.keyboard.press(${literal(step.key)});`);
  return undefined;
};

export const type: StepCode<'type'> = (step, { code, h, s }) => {
  h('focusedField');
  code.push('await focusedField(page);');
  code.push(`await page.keyboard.type(${s(step.value)});`);
  return undefined;
};

export const fillFocused: StepCode<'fillFocused'> = (step, { code, h, s }) => {
  h('focusedField');
  code.push('const input = await focusedField(page);');
  code.push(`await input.fill(${s(step.value)});`);
  return undefined;
};

export const scroll: StepCode<'scroll'> = (step, { code, targetCall }) => {
  if (step.target === 'bottom')
    code.push('await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));');
  else if (step.target === 'top') code.push('await page.evaluate(() => window.scrollTo(0, 0));');
  else {
    code.push(`const element = ${targetCall(step.target, 'any')};`);
    code.push('await element.scrollIntoViewIfNeeded();');
  }
  return undefined;
};

export const wait: StepCode<'wait'> = (step, { code }) => {
  code.push(`await page.waitForTimeout(${Math.min(step.ms, STEP_TIMEOUT_MS)});`);
  return undefined;
};

export const waitForText: StepCode<'waitForText'> = (step, { code, s }) => {
  code.push(`await expect(page.getByText(${s(step.text)}).first()).toBeVisible();`);
  return undefined;
};

export const viewport: StepCode<'viewport'> = (step, { code }) => {
  code.push(`await page.setViewportSize({ width: ${step.width}, height: ${step.height} });`);
  return undefined;
};

export const screenshot: StepCode<'screenshot'> = (_, { code }) => {
  code.push(
    "await test.info().attach('screenshot', { body: await page.screenshot(), contentType: 'image/png' });",
  );
  return undefined;
};
