/**
 * What the exported tests share: how Argus finds what a step names, and the checks Playwright has no
 * single call for. Each helper does what Argus's engine does for the same step
 * (packages/engine/src/perform-step.ts and locate.ts in Argus), so this project's verdicts are Argus's.
 */
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export { expect };

/** What the page logged and failed to load since it last navigated, for the page-health checks. */
export interface PageHealth {
  consoleErrors: string[];
  failedRequests: string[];
}

/** What a visitor never sees: not a failure of the page-health checks. */
const UNSEEN = /\/(favicon\.ico|apple-touch-icon[^/]*\.png|site\.webmanifest)(\?|$)|\.map(\?|$)/;

export const test = base.extend<{ pageHealth: PageHealth }>({
  pageHealth: [
    async ({ page }, use) => {
      const health: PageHealth = { consoleErrors: [], failedRequests: [] };
      page.on('framenavigated', (frame) => {
        if (frame !== page.mainFrame()) return;
        health.consoleErrors.length = 0;
        health.failedRequests.length = 0;
      });
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        if (/Failed to load resource/.test(message.text()) && UNSEEN.test(message.location().url)) return;
        health.consoleErrors.push(`Console error on ${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) =>
        health.consoleErrors.push(`Uncaught exception on ${page.url()}: ${error.message}`),
      );
      page.on('requestfailed', (request) => {
        if (!UNSEEN.test(request.url()))
          health.failedRequests.push(`${request.url()} (${request.failure()?.errorText ?? 'failed'})`);
      });
      page.on('response', (response) => {
        if (response.status() >= 400 && !UNSEEN.test(response.url()))
          health.failedRequests.push(`${response.url()} answered ${response.status()}`);
      });
      await use(health);
    },
    { auto: true },
  ],
});

/** {{RUN_ID}}: six lowercase letters and digits, at least one of each, new for every test. */
export function makeRunId(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const digits = '0123456789';
  const pick = (from: string) => from[Math.floor(Math.random() * from.length)];
  const chars = [pick(letters), pick(digits), ...Array.from({ length: 4 }, () => pick(letters + digits))];
  return chars.sort(() => Math.random() - 0.5).join('');
}

type Role = Parameters<Page['getByRole']>[0];
type Root = Page | Locator;
/** What a target is for: 'text' prefers what a person reads, 'check' a checkbox or radio. */
type Kind = 'click' | 'text' | 'check' | 'any';

/** How long a step may look for its target: Argus's STEP_TIMEOUT_MS, as playwright.config.ts reads it. */
const STEP_TIMEOUT = Number(process.env.STEP_TIMEOUT_MS) || 10_000;

async function firstVisible(list: Locator[], timeout = STEP_TIMEOUT): Promise<Locator | null> {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const locator of list) {
      const visible = locator.filter({ visible: true });
      if ((await visible.count().catch(() => 0)) > 0) return visible.first();
    }
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function candidates(root: Root, name: string, kind: Kind, role?: Role): Locator[] {
  if (role) return [root.getByRole(role, { name, exact: true }), root.getByRole(role, { name })];
  const list: Locator[] = [];
  if (kind === 'check') {
    list.push(root.getByRole('checkbox', { name }), root.getByRole('radio', { name }), root.getByLabel(name));
  } else if (kind === 'text') {
    list.push(root.getByText(name, { exact: true }));
    for (const r of ['button', 'link'] as const) list.push(root.getByRole(r, { name, exact: true }));
    list.push(root.getByText(name), root.getByLabel(name, { exact: true }));
  } else {
    for (const r of ['button', 'link', 'tab', 'menuitem'] as const)
      list.push(root.getByRole(r, { name, exact: true }));
    list.push(root.getByRole('button', { name }), root.getByRole('link', { name }), root.getByLabel(name));
    list.push(root.getByText(name, { exact: true }), root.getByText(name));
  }
  if (/^([#.[]|[a-z]+[#.[:>])/i.test(name)) list.push(root.locator(name));
  return list;
}

/**
 * The element a step names in plain words (a button's or link's text, a label, a heading, any text),
 * the most specific match first; within a region when one is given. A button or link shown only while
 * its item is hovered is revealed the way a person would: by hovering the item.
 */
export async function target(
  page: Page,
  name: string,
  options: { kind?: Kind; role?: Role; within?: Locator } = {},
): Promise<Locator> {
  const { kind = 'click', role, within } = options;
  const list = candidates(within ?? page, name, kind, role);
  const now = await firstVisible(list, 0);
  if (now) return now;
  if (kind !== 'any') {
    const item = within ?? (kind === 'check' ? null : await hiddenControlItem(page, name, role));
    if (item) await item.hover();
  }
  const found = await firstVisible(list);
  if (found) return found;
  throw new Error(
    'No visible ' +
      (role ?? (kind === 'check' ? 'checkbox' : 'element')) +
      ' matching "' +
      name +
      '" on ' +
      page.url(),
  );
}

async function hiddenControlItem(page: Page, name: string, role?: Role): Promise<Locator | null> {
  for (const r of role ? [role] : (['button', 'link'] as const)) {
    const hidden = page.getByRole(r, { name, includeHidden: true }).filter({ visible: false });
    if ((await hidden.count().catch(() => 0)) === 0) continue;
    const item = hidden
      .first()
      .locator(
        'xpath=ancestor::*[self::li or self::tr or self::article or @role="listitem" or @role="row"][1]',
      )
      .filter({ visible: true });
    if ((await item.count().catch(() => 0)) > 0) return item.first();
  }
  return null;
}

/** A field by its label (exact, then containing), its placeholder, a text box's name, or its name attribute. */
export async function field(page: Page, name: string): Promise<Locator> {
  const found = await firstVisible([
    page.getByLabel(name, { exact: true }),
    page.getByLabel(name),
    page.getByPlaceholder(name),
    page.getByRole('textbox', { name }),
    page.locator(`[name="${name.replace(/["\\]/g, '\\$&')}"]`),
  ]);
  if (found) return found;
  throw new Error(`No visible field matching "${name}" on ${page.url()}`);
}

