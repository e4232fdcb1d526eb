import { parses } from './repairable';

/**
 * The effect a step had when the case last passed, as far as a link can show it: the page it led to
 * (the last passing run's URL after the step, when the step changed it), and the URL texts later
 * steps check (`Verify URL contains "#/active"`). A candidate link leading there does what the step's
 * target did: the filter link "Active" moved into a menu as "Still open" still opens `#/active`.
 */
export interface StepEffect {
  /** The URL the step led to in the last passing run, when it led somewhere; else null. */
  ledTo: string | null;
  /** Texts later steps check the URL contains, before the next action. */
  urlChecks: string[];
}

export function stepEffect(
  steps: string[],
  failedIndex: number,
  lastPassing: { steps: { index: number; url: string | null }[] } | null,
): StepEffect {
  const urlAt = (index: number) => lastPassing?.steps.find((s) => s.index === index)?.url ?? null;
  const after = urlAt(failedIndex);
  const before = urlAt(failedIndex - 1);
  const ledTo = after && before && after !== before ? after : null;
  const urlChecks: string[] = [];
  for (const line of steps.slice(failedIndex + 1)) {
    const step = parses(line);
    if (!step) break;
    if (step.verb === 'verifyUrl') urlChecks.push(step.text);
    else if (!step.verb.startsWith('verify') && step.verb !== 'waitForText') break;
  }
  return { ledTo, urlChecks };
}

/** How much a link's destination says it has the step's effect, and in words; null for nothing. */
export function effectSignal(
  href: string | null,
  effect: StepEffect,
): { score: number; signal: string } | null {
  if (!href) return null;
  if (effect.ledTo && sameAddress(href, effect.ledTo)) {
    return {
      score: 0.5,
      signal: `same effect: it leads to ${tail(href)}, as the step did when the case last passed`,
    };
  }
  const checked = effect.urlChecks.find((text) => text.length > 0 && href.includes(text));
  if (checked)
    return { score: 0.3, signal: `it leads to a URL containing "${checked}", which a later step checks` };
  return null;
}

/**
 * Where a proved replacement led, when it led elsewhere than the step did when the case last passed
 * (a view's radio "Unread" in place of the link "Everything": both pass a check that the URL contains
 * "#/", only one does what the step did): that address, for the evidence; null when it is the same or
 * nothing is known.
 */
export function strayedTo(url: string | undefined, effect: StepEffect): string | null {
  if (!url || !effect.ledTo || sameAddress(url, effect.ledTo)) return null;
  return tail(url);
}

/** The same path, query and fragment (the origin of a run may differ from the last passing one's). */
function sameAddress(a: string, b: string): boolean {
  return tail(a) === tail(b);
}

function tail(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}${parsed.hash}`;
  } catch {
    return url;
  }
}
