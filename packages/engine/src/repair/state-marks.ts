import type { Step } from '@argus/protocol';
import type { Page } from 'playwright-core';
import { lookupOf } from '../failure/step-target';
import type { Candidate } from './candidates';
import { findStepElement } from './mark-steps';

/**
 * A state mark renamed by a redesign (`Verify "Walk the dog" is marked "completed"`, the item now
 * carrying `is-done`): the state words the element carries now, as `readMarks` reads them (a class
 * `<state>` or `is-<state>`, an `aria-<state>`, a `data-state`), on it or an ancestor up to its item.
 * Only words of a fixed vocabulary of states count, never a class name as such; an element carrying
 * none (the item was not marked at all: the app broke) gives nothing, and the case stays a bug.
 */
export async function stateCandidates(
  page: Page,
  step: Step,
  old: string,
  signal?: AbortSignal,
): Promise<Candidate[]> {
  const lookup = lookupOf(step);
  if (!lookup?.target) return [];
  const element = await findStepElement(page, lookup, signal).catch(() => null);
  if (!element) return [];
  const words = await element
    .evaluate(
      (el) => {
        const STATE =
          /^(?:is-|has-)?(completed?|done|finished|active|selected|current|checked|open|opened|expanded|pressed|highlighted|archived|starred|favou?rite|liked|applied|pinned|resolved|closed|on)$/i;
        const item = el.closest('li, tr, article, [role=listitem], [role=row]');
        const found = new Set<string>();
        for (let e: Element | null = el; e; e = e.parentElement) {
          for (const c of Array.from(e.classList)) {
            const m = c.match(STATE);
            if (m) found.add(m[1].toLowerCase());
          }
          // A ticked radio or checkbox is "checked" as readMarks reads it (`:checked`): a view chosen
          // by a radio button now, where a link was marked "current".
          if (e.matches('input:checked') || (e instanceof HTMLLabelElement && e.control?.matches(':checked')))
            found.add('checked');
          for (const a of ['pressed', 'selected', 'current', 'expanded', 'checked']) {
            const v = e.getAttribute(`aria-${a}`);
            if (v && v !== 'false') found.add(a);
          }
          const data = e.getAttribute('data-state') ?? e.getAttribute('data-status');
          if (data && STATE.test(data)) found.add(data.toLowerCase());
          if (!item || e === item) break;
        }
        return [...found];
      },
      null,
      { timeout: 1_000 },
    )
    .catch(() => [] as string[]);
  return words
    .filter((word) => word !== old.toLowerCase())
    .slice(0, 2)
    .map((word) => ({
      id: null,
      name: word,
      role: null,
      readRole: 'state',
      score: 0.5,
      signals: [`"${lookup.target}" is marked "${word}" now`],
      where: '',
    }));
}