const REGIONS = [
  'li, [role="listitem"], tr, [role="row"], article, [role="article"]',
  '[role="group"], fieldset, form, dialog, [role="dialog"], [role="alertdialog"], section, [role="region"]',
  '[class*="item" i], [class*="row" i], [class*="card" i], [class*="entry" i], [class*="line-" i], [class*="-line" i]',
];

/**
 * The part of the page a step is limited to ('in "Buy milk"'): the innermost visible list item, row or
 * article showing the text, else a group, form, dialog or section; with `blocks`, else the smallest block.
 */
export async function region(page: Page, text: string, options: { blocks?: boolean } = {}): Promise<Locator> {
  const tiers = options.blocks ? [...REGIONS, 'div, header, footer, aside, nav, main, td, th'] : REGIONS;
  const found = await firstVisible(
    tiers.map((css) => {
      const holding = () => page.locator(css).filter({ hasText: text, visible: true });
      return holding().filter({ hasNot: holding() });
    }),
  );
  if (found) return found;
  throw new Error(
    'No visible region (list item, row, article, group, form, dialog or section) containing "' +
      text +
      '" on ' +
      page.url(),
  );
}

/** The first visible control of a role in a region (for a nameless icon button, the one without a name). */
export async function controlIn(within: Locator, role: Role): Promise<Locator> {
  const controls = within.getByRole(role).filter({ visible: true });
  if ((await controls.count()) === 0) await within.hover();
  await expect(controls.first()).toBeVisible();
  if (role !== 'button') return controls.first();
  const nameless = await controls.evaluateAll((els) =>
    els.findIndex(
      (el) =>
        !(el.textContent ?? '').trim() &&
        !el.getAttribute('aria-label') &&
        !el.getAttribute('aria-labelledby') &&
        !el.getAttribute('title') &&
        !(el instanceof HTMLInputElement && el.value),
    ),
  );
  return nameless > 0 ? controls.nth(nameless) : controls.first();
}

