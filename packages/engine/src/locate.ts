import type { TargetRole } from '@argus/protocol';
import type { Locator, Page } from 'playwright-core';
import { AbortedError } from './errors';

export type TargetKind = 'click' | 'field' | 'check' | 'any';

const CSS_LIKE = /^([#.[]|[a-z]+[#.[:>])/i;

/** Candidate locators for a target named in plain words, most specific first. */
function candidates(page: Page, target: string, kind: TargetKind, role?: TargetRole): [string, Locator][] {
  const list: [string, Locator][] = [];
  if (role) {
    list.push([`role=${role}[name="${target}" exact]`, page.getByRole(role, { name: target, exact: true })]);
    list.push([`role=${role}[name*="${target}"]`, page.getByRole(role, { name: target })]);
    return list;
  }
  if (kind === 'field') {
    list.push([`label="${target}"`, page.getByLabel(target, { exact: true })]);
    list.push([`label*="${target}"`, page.getByLabel(target)]);
    list.push([`placeholder="${target}"`, page.getByPlaceholder(target)]);
    list.push([`role=textbox[name*="${target}"]`, page.getByRole('textbox', { name: target })]);
    list.push([`[name="${target}"]`, page.locator(`[name="${CSS.escape(target)}"]`)]);
  } else if (kind === 'check') {
    list.push([`role=checkbox[name="${target}"]`, page.getByRole('checkbox', { name: target })]);
    list.push([`role=radio[name="${target}"]`, page.getByRole('radio', { name: target })]);
    list.push([`label="${target}"`, page.getByLabel(target)]);
  } else {
    for (const r of ['button', 'link', 'tab', 'menuitem'] as const) {
      list.push([`role=${r}[name="${target}" exact]`, page.getByRole(r, { name: target, exact: true })]);
    }
    list.push([`role=button[name*="${target}"]`, page.getByRole('button', { name: target })]);
    list.push([`role=link[name*="${target}"]`, page.getByRole('link', { name: target })]);
    list.push([`label="${target}"`, page.getByLabel(target)]);
    list.push([`text="${target}"`, page.getByText(target, { exact: true })]);
    list.push([`text*="${target}"`, page.getByText(target)]);
  }
  if (CSS_LIKE.test(target)) list.push([target, page.locator(target)]);
  return list;
}

// A tiny CSS.escape for Node (the browser's is not here).
const CSS = { escape: (s: string) => s.replace(/["\\]/g, '\\$&') };

/**
 * Finds the element a step names, polling until `timeoutMs`: the first candidate with a visible match
 * wins. The description says which strategy matched (shown as the step's selector). Polling stops
 * once `signal` aborts (a step given up on must not act later).
 */
export async function locate(
  page: Page,
  target: string,
  kind: TargetKind,
  timeoutMs: number,
  role?: TargetRole,
  signal?: AbortSignal,
): Promise<{ locator: Locator; selector: string }> {
  const deadline = Date.now() + timeoutMs;
  const list = candidates(page, target, kind, role);
  for (;;) {
    for (const [selector, locator] of list) {
      if (signal?.aborted) throw new AbortedError();
      const visible = locator.filter({ visible: true });
      if ((await visible.count().catch(() => 0)) > 0) return { locator: visible.first(), selector };
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const what = role ?? (kind === 'field' ? 'field' : kind === 'check' ? 'checkbox' : 'element');
  throw new Error(`No visible ${what} matching "${target}" on ${page.url()}`);
}
