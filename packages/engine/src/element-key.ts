import type { ElementKey } from '@argus/protocol';
import type { Locator } from 'playwright-core';
import { untraced } from './recording/untraced';

/**
 * The stable attributes of an element a step acted on: its `id`, its form field `name` (what the form
 * posts: a server's contract, kept when a redesign renames the label), its `data-testid`, and where a
 * link or a form's submit button leads on the same site (a route, kept when a redesign renames the nav
 * or the button), with the landmark it sits in to tell two such apart. A repair
 * recognises the element by them after a redesign (repair/candidates.ts). Only attributes that look
 * written by a person count: a generated id (`:r3:`, `ember412`, a UUID, a long number) changes from
 * one render to the next and says nothing.
 */

/** The raw attributes as the page has them (`name` only of a form control). */
export interface RawKey {
  id: string;
  name: string;
  testid: string;
  /** A same-origin link's path, query and fragment; '' for anything else. */
  href: string;
  /** A submit button's form, as its method and same-origin address (`post /mark-all-paid`); else ''. */
  action: string;
  /** The landmark it sits in (`navigation`, `banner`, `main`…), or ''. */
  landmark: string;
}

/** Ids and names of up to 80 characters, starting with a letter, with no run of 3 digits or more. */
const STABLE = /^[A-Za-z][\w.:[\]-]{0,79}$/;
const GENERATED = /\d{3,}|^[a-f0-9]{8}-|^(?:ember|ext-gen|react-|mui-|radix-|headlessui-)/i;

function stable(value: string): string | undefined {
  const trimmed = value.trim();
  return STABLE.test(trimmed) && !GENERATED.test(trimmed) ? trimmed : undefined;
}

/**
 * An address that is a control's, not one item's (`/expenses/4`, `?page=2`): no digit anywhere (a
 * query holding a token holds digits too).
 */
function route(value: string): string | undefined {
  return value && value.length <= 200 && !/\d/.test(value) ? value : undefined;
}

/** The stable part of an element's attributes, or null when none is stable. */
export function elementKey(raw: RawKey): ElementKey | null {
  const key: ElementKey = {};
  const id = stable(raw.id);
  const name = stable(raw.name);
  const testid = raw.testid.trim().slice(0, 200);
  const href = route(raw.href);
  const action = route(raw.action);
  if (id) key.id = id;
  if (name) key.name = name;
  if (testid) key.testid = testid;
  if (href) key.href = href;
  if (action) key.action = action;
  if (Object.keys(key).length === 0) return null;
  // Only beside another attribute: it tells two controls apart, it never finds one.
  if (raw.landmark) key.landmark = raw.landmark;
  return key;
}

/**
 * Reads each element's raw attributes in the page. Self-contained: Playwright sends its source to the
 * page (`locator.evaluateAll(rawKeysOf)`), so it may use nothing from this module.
 */
export function rawKeysOf(elements: Element[]): RawKey[] {
  const LANDMARK_TAGS: Record<string, string> = {
    NAV: 'navigation',
    HEADER: 'banner',
    FOOTER: 'contentinfo',
    ASIDE: 'complementary',
    MAIN: 'main',
  };
  const LANDMARKS =
    'nav, header, footer, aside, main, [role=navigation], [role=banner], [role=contentinfo], [role=complementary], [role=main], [role=search]';
  const sameSite = (address: string): string => {
    try {
      const url = new URL(address, location.href);
      return url.origin === location.origin ? `${url.pathname}${url.search}${url.hash}` : '';
    } catch {
      return '';
    }
  };
  return elements.map((element) => {
    const formControl = ['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(element.tagName);
    const link = element instanceof HTMLAnchorElement && element.hasAttribute('href');
    const submit =
      (element instanceof HTMLButtonElement || element instanceof HTMLInputElement) &&
      element.type === 'submit' &&
      element.form !== null &&
      (element.hasAttribute('formaction') || element.form.hasAttribute('action'));
    const method = submit ? (element.getAttribute('formmethod') ?? element.form?.method ?? 'get') : '';
    const to = submit ? sameSite((element as HTMLButtonElement).formAction).replace(/#.*$/, '') : '';
    const landmark = element.closest(LANDMARKS);
    return {
      id: element.id ?? '',
      name: formControl ? (element.getAttribute('name') ?? '') : '',
      testid: element.getAttribute('data-testid') ?? element.getAttribute('data-test-id') ?? '',
      href: link ? sameSite((element as HTMLAnchorElement).href) : '',
      action: to ? `${method.toLowerCase()} ${to}` : '',
      landmark: landmark ? (landmark.getAttribute('role') ?? LANDMARK_TAGS[landmark.tagName] ?? '') : '',
    };
  });
}

/** The key of the element a locator points at, read out of any trace; null when it has none or is gone. */
export async function readElementKey(locator: Locator): Promise<ElementKey | null> {
  const raw = await untraced(locator, () => locator.evaluateAll(rawKeysOf)).catch(() => null);
  return raw?.[0] ? elementKey(raw[0]) : null;
}

/** A key without any value that holds a secret (such a value is left out, not masked); null when none is left. */
export function keyWithoutSecrets(key: ElementKey, hide: (text: string) => string): ElementKey | null {
  const kept = Object.fromEntries(Object.entries(key).filter(([, value]) => value && hide(value) === value));
  return Object.keys(kept).length > 0 ? (kept as ElementKey) : null;
}