/**
 * Ticks or unticks a checkbox unless it already is as wanted, then waits until it is. Not
 * setChecked(): an app that redraws its list on a change replaces the element that was clicked.
 */
export async function setChecked(box: Locator, checked: boolean): Promise<void> {
  const handle = await box.elementHandle();
  const state = (e: Element) =>
    e instanceof HTMLInputElement ? e.checked : e.getAttribute('aria-checked') === 'true';
  if (!handle) throw new Error('The checkbox is gone');
  if ((await handle.evaluate(state)) !== checked) await handle.click();
  await expect
    .poll(async () => ((await box.count()) > 0 ? box.isChecked() : handle.evaluate(state)), {
      message: `Clicked the checkbox to ${checked ? 'check' : 'uncheck'} it`,
    })
    .toBe(checked);
}

/** The field that has focus, once an editable one has it (a text field, a text area, something contenteditable). */
export async function focusedField(page: Page): Promise<Locator> {
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          let e = document.activeElement;
          while (e?.shadowRoot?.activeElement) e = e.shadowRoot.activeElement;
          const plain = [
            'checkbox',
            'radio',
            'button',
            'submit',
            'reset',
            'file',
            'image',
            'range',
            'color',
            'hidden',
          ];
          return (
            !!e &&
            ((e as HTMLElement).isContentEditable ||
              (e instanceof HTMLInputElement && !plain.includes(e.type) && !e.readOnly && !e.disabled) ||
              (e instanceof HTMLTextAreaElement && !e.readOnly && !e.disabled))
          );
        }),
      { message: 'Expected a focused field' },
    )
    .toBe(true);
  return page.locator('*:focus').first();
}

/**
 * Whether an element is marked with a state: it, or an ancestor up to its item (li, tr, article, a
 * listitem or row), has the class `state` or `is-state`, aria-state="true" (aria-current: any value
 * but "false"), data-state or data-status equal to it, or the native state a person sees.
 */
export function isMarked(locator: Locator, state: string): Promise<boolean> {
  return locator.evaluate((target, wanted) => {
    const native: Record<string, string> = {
      disabled: ':disabled',
      enabled: ':enabled',
      checked: ':checked',
      selected: 'option:checked',
      open: '[open]',
      required: ':required',
      readonly: ':read-only:is(input, textarea)',
    };
    const s = wanted.trim().toLowerCase();
    const item = target.closest('li, tr, article, [role="listitem"], [role="row"]');
    const chain: Element[] = [];
    for (let e: Element | null = target; e; e = e.parentElement) {
      chain.push(e);
      if (!item || e === item) break;
    }
    return chain.some((e) => {
      const classes = [...e.classList].map((c) => c.toLowerCase());
      if (classes.includes(s) || classes.includes(`is-${s}`)) return true;
      const aria = /^[a-z]+$/.test(s) ? e.getAttribute(`aria-${s}`) : null;
      if (aria !== null && (s === 'current' ? aria.toLowerCase() !== 'false' : aria.toLowerCase() === 'true'))
        return true;
      if (native[s] && e.matches(native[s])) return true;
      return ['data-state', 'data-status'].some((a) => e.getAttribute(a)?.trim().toLowerCase() === s);
    });
  }, state);
}

/**
 * The number in each named table row (found by its first cell); null for a row not found or not
 * holding exactly one number. Money reads as its amount ("$1,250.50" is 1250.5).
 */
