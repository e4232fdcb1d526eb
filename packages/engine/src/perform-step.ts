import { pluralRole, type Step, type TargetRole, viewportProblem } from '@argus/protocol';
import type { Locator, Page } from 'playwright-core';
import { AbortedError } from './errors';
import { hiddenControlItem, locate, locateRegion, type Region, type TargetKind } from './locate';
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
  /** The session's own clipboard (copy and paste chords never reach the browser's shared one). */
  clipboard?: SessionClipboard;
}

/** Performs one step of the step language on the page; answers the selector it used, if any. */
export async function performStep(ctx: StepContext, step: Step): Promise<string | null> {
  const { page, tracker, timeout, signal, beforeChange } = ctx;
  const clipboard = ctx.clipboard ?? new SessionClipboard();
  const deadline = Date.now() + timeout;
  /** What is left of the step's timeout (a region and its target share it); never 0, Playwright's "no limit". */
  const left = () => Math.max(1, deadline - Date.now());
  const find = (target: string, kind: TargetKind, role?: TargetRole, within?: Region) =>
    locate(page, target, kind, left(), role, signal, within);
  const regionOf = async (name: string | undefined) =>
    name === undefined ? undefined : locateRegion(page, name, left(), signal);
  const inName = (within?: Region) => (within ? ` in "${within.name}"` : '');
  /**
   * A control in a region, revealed the way a person would: when it is not visible yet (a delete
   * button shown only on hover), the mouse moves over the region first.
   */
  const findRevealing = async (target: string, kind: TargetKind, role?: TargetRole, within?: Region) => {
    const now = await locate(page, target, kind, 0, role, signal, within).catch((error: unknown) => {
      if (error instanceof AbortedError) throw error;
      return null;
    });
    if (now) return now;
    // Without a region: a button or link that is there but hidden, in an item, is revealed by its item.
    const item = within?.locator ?? (kind === 'check' ? null : await hiddenControlItem(page, target, role));
    if (item) {
      await beforeChange();
      await item.hover({ timeout: left() });
    }
    return find(target, kind, role, within);
  };
  /** The first visible control of `role` in a region, revealed by hovering the region if need be. */
  const roleIn = async (within: Region, role: TargetRole) => {
    const boxes = within.locator.getByRole(role).filter({ visible: true });
    let hovered = false;
    const ok = await poll(
      async () => {
        if ((await boxes.count()) > 0) return true;
        if (!hovered) {
          hovered = true;
          await beforeChange();
          await within.locator.hover({ timeout: left() });
        }
        return false;
      },
      left(),
      signal,
    );
    if (!ok) throw new Error(`No visible ${role} in "${within.name}" on ${page.url()}`);
    // "The button in <row>" names the one with no name of its own (an icon) when the row also has
    // named ones ("Mark as paid"): those are named by their text.
    if (role !== 'button') return { locator: boxes.first(), selector: `${within.selector} >> role=${role}` };
    const nameless = await boxes.evaluateAll((els) =>
      els.findIndex(
        (el) =>
          !(el.textContent ?? '').trim() &&
          !el.getAttribute('aria-label') &&
          !el.getAttribute('aria-labelledby') &&
          !el.getAttribute('title') &&
          !(el instanceof HTMLInputElement && el.value),
      ),
    );
    if (nameless <= 0) return { locator: boxes.first(), selector: `${within.selector} >> role=${role}` };
    return {
      locator: boxes.nth(nameless),
      selector: `${within.selector} >> role=${role} >> nth=${nameless}`,
    };
  };
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
      // A control with no name is found by its place: in a region, else in the block holding the text.
      const within =
        step.target === undefined && step.region !== undefined
          ? await locateRegion(page, step.region, left(), signal, true)
          : await regionOf(step.region);
      const { locator, selector } =
        step.target === undefined && within
          ? await roleIn(within, step.role ?? 'button')
          : await findRevealing(step.target ?? '', 'click', step.role, within);
      await beforeChange();
      await locator.click({ timeout: left() });
      await page.waitForLoadState('domcontentloaded', { timeout: left() }).catch(() => {});
      return selector;
    }
    case 'doubleClick': {
      const within = await regionOf(step.region);
      const { locator, selector } = await findRevealing(step.target, 'text', undefined, within);
      await beforeChange();
      await locator.dblclick({ timeout: left() });
      return selector;
    }
    case 'hover': {
      const within = await regionOf(step.region);
      const { locator, selector } = await find(step.target, 'any', undefined, within);
      await beforeChange();
      await locator.hover({ timeout: left() });
      return selector;
    }
    case 'type': {
      await focusedField(page, `type "${step.value}" into`, left(), signal);
      refuseChording(clipboard);
      await beforeChange();
      await page.keyboard.type(step.value);
      return null;
    }
    case 'fillFocused': {
      await focusedField(page, `fill with "${step.value}"`, left(), signal);
      await beforeChange();
      await page.locator('*:focus').first().fill(step.value, { timeout: left() });
      return ':focus';
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
      const within = await regionOf(step.region);
      const { locator, selector } =
        step.target === undefined && within
          ? await roleIn(within, 'checkbox')
          : await findRevealing(step.target ?? '', 'check', undefined, within);
      await beforeChange();
      await setChecked(page, locator, step.checked, left(), signal);
      return selector;
    }
    case 'press': {
      // Copy, cut and paste use the session's clipboard, never the browser's (shared by every user).
      const action = clipboardAction(step.key, clipboard.held);
      if (step.field) {
        const { locator, selector } = await find(step.field, 'field');
        await beforeChange();
        if (action) {
          await locator.focus({ timeout });
          await performClipboard(page, clipboard, action);
          return selector;
        }
        await locator.press(step.key, { timeout });
        await page.waitForLoadState('domcontentloaded', { timeout }).catch(() => {});
        return selector;
      }
      await beforeChange();
      if (action) {
        await performClipboard(page, clipboard, action);
        return null;
      }
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
    case 'viewport': {
      // Steps built by a planner or a chat reach here without the parser: the limit holds all the same.
      const problem = viewportProblem(step.width, step.height);
      if (problem) throw new Error(problem);
      await beforeChange();
      await page.setViewportSize({ width: step.width, height: step.height });
      return null;
    }
    case 'screenshot':
      return null;
    case 'verifyText': {
      const within = await regionOf(step.region);
      const root = within?.locator ?? page;
      const ok = await visibility(root.getByText(step.text), step.visible, left(), signal);
      if (!ok)
        throw new Error(
          `Expected the text "${step.text}" ${step.visible ? 'to be' : 'not to be'} visible${inName(within)} on ${page.url()}`,
        );
      return within ? `${within.selector} >> text*="${step.text}"` : `text*="${step.text}"`;
    }
    case 'verifyElement': {
      const within = await regionOf(step.region);
      const root = within?.locator ?? page;
      const ok = await visibility(
        root.getByRole(step.role, { name: step.name }),
        step.visible,
        left(),
        signal,
      );
      if (!ok) {
        throw new Error(
          `Expected a ${step.role} named "${step.name}" ${step.visible ? 'to be' : 'not to be'} visible${inName(within)} on ${page.url()}`,
        );
      }
      const selector = `role=${step.role}[name*="${step.name}"]`;
      return within ? `${within.selector} >> ${selector}` : selector;
    }
    case 'verifyExactCount': {
      const within = await regionOf(step.region);
      const locator = (within?.locator ?? page).getByRole(step.role).filter({ visible: true });
      const ok = await poll(async () => (await locator.count()) === step.count, left(), signal);
      if (!ok) {
        const found = await locator.count();
        const what = step.count === 1 ? step.role : pluralRole(step.role);
        throw new Error(
          `Expected exactly ${step.count} ${what} to be visible${inName(within)}, found ${found} on ${page.url()}`,
        );
      }
      return within ? `${within.selector} >> role=${step.role}` : `role=${step.role}`;
    }
    case 'verifyChecked': {
      const within = await regionOf(step.region);
      const { locator, selector } =
        step.target === undefined && within
          ? await roleIn(within, 'checkbox')
          : await find(step.target ?? '', 'check', undefined, within);
      const ok = await poll(async () => (await locator.isChecked()) === step.checked, left(), signal);
      if (!ok) {
        const what = step.target === undefined ? 'the checkbox' : `"${step.target}"`;
        const is = await locator.isChecked().then(
          (c) => (c ? 'it is checked' : 'it is not checked'),
          () => 'it is gone',
        );
        throw new Error(
          `Expected ${what}${inName(within)} ${step.checked ? 'to be' : 'not to be'} checked, but ${is} on ${page.url()}`,
        );
      }
      return selector;
    }
    case 'verifyState': {
      const within = await regionOf(step.region);
      const { locator, selector } = await find(step.target, 'text', step.role, within);
      let last: Marks | null = null;
      const ok = await poll(
        async () => {
          last = await locator.evaluate(marks, step.state, { timeout: left() });
          return last.marked === step.marked;
        },
        left(),
        signal,
      );
      if (!ok) {
        const seen = (last as Marks | null)?.chain ?? 'the element is gone';
        throw new Error(
          `Expected "${step.target}"${inName(within)} ${step.marked ? 'to be' : 'not to be'} marked "${step.state}", ` +
            `but it ${step.marked ? 'is not' : 'is'} (${seen}) on ${page.url()}`,
        );
      }
      return selector;
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
    case 'verifyCountOf': {
      let seen = { shown: null as number | null, rows: 0 };
      for (;;) {
        if (signal?.aborted) throw new AbortedError();
        seen = await countOf(page, step.text, step.cell);
        if (seen.shown === seen.rows || Date.now() >= deadline) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      if (seen.shown === null)
        throw new Error(`Expected a number shown with "${step.text}", but found none on ${page.url()}`);
      if (seen.shown !== seen.rows)
        throw new Error(
          `Expected the number in "${step.text}" (${seen.shown}) to count the rows showing "${step.cell}" (${seen.rows}) on ${page.url()}`,
        );
      return 'tr';
    }
    case 'verifySum': {
      // Polled like the other checks: a summary drawn after its data arrives gets the step's time.
      let problem = '';
      for (;;) {
        if (signal?.aborted) throw new AbortedError();
        problem = sumProblem(await rowNumbers(page, [...step.parts, step.total]), step.parts, step.total);
        if (problem === '' || Date.now() >= deadline) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      if (problem) throw new Error(`${problem} on ${page.url()}`);
      return 'tr';
    }
    case 'verifyAccessibility':
      fail(await accessibilityViolations(page));
      return null;
    default: {
      const never: never = step;
      throw new Error(`Unsupported step ${(never as Step).verb}`);
    }
  }
}

/**
 * Waits until an editable element has focus (a field, a text area, something contenteditable), else
 * fails naming what has focus instead.
 */
async function focusedField(page: Page, doing: string, timeout: number, signal: AbortSignal): Promise<void> {
  const focused = () =>
    page.evaluate(() => {
      let e = document.activeElement;
      while (e?.shadowRoot?.activeElement) e = e.shadowRoot.activeElement;
      if (!e || e === document.body || e === document.documentElement)
        return { editable: false, what: 'nothing' };
      const el = e as HTMLElement;
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
      const editable =
        el.isContentEditable ||
        (el instanceof HTMLInputElement && !plain.includes(el.type) && !el.readOnly && !el.disabled) ||
        (el instanceof HTMLTextAreaElement && !el.readOnly && !el.disabled);
      const labelled = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent;
      const name = (labelled ?? el.textContent ?? '').trim().slice(0, 40);
      const type = el instanceof HTMLInputElement ? `[type=${el.type}]` : '';
      return { editable, what: `<${el.tagName.toLowerCase()}${type}>${name ? ` "${name}"` : ''}` };
    });
  let last = { editable: false, what: 'nothing' };
  const ok = await poll(
    async () => {
      last = await focused();
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
  const state = (e: Element) =>
    e instanceof HTMLInputElement ? e.checked : e.getAttribute('aria-checked') === 'true';
  const deadline = Date.now() + timeout;
  const left = () => Math.max(1, deadline - Date.now());
  // The handle is taken again when the page re-rendered the checkbox between finding and clicking it
  // (a list redrawn after a filter link): that element is gone, its replacement is the one to click.
  let handle = await locator.elementHandle({ timeout: left() });
  for (let attempt = 1; ; attempt++) {
    try {
      if ((await handle.evaluate(state)) === checked) {
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
        ((await locator.count()) > 0 ? await locator.isChecked() : await handle.evaluate(state)) === checked,
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

interface Marks {
  marked: boolean;
  /** The elements looked at, from the item down to the target, with their classes and states. */
  chain: string;
}

/**
 * Whether an element is "marked" with a state (runs in the page): it, or an ancestor up to its
 * nearest item container (li, tr, article, listitem, row), has a class `<state>` or `is-<state>`,
 * `aria-<state>="true"` (`aria-current`: any value but "false"), or `data-state`/`data-status` equal to
 * the state; case-insensitive.
 */
function marks(target: Element, state: string): Marks {
  // Defined here, not at module level: this function runs inside the page.
  const NATIVE_STATES: Record<string, string> = {
    disabled: ':disabled',
    enabled: ':enabled',
    checked: ':checked',
    selected: 'option:checked',
    open: '[open]',
    required: ':required',
    readonly: ':read-only:is(input, textarea)',
  };
  const s = state.trim().toLowerCase();
  const item = target.closest('li, tr, article, [role="listitem"], [role="row"]');
  const chain: Element[] = [];
  for (let e: Element | null = target; e; e = e.parentElement) {
    chain.push(e);
    if (!item || e === item) break;
  }
  const isMarked = (e: Element) => {
    const classes = [...e.classList].map((c) => c.toLowerCase());
    if (classes.includes(s) || classes.includes(`is-${s}`)) return true;
    const aria = /^[a-z]+$/.test(s) ? e.getAttribute(`aria-${s}`) : null;
    if (aria !== null && (s === 'current' ? aria.toLowerCase() !== 'false' : aria.toLowerCase() === 'true')) {
      return true;
    }
    // Native states a person sees (a greyed-out button, an open disclosure) count as marks too.
    const native = NATIVE_STATES[s];
    if (native && e.matches(native)) return true;
    return ['data-state', 'data-status'].some((a) => e.getAttribute(a)?.trim().toLowerCase() === s);
  };
  const describe = (e: Element) => {
    const classes = [...e.classList].map((c) => `.${c}`).join('');
    const states = [...e.attributes]
      .filter(
        (a) =>
          a.name.startsWith('aria-') ||
          ['data-state', 'data-status', 'disabled', 'open', 'readonly', 'required'].includes(a.name),
      )
      .filter((a) => a.name !== 'aria-label' && a.name !== 'aria-labelledby' && a.name !== 'aria-describedby')
      .map((a) => `[${a.name}="${a.value}"]`)
      .join('');
    return `${e.tagName.toLowerCase()}${classes}${states}`;
  };
  return {
    marked: chain.some(isMarked),
    chain: chain.reverse().map(describe).join(' > '),
  };
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

/** Typing while Control or Meta is held down would send chords (Control+v pastes): refused. */
export function refuseChording(clipboard: SessionClipboard): void {
  if (clipboard.chording)
    throw new Error('Control or Meta is held down: release it (a key "up" event) before typing text');
}

/** What a key chord does with the clipboard, in Chromium's editing keys. */
export type ClipboardAction = 'copy' | 'cut' | 'paste';

const MODIFIERS = new Set(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift']);
/** Longest text a session's clipboard keeps (characters); a longer copy keeps its start. */
const MAX_CLIPBOARD = 1_000_000;

/**
 * A session's own clipboard. One Chromium serves every user, and its clipboard is one for all of
 * them: what user A copied, user B's Control+V pasted. So no copy, cut or paste chord ever reaches the
 * browser: copying reads the selection through the page and keeps it here; pasting inserts what is
 * kept here. The system clipboard is never read (pages cannot read it either: the permission stays
 * denied and `execCommand('paste')` is off).
 */
export class SessionClipboard {
  text = '';
  /** Modifier keys held down by separate key events (a `down` without its `up` yet). */
  readonly held = new Set<string>();

  /** Follows modifier keys going down and up, so a later `v` knows Control is held. */
  track(type: 'down' | 'up' | 'press', key: string): void {
    if (!MODIFIERS.has(key)) return;
    if (type === 'down') this.held.add(key);
    else if (type === 'up') this.held.delete(key);
  }

  /** Whether Control or Meta is held: typed characters would then be chords (Control+v pastes). */
  get chording(): boolean {
    return ['Control', 'Meta', 'ControlOrMeta'].some((k) => this.held.has(k));
  }
}

/**
 * The clipboard action of a key or chord in Playwright's syntax (`Control+C`, `Shift+Insert`,
 * `ControlOrMeta+KeyV`) with the modifiers already held, or null: Control or Meta with C, X or V (and
 * Shift or Alt besides: Control+Shift+V pastes as plain text), Control+Insert, Shift+Insert,
 * Shift+Delete.
 */
export function clipboardAction(key: string, held: ReadonlySet<string> = new Set()): ClipboardAction | null {
  const parts = key.split('+');
  let main = parts.pop() ?? '';
  if (main === '' && parts.at(-1) === '') {
    // `Control++`: the key is '+' itself.
    parts.pop();
    main = '+';
  }
  const mods = new Set([...parts, ...held]);
  const ctrl = mods.has('Control') || mods.has('Meta') || mods.has('ControlOrMeta');
  const shift = mods.has('Shift');
  const name = /^Key[A-Z]$/.test(main)
    ? main.slice(3).toLowerCase()
    : main.length === 1
      ? main.toLowerCase()
      : main;
  if (ctrl && name === 'c') return 'copy';
  if (ctrl && name === 'x') return 'cut';
  if (ctrl && name === 'v') return 'paste';
  if (name === 'Insert' && ctrl) return 'copy';
  if (name === 'Insert' && shift) return 'paste';
  if (name === 'Delete' && shift) return 'cut';
  return null;
}

/**
 * Carries out a clipboard chord on the page's focused frame, with the session's clipboard: the page
 * gets its `copy`/`cut`/`paste` event first (with the session's text in it), and a handler that takes
 * the event over (`preventDefault`) decides, as it would with a real clipboard.
 */
export async function performClipboard(page: Page, clipboard: SessionClipboard, action: ClipboardAction) {
  const frame = await focusedFrame(page);
  if (action === 'paste') {
    const taken = await frame.evaluate(dispatchPaste, clipboard.text);
    if (!taken && clipboard.text) await page.keyboard.insertText(clipboard.text);
    return;
  }
  const copied = await frame.evaluate(copySelection, action === 'cut');
  if (copied !== null) clipboard.text = copied.slice(0, MAX_CLIPBOARD);
}

/** The frame whose document has the focus (a field in an iframe), else the main frame. */
async function focusedFrame(page: Page) {
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const focused = await frame
      .evaluate(() => document.hasFocus() && !(document.activeElement instanceof HTMLIFrameElement))
      .catch(() => false);
    if (focused) return frame;
  }
  return page.mainFrame();
}

/**
 * Runs in the page: the selected text (of the focused field, else of the document), after the page's
 * `copy`/`cut` handler had its say; a cut then deletes the selection of an editable field. Null when
 * nothing is copied (nothing selected, or a password field, as browsers do).
 */
function copySelection(cut: boolean): string | null {
  let e = document.activeElement;
  while (e?.shadowRoot?.activeElement) e = e.shadowRoot.activeElement;
  const field = e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement ? e : null;
  if (field instanceof HTMLInputElement && field.type === 'password') return null;
  let text: string;
  if (field) {
    const start = field.selectionStart ?? 0;
    const end = field.selectionEnd ?? field.value.length;
    text = field.value.slice(start, end);
  } else text = document.getSelection()?.toString() ?? '';
  const data = new DataTransfer();
  const event = new ClipboardEvent(cut ? 'cut' : 'copy', {
    clipboardData: data,
    bubbles: true,
    cancelable: true,
    composed: true,
  });
  (e ?? document).dispatchEvent(event);
  if (event.defaultPrevented) return data.getData('text/plain');
  const editable = field ? !field.readOnly && !field.disabled : (e as HTMLElement | null)?.isContentEditable;
  if (cut && editable && text) document.execCommand('delete');
  // Nothing selected: a browser leaves its clipboard as it was.
  return text || null;
}

/** Runs in the page: a `paste` event carrying the session's text; answers whether the page took it over. */
function dispatchPaste(text: string): boolean {
  let e = document.activeElement;
  while (e?.shadowRoot?.activeElement) e = e.shadowRoot.activeElement;
  const data = new DataTransfer();
  data.setData('text/plain', text);
  const event = new ClipboardEvent('paste', {
    clipboardData: data,
    bubbles: true,
    cancelable: true,
    composed: true,
  });
  (e ?? document).dispatchEvent(event);
  return event.defaultPrevented;
}

/**
 * The number of each named row on the page: a table row (or role=row) whose first cell reads the name
 * (case and spacing aside), and the one number in the rest of its text; null for a row not found or
 * not holding exactly one number. Money reads as its amount ("$1,250.50" is 1250.5).
 */
function rowNumbers(page: Page, names: string[]): Promise<(number | null)[]> {
  return page.evaluate((wanted: string[]) => {
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
      const rest = clean(row.textContent).replace(clean(name), '');
      const numbers = rest.match(/-?[\d.,]*\d/g) ?? [];
      if (numbers.length !== 1) return null;
      return Number(numbers[0].replace(/,/g, ''));
    });
  }, names);
}

/** What is wrong with `parts` adding up to `total`, in words; '' when they do. */
function sumProblem(values: (number | null)[], parts: string[], total: string): string {
  const names = [...parts, total];
  const missing = names.filter((_, i) => values[i] === null || !Number.isFinite(values[i]));
  if (missing.length > 0)
    return `Expected rows ${names.map((n) => `"${n}"`).join(', ')} each with one number, but found none for ${missing.map((n) => `"${n}"`).join(', ')}`;
  const numbers = values as number[];
  const sum = numbers.slice(0, -1).reduce((a, b) => a + b, 0);
  const expected = numbers[numbers.length - 1];
  if (Math.abs(sum - expected) < 0.005) return '';
  return `Expected ${parts.map((p) => `"${p}"`).join(' + ')} (${numbers.slice(0, -1).join(' + ')} = ${Math.round(sum * 100) / 100}) to add up to "${total}" (${expected})`;
}

/**
 * The number shown with `text` (the smallest visible element reading "<n> <text>", each word singular
 * or plural), and how many visible rows have a cell reading `cell` (case and spacing aside).
 */
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
