import type { ElementKey } from '@argus/protocol';
import type { Locator } from 'playwright-core';
import { untraced } from './recording/untraced';

/**
 * The stable attributes of an element a step acted on: its `id`, its form field `name` (what the form
 * posts: a server's contract, kept when a redesign renames the label), its `data-testid` and, for a
 * link, where it leads on the same site (a route, kept when a redesign renames the nav). A repair
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
}

/** Ids and names of up to 80 characters, starting with a letter, with no run of 3 digits or more. */
const STABLE = /^[A-Za-z][\w.:[\]-]{0,79}$/;
const GENERATED = /\d{3,}|^[a-f0-9]{8}-|^(?:ember|ext-gen|react-|mui-|radix-|headlessui-)/i;

function stable(value: string): string | undefined {
  const trimmed = value.trim();
  return STABLE.test(trimmed) && !GENERATED.test(trimmed) ? trimmed : undefined;
}

/** The stable part of an element's attributes, or null when none is stable. */
export function elementKey(raw: RawKey): ElementKey | null {
  const key: ElementKey = {};
  const id = stable(raw.id);
  const name = stable(raw.name);
  const testid = raw.testid.trim().slice(0, 200);
  if (id) key.id = id;
  if (name) key.name = name;
  if (testid) key.testid = testid;
  // Not one item's address (`/expenses/4`, `?page=2`): a digit anywhere makes it the item's, not the
  // control's; a query holding a token holds digits too.
  if (raw.href && raw.href.length <= 200 && !/\d/.test(raw.href)) key.href = raw.href;
  return Object.keys(key).length > 0 ? key : null;
}

/** The key of the element a locator points at, read out of any trace; null when it has none or is gone. */
export async function readElementKey(locator: Locator): Promise<ElementKey | null> {
  const raw = await untraced(locator, () =>
    locator.evaluate(
      (element) => {
        const formControl = ['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(element.tagName);
        return {
          id: element.id ?? '',
          name: formControl ? (element.getAttribute('name') ?? '') : '',
          testid: element.getAttribute('data-testid') ?? element.getAttribute('data-test-id') ?? '',
          // Where a link leads on the same site (page-controls.ts reads it alike).
          href:
            element instanceof HTMLAnchorElement &&
            element.hasAttribute('href') &&
            element.origin === location.origin
              ? `${element.pathname}${element.search}${element.hash}`
              : '',
        };
      },
      undefined,
      { timeout: 500 },
    ),
  ).catch(() => null);
  return raw ? elementKey(raw) : null;
}

/** A key without any value that holds a secret (such a value is left out, not masked); null when none is left. */
export function keyWithoutSecrets(key: ElementKey, hide: (text: string) => string): ElementKey | null {
  const kept = Object.fromEntries(Object.entries(key).filter(([, value]) => value && hide(value) === value));
  return Object.keys(kept).length > 0 ? (kept as ElementKey) : null;
}