export function rowNumbers(page: Page, names: string[]): Promise<(number | null)[]> {
  return page.evaluate((wanted) => {
    const clean = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
    const rows = Array.from(document.querySelectorAll('tr, [role="row"]')).filter(
      (row) => (row as HTMLElement).offsetParent !== null || row.getClientRects().length > 0,
    );
    return wanted.map((name) => {
      const row = rows.find(
        (r) =>
          clean(r.querySelector('th, td, [role="rowheader"], [role="cell"]')?.textContent ?? null) ===
          clean(name),
      );
      if (!row) return null;
      const numbers =
        clean(row.textContent)
          .replace(clean(name), '')
          .match(/-?[\d.,]*\d/g) ?? [];
      return numbers.length === 1 ? Number(numbers[0].replace(/,/g, '')) : null;
    });
  }, names);
}

/** Whether the numbers of the `parts` rows add up to the `total` row's (to the cent). */
export async function rowsAddUp(page: Page, parts: string[], total: string): Promise<boolean> {
  const values = await rowNumbers(page, [...parts, total]);
  if (values.some((v) => v === null || !Number.isFinite(v))) return false;
  const numbers = values as number[];
  const sum = numbers.slice(0, -1).reduce((a, b) => a + b, 0);
  return Math.abs(sum - numbers[numbers.length - 1]) < 0.005;
}

/**
 * Whether the number shown with `text` ("3 open tickets", each word singular or plural) equals how
 * many visible rows have a cell reading `cell`.
 */
export async function countMatches(page: Page, text: string, cell: string): Promise<boolean> {
  const { shown, rows } = await countOf(page, text, cell);
  return shown !== null && shown === rows;
}

function countOf(page: Page, text: string, cell: string): Promise<{ shown: number | null; rows: number }> {
  return page.evaluate(
    ({ text, cell }) => {
      const clean = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();
      const shown = (el: Element) =>
        el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
      const words = clean(text)
        .split(' ')
        .map((w) => `${w.replace(/s$/i, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:e?s)?`);
      const pattern = new RegExp(`(?:^|\\D)(\\d+)\\s*${words.join('\\s+')}(?:$|[^\\p{L}])`, 'iu');
      let best: { length: number; n: number } | null = null;
      for (const el of Array.from(document.body.querySelectorAll('*'))) {
        if (el.closest('script, style, template') || !shown(el)) continue;
        const content = clean(el.textContent);
        if (content.length > 200) continue;
        const m = pattern.exec(content);
        if (m && (best === null || content.length < best.length))
          best = { length: content.length, n: Number(m[1]) };
      }
      const wanted = clean(cell).toLowerCase();
      const rows = Array.from(document.querySelectorAll('tr, [role="row"]')).filter(
        (row) =>
          shown(row) &&
          Array.from(row.querySelectorAll('td, th, [role="cell"], [role="gridcell"]')).some(
            (c) => clean(c.textContent).toLowerCase() === wanted,
          ),
      ).length;
      return { shown: best?.n ?? null, rows };
    },
    { text, cell },
  );
}

/** Whether a field shows a validation error: aria-invalid, a message tied to it, or the browser's own validation. */
export function showsValidationError(input: Locator): Promise<boolean> {
  return input.evaluate((el) => {
    const field = el as HTMLInputElement;
    if (field.getAttribute('aria-invalid') === 'true') return true;
    const visible = (node: Element | null) =>
      !!node && (node.textContent ?? '').trim() !== '' && (node as HTMLElement).offsetParent !== null;
    for (const attr of ['aria-describedby', 'aria-errormessage']) {
      for (const id of (field.getAttribute(attr) ?? '').split(/\s+/).filter(Boolean)) {
        if (visible(document.getElementById(id))) return true;
      }
    }
    if (field.form && !field.form.noValidate && field.validity && !field.validity.valid) return true;
    const scope = field.closest('label, .field, .form-group, p, div') ?? field.form;
    return (
      !!scope && Array.from(scope.querySelectorAll('[role="alert"], .error, .invalid-feedback')).some(visible)
    );
  });
}

