import { pluralRole } from '@argus/protocol';
import { fieldShowsError } from '../page-checks';
import { type Marks, readMarks, readRenderedText } from '../page-functions';
import { untraced } from '../recording/untraced';
import type { VerbAction } from './verb-action';
import { poll, visibility } from './waiting';

// The Verify steps about what a person sees: texts, elements, counts, checked and marked states, the
// URL, the title and fields.

export const verifyText: VerbAction<'verifyText'> = async (kit, step) => {
  const within = await kit.regionOf(step.region);
  const root = within?.locator ?? kit.page;
  // Shown as the DOM's text, or as laid out (readRenderedText): both must be gone for "not visible".
  const dom = root.getByText(step.text).filter({ visible: true });
  const scope = within?.locator ?? kit.page.locator('body');
  const shown = async () =>
    (await dom.count()) > 0 || (await scope.evaluateAll(readRenderedText, step.text).catch(() => false));
  const ok = await untraced(kit.page, () =>
    poll(async () => (await shown()) === step.visible, kit.left(), kit.signal),
  );
  // One look at what it looked for enters the case's trace, with the page as it was (untraced.ts).
  await dom
    .first()
    .waitFor({ state: step.visible ? 'visible' : 'hidden', timeout: 1 })
    .catch(() => undefined);
  if (!ok)
    throw new Error(
      `Expected the text "${step.text}" ${step.visible ? 'to be' : 'not to be'} visible${kit.inName(within)} on ${kit.page.url()}`,
    );
  return within ? `${within.selector} >> text*="${step.text}"` : `text*="${step.text}"`;
};

export const verifyElement: VerbAction<'verifyElement'> = async (kit, step) => {
  const within = await kit.regionOf(step.region);
  const root = within?.locator ?? kit.page;
  const named = root.getByRole(step.role, { name: step.name });
  const ok = await visibility(named, step.visible, kit.left(), kit.signal);
  if (!ok) {
    throw new Error(
      `Expected a ${step.role} named "${step.name}" ${step.visible ? 'to be' : 'not to be'} visible${kit.inName(within)} on ${kit.page.url()}`,
    );
  }
  const selector = `role=${step.role}[name*="${step.name}"]`;
  return within ? `${within.selector} >> ${selector}` : selector;
};

export const verifyExactCount: VerbAction<'verifyExactCount'> = async (kit, step) => {
  const within = await kit.regionOf(step.region);
  const locator = (within?.locator ?? kit.page).getByRole(step.role).filter({ visible: true });
  const ok = await poll(async () => (await locator.count()) === step.count, kit.left(), kit.signal);
  if (!ok) {
    const found = await locator.count();
    const what = step.count === 1 ? step.role : pluralRole(step.role);
    throw new Error(
      `Expected exactly ${step.count} ${what} to be visible${kit.inName(within)}, found ${found} on ${kit.page.url()}`,
    );
  }
  return within ? `${within.selector} >> role=${step.role}` : `role=${step.role}`;
};

export const verifyCount: VerbAction<'verifyCount'> = async (kit, step) => {
  const locator = kit.page.getByRole(step.role).filter({ visible: true });
  const ok = await poll(async () => (await locator.count()) >= step.atLeast, kit.timeout, kit.signal);
  if (!ok) throw new Error(`Expected at least ${step.atLeast} ${step.role}s, found ${await locator.count()}`);
  return `role=${step.role}`;
};

export const verifyChecked: VerbAction<'verifyChecked'> = async (kit, step) => {
  const within =
    step.target === undefined && step.region !== undefined
      ? await kit.placeOf(step.region)
      : await kit.regionOf(step.region);
  const { locator, selector } =
    step.target === undefined && within
      ? await kit.roleIn(within, 'checkbox')
      : await kit.find(step.target ?? '', 'check', undefined, within);
  const ok = await poll(async () => (await locator.isChecked()) === step.checked, kit.left(), kit.signal);
  if (!ok) {
    const what = step.target === undefined ? 'the checkbox' : `"${step.target}"`;
    const is = await locator.isChecked().then(
      (c) => (c ? 'it is checked' : 'it is not checked'),
      () => 'it is gone',
    );
    throw new Error(
      `Expected ${what}${kit.inName(within)} ${step.checked ? 'to be' : 'not to be'} checked, but ${is} on ${kit.page.url()}`,
    );
  }
  return selector;
};

export const verifyState: VerbAction<'verifyState'> = async (kit, step) => {
  const within = await kit.regionOf(step.region);
  const { locator, selector } = await kit.find(step.target, 'text', step.role, within);
  let last: Marks | null = null;
  const ok = await poll(
    async () => {
      last = await locator.evaluate(readMarks, step.state, { timeout: kit.left() });
      return last.marked === step.marked;
    },
    kit.left(),
    kit.signal,
  );
  if (!ok) {
    const seen = (last as Marks | null)?.chain ?? 'the element is gone';
    throw new Error(
      `Expected "${step.target}"${kit.inName(within)} ${step.marked ? 'to be' : 'not to be'} marked "${step.state}", ` +
        `but it ${step.marked ? 'is not' : 'is'} (${seen}) on ${kit.page.url()}`,
    );
  }
  return selector;
};

export const verifyUrl: VerbAction<'verifyUrl'> = async (kit, step) => {
  const ok = await kit.page
    .waitForURL((url) => url.href.includes(step.text), { timeout: kit.timeout, waitUntil: 'commit' })
    .then(
      () => true,
      () => false,
    );
  if (!ok) throw new Error(`Expected the URL to contain "${step.text}", but it is ${kit.page.url()}`);
  return null;
};

export const verifyTitle: VerbAction<'verifyTitle'> = async (kit, step) => {
  const { page } = kit;
  const ok = await poll(async () => (await page.title()).includes(step.text), kit.timeout, kit.signal);
  if (!ok) throw new Error(`Expected the title to contain "${step.text}", but it is "${await page.title()}"`);
  return null;
};

export const verifyValue: VerbAction<'verifyValue'> = async (kit, step) => {
  const { locator, selector } = await kit.find(step.field, 'field');
  const ok = await poll(async () => (await locator.inputValue()) === step.value, kit.timeout, kit.signal);
  if (!ok)
    throw new Error(
      `Expected "${step.field}" to hold "${step.value}", but it holds "${await locator.inputValue()}"`,
    );
  return selector;
};

export const verifyInvalid: VerbAction<'verifyInvalid'> = async (kit, step) => {
  const { locator, selector } = await kit.find(step.field, 'field');
  const ok = await poll(() => fieldShowsError(locator), kit.timeout, kit.signal);
  if (!ok) throw new Error(`Expected "${step.field}" to show a validation error, but none is shown`);
  return selector;
};
