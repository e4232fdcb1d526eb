import { formatStep, parseStep, TargetRoleSchema, type TestCase } from '@argus/protocol';
import type { CandidateContext } from './candidates';
import { atFailedStep, type Explored } from './explore';
import type { PageTexts } from './page-controls';
import type { RepairOptions } from './repair-types';
import type { RepairTarget } from './repairable';
import { type Survey, survey } from './survey';

/**
 * A target hidden behind one click: a redesign moved a filter link into a menu, or split a form in
 * two parts. The clicks worth trying, in order: a collapsed control (`aria-expanded="false"`, a popup
 * button, a closed `<details>`' summary), a button whose name says it holds more (a "More" or menu
 * button), then a button in the same form or dialog as the step before's element that shows the next
 * part without leaving the page. Each try starts from a fresh page (the earlier steps run again), so
 * one try's click never leaks into the next; at most `MAX_REVEALS` tries.
 */

export const MAX_REVEALS = 4;

export interface Trigger {
  /** The click to insert before the step: `Click button "Filter"`. */
  line: string;
  name: string;
  readRole: string;
}

const MENU_LIKE = /^(?:more|menu|options|actions|show more|more options|more actions|[…⋯⋮☰]+)$/i;
const CLICKABLE = new Set(['button', 'link', 'tab', 'summary', 'menuitem']);

export function revealTriggers(page: PageTexts, context: CandidateContext): Trigger[] {
  const clickable = page.controls.filter((c) => CLICKABLE.has(c.role) && !c.disabled && c.name);
  const usable = clickable.filter((c) => c.refs.length === 0);
  // A collapsed control an earlier step already opened (the menu a repair reached a filter through)
  // opens it again: the menu closed when its item was chosen.
  const collapsed = clickable.filter((c) => c.collapsed);
  const menus = usable.filter((c) => MENU_LIKE.test(c.name.trim()));
  const before = String(context.failedIndex - 1);
  // A form's "Next" an earlier step already clicked shows the next part again (a case adding two
  // items through a form now in two parts): after the buttons no step uses.
  const sameForm = clickable
    .filter((c) => c.role === 'button' && c.form !== null && c.near[before]?.tight)
    // A button that only shows the next part is seldom the form's submit button: those first.
    .sort(
      (a, b) =>
        Number(a.refs.length > 0) - Number(b.refs.length > 0) ||
        Number(a.type === 'submit') - Number(b.type === 'submit'),
    );
  const seen = new Set<number>();
  const triggers: Trigger[] = [];
  for (const control of [...collapsed, ...menus, ...sameForm]) {
    if (seen.has(control.id) || triggers.length >= MAX_REVEALS) continue;
    seen.add(control.id);
    const role = TargetRoleSchema.safeParse(control.role);
    const line = formatStep({
      verb: 'click',
      target: control.name,
      ...(role.success ? { role: role.data } : {}),
    });
    triggers.push({ line, name: control.name, readRole: control.role });
  }
  return triggers;
}

/**
 * Runs the earlier steps again, clicks the trigger and surveys the page it reveals (null: it left the
 * page). Only what the click revealed counts: a control already shown before it (`shown`, `role:name`)
 * is no hidden target, and the trigger itself is not its own replacement.
 */
export function surveyRevealed(
  testCase: TestCase,
  trigger: Trigger,
  input: { target: RepairTarget; context: CandidateContext; shown: PageTexts },
  options: RepairOptions,
): Promise<Explored<Survey | null>> {
  const exclude = new Set(input.shown.controls.map((c) => `${c.role}:${c.name}`));
  exclude.add(`${trigger.readRole}:${trigger.name}`);
  return atFailedStep(testCase, input.context.failedIndex, options, async (session) => {
    const path = pathOf(session.url);
    await session.perform(parseStep(trigger.line), { timeoutMs: 3_000 });
    // Let a menu or the next part render (an animation, a re-render after the click).
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (pathOf(session.url) !== path) return null;
    return survey(session, {
      steps: testCase.steps,
      target: input.target,
      context: input.context,
      exclude,
      signal: options.signal,
    });
  });
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}