/** Visible error messages (role="alert") and fields marked aria-invalid. */
export function visibleErrors(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('[role="alert"], [aria-invalid="true"]'))
      .filter(
        (el) =>
          el.getAttribute('aria-invalid') === 'true' ||
          ((el as HTMLElement).offsetParent !== null && (el.textContent ?? '').trim() !== ''),
      )
      .map((el) =>
        el.getAttribute('aria-invalid') === 'true'
          ? `Field "${el.getAttribute('name') ?? el.id}" is marked invalid`
          : `Error message shown: "${(el.textContent ?? '').trim()}"`,
      ),
  );
}

/** Same-origin links that answer 400 or more (HEAD, then GET when HEAD is refused; at most 50). */
export async function brokenLinks(page: Page): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const links = await page
    .locator('a[href]')
    .evaluateAll((as) =>
      as.map((a) => ({ text: (a.textContent ?? '').trim(), href: (a as HTMLAnchorElement).href })),
    );
  const seen = new Set<string>();
  const broken: string[] = [];
  for (const link of links) {
    const href = link.href.split('#')[0];
    if (!href.startsWith(origin) || seen.has(href) || seen.size >= 50) continue;
    seen.add(href);
    let status = await page.request.head(href).then(
      (r) => r.status(),
      () => 0,
    );
    if (status === 0 || status === 405 || status === 501)
      status = await page.request.get(href).then(
        (r) => r.status(),
        () => 0,
      );
    if (status === 0 || status >= 400)
      broken.push(`Broken link "${link.text}" → ${href} answered ${status || 'nothing'}`);
  }
  return broken;
}

/** Images without an alt attribute (an empty one is fine: decorative). */
export function imagesWithoutAlt(page: Page): Promise<string[]> {
  return page
    .locator('img:not([alt])')
    .evaluateAll((imgs) => imgs.map((img) => `Image without alt text: ${img.getAttribute('src')}`));
}

/** Whether the page is wider than its viewport. */
export function horizontalOverflow(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}

/**
 * Signs in the way a person would: opens the sign-in page, types the username into the text field
 * before the visible password field, the password into that, presses Enter (clicking the form's button
 * if Enter does nothing), and types a one-time code when the next page asks for one.
 */
export async function signIn(
  page: Page,
  login: { url: string; username: string; password: string; code?: () => string },
): Promise<void> {
  const response = await page.goto(login.url);
  expect(response?.status() ?? 200, 'the sign-in page answers').toBeLessThan(400);
  const password = page.locator('input[type="password"]').filter({ visible: true }).first();
  await expect(password, 'a password field on the sign-in page').toBeVisible();
  const username = password.locator(
    'xpath=preceding::input[not(@type) or @type="text" or @type="email" or @type="tel"][1]',
  );
  if ((await username.count()) > 0 && (await username.isVisible())) await username.fill(login.username);
  await password.fill(login.password);
  await submit(page, password);
  const code = page
    .locator(
      'input[autocomplete="one-time-code"], input[name*="code" i], input[id*="code" i], input[name*="otp" i]',
    )
    .filter({ visible: true })
    .first();
  await expect
    .poll(async () => (await password.isVisible()) === false || (await code.isVisible()), {
      message: 'Still on the sign-in page after submitting the username and password',
    })
    .toBe(true);
  if (await code.isVisible()) {
    if (!login.code)
      throw new Error('The site asks for a two-factor code, and the login names no TOTP secret');
    await code.fill(login.code());
    await submit(page, code);
    await expect(code, 'the two-factor code is accepted').toBeHidden();
  }
  await expect(password, 'signed in: the sign-in form is gone').toBeHidden();
}

/** Presses Enter in a field, then clicks its form's button if the page did not move on. */
async function submit(page: Page, input: Locator): Promise<void> {
  const before = page.url();
  await input.press('Enter');
  await page.waitForTimeout(300);
  if (page.url() !== before || !(await input.isVisible())) return;
  const button = input.locator('xpath=ancestor::form[1]').locator('button, input[type="submit"]').first();
  if ((await button.count()) > 0) await button.click();
}
