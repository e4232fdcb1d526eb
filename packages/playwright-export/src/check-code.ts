import { variablesIn } from '@argus/protocol';
import { literal, regexLiteral } from './code-text';
import type { StepCode, StepCodeKit } from './step-code-kit';

// The code of the Verify steps: Playwright's own assertions where it has one, else a support helper.

/** A text or an element, visible or gone (`verifyText`, `verifyElement`). */
function visibleCode(locator: string, visible: boolean, { code }: StepCodeKit): undefined {
  code.push(
    visible
      ? `await expect(${locator}.filter({ visible: true }).first()).toBeVisible();`
      : `await expect(${locator}.filter({ visible: true })).toHaveCount(0);`,
  );
  return undefined;
}

/** A text as Argus checks it: the DOM's text or the text as laid out (the support file's `expectText`). */
export const verifyText: StepCode<'verifyText'> = (step, kit) => {
  kit.h('expectText');
  kit.code.push(`await expectText(${kit.rootOf(step.region)}, ${kit.s(step.text)}, ${step.visible});`);
  return undefined;
};

export const verifyElement: StepCode<'verifyElement'> = (step, kit) =>
  visibleCode(
    `${kit.rootOf(step.region)}.getByRole('${step.role}', { name: ${kit.s(step.name)} })`,
    step.visible,
    kit,
  );

export const verifyExactCount: StepCode<'verifyExactCount'> = (step, { code, rootOf }) => {
  const root = rootOf(step.region);
  code.push(
    `await expect(${root}.getByRole('${step.role}').filter({ visible: true })).toHaveCount(${step.count});`,
  );
  return undefined;
};

export const verifyCount: StepCode<'verifyCount'> = (step, { code }) => {
  code.push(
    `await expect.poll(() => page.getByRole('${step.role}').filter({ visible: true }).count()).toBeGreaterThanOrEqual(${step.atLeast});`,
  );
  return undefined;
};

export const verifyChecked: StepCode<'verifyChecked'> = (step, { code, h, rootOf, targetCall }) => {
  const root = rootOf(step.region);
  if (step.target === undefined) {
    h('controlIn');
    code.push(`const checkbox = await controlIn(${root}, 'checkbox');`);
  } else code.push(`const checkbox = ${targetCall(step.target, 'check', undefined, root)};`);
  code.push(`await expect(checkbox).${step.checked ? '' : 'not.'}toBeChecked();`);
  return undefined;
};

export const verifyState: StepCode<'verifyState'> = (step, { code, h, s, rootOf, targetCall }) => {
  h('isMarked');
  const root = rootOf(step.region);
  code.push(`const element = ${targetCall(step.target, 'text', step.role, root)};`);
  code.push(`await expect.poll(() => isMarked(element, ${s(step.state)})).toBe(${step.marked});`);
  return undefined;
};

export const verifyUrl: StepCode<'verifyUrl'> = (step, { code, s }) => {
  code.push(
    variablesIn(step.text).length === 0
      ? `await expect(page).toHaveURL(${regexLiteral(step.text)});`
      : `await expect(page).toHaveURL((url) => url.href.includes(${s(step.text)}));`,
  );
  return undefined;
};

export const verifyTitle: StepCode<'verifyTitle'> = (step, { code, s }) => {
  code.push(
    variablesIn(step.text).length === 0
      ? `await expect(page).toHaveTitle(${regexLiteral(step.text)});`
      : `await expect.poll(() => page.title()).toContain(${s(step.text)});`,
  );
  return undefined;
};

export const verifyValue: StepCode<'verifyValue'> = (step, { code, s, fieldCall }) => {
  code.push(`const input = ${fieldCall(step.field)};`);
  code.push(`await expect(input).toHaveValue(${s(step.value)});`);
  return undefined;
};

export const verifyInvalid: StepCode<'verifyInvalid'> = (step, { code, h, fieldCall }) => {
  h('showsValidationError');
  code.push(`const input = ${fieldCall(step.field)};`);
  code.push('await expect.poll(() => showsValidationError(input)).toBe(true);');
  return undefined;
};

export const verifyNoErrors: StepCode<'verifyNoErrors'> = (_, { code, h }) => {
  h('visibleErrors');
  code.push('await page.waitForTimeout(200); // lets a submit handler show its messages');
  code.push('expect(await visibleErrors(page)).toEqual([]);');
  return undefined;
};

export const verifyNoConsoleErrors: StepCode<'verifyNoConsoleErrors'> = (_, { code, scope }) => {
  scope.usesHealth = true;
  code.push("await page.waitForLoadState('load');");
  code.push('expect(pageHealth.consoleErrors).toEqual([]);');
  return undefined;
};

export const verifyNoFailedRequests: StepCode<'verifyNoFailedRequests'> = (_, { code, scope }) => {
  scope.usesHealth = true;
  code.push("await page.waitForLoadState('load');");
  code.push('expect(pageHealth.failedRequests).toEqual([]);');
  return undefined;
};

export const verifyLinksWork: StepCode<'verifyLinksWork'> = (_, { code, h }) => {
  h('brokenLinks');
  code.push('expect(await brokenLinks(page)).toEqual([]);');
  return undefined;
};

export const verifyImagesAlt: StepCode<'verifyImagesAlt'> = (_, { code, h }) => {
  h('imagesWithoutAlt');
  code.push('expect(await imagesWithoutAlt(page)).toEqual([]);');
  return undefined;
};

export const verifyNoOverflow: StepCode<'verifyNoOverflow'> = (_, { code, h }) => {
  h('horizontalOverflow');
  code.push('expect(await horizontalOverflow(page)).toBe(false);');
  return undefined;
};

export const verifySum: StepCode<'verifySum'> = (step, { code, h, s }) => {
  h('rowsAddUp');
  code.push(
    `await expect.poll(() => rowsAddUp(page, [${step.parts.map(s).join(', ')}], ${s(step.total)})).toBe(true);`,
  );
  return undefined;
};

export const verifyCountOf: StepCode<'verifyCountOf'> = (step, { code, h, s }) => {
  h('countMatches');
  code.push(`await expect.poll(() => countMatches(page, ${s(step.text)}, ${s(step.cell)})).toBe(true);`);
  return undefined;
};

export const verifyAccessibility: StepCode<'verifyAccessibility'> = () =>
  'axe-core is not part of the export: add @axe-core/playwright and check for serious or critical violations';

/**
 * `Verify the page looks as approved` (or a region): Playwright's own screenshot assertion, its
 * snapshot named as Argus names the check within its case (`page`, the region's name, `page #2` for a
 * repeat), made a file name (`page.png`, `pricing.png`, `page-2.png`). Playwright records the first
 * run's picture and fails on a difference; it masks nothing by itself, as Argus does what moves.
 */
export const verifyLooksApproved: StepCode<'verifyLooksApproved'> = (step, { code, rootOf, scope }) => {
  const base = step.region ?? 'page';
  scope.screenshotNames ??= new Map();
  const n = (scope.screenshotNames.get(base) ?? 0) + 1;
  scope.screenshotNames.set(base, n);
  const slug =
    base
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'region';
  const file = literal(`${n === 1 ? slug : `${slug}-${n}`}.png`);
  const root = rootOf(step.region);
  code.push(
    root === 'page'
      ? `await expect(page).toHaveScreenshot(${file}, { animations: 'disabled', caret: 'hide', fullPage: true });`
      : `await expect(${root}).toHaveScreenshot(${file}, { animations: 'disabled', caret: 'hide' });`,
  );
  return undefined;
};
